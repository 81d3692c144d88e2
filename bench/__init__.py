"""Benchmarks: ``python -m bench`` (or ./scripts/bench) prints one JSON object
per figure: {"name", "value", "unit", "better"}."""
