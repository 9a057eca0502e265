"""Checking results: evaluation against gold, export checks, benchmarks, the browser."""
