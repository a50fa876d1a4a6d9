"""The search benchmark: `python -m bench --help` (or `make bench`). See README.md, "Performance"."""
