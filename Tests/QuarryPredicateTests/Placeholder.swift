// Tests for QuarryPredicate live in this target.
