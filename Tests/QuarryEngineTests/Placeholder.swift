// Tests for QuarryEngine live in this target.
