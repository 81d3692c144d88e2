# Shortcuts for the scripts (each creates or reuses .venv from pyproject.toml).
.PHONY: run test bench

run:    ## the kiosk in a window; without GPIO, seat buttons are on screen
	./scripts/run $(ARGS)

test:   ## the whole test suite
	./scripts/test

bench:  ## every benchmark (see docs/benchmarks.md)
	./scripts/bench
