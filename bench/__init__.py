"""Benchmarks that print figures; run each as a module from the repository root
(`.venv/bin/python -m bench.engine`), see docs/performance.md."""
