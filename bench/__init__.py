"""`make bench`: each figure against a baseline measured in the same run (docs/benchmarks.md)."""
