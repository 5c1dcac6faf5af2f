import QuarryCLI
