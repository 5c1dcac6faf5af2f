// Tests for QuarrySQL live in this target.
