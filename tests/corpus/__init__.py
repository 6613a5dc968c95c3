"""Functions run original vs converted by `tests/test_differential.py`, inputs next to each."""
