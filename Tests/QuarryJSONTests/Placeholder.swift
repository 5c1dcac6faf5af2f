// Tests for QuarryJSON live in this target.
