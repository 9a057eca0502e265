"""Running a build: pipeline, engines, cache, timing and outputs."""
