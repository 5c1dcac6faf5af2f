// Tests for QuarryCLI live in this target.
