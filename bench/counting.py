"""The benchmarks' `--count` option: the notebook's deal count in machine code (compiled/,
what the bot runs) or the engine's pure-Python reference, for figures before and after."""

from __future__ import annotations

import argparse

from compiled import use_compiled_count


def add_count_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--count",
        choices=("compiled", "python"),
        default="compiled",
        help="the deal count the bot runs (compiled) or the engine's own (python)",
    )


def use_count(choice: str) -> None:
    """Count with the chosen one from now on in this process."""
    if choice == "compiled" and not use_compiled_count():
        raise SystemExit("--count compiled: the compiled count failed (the warning above says why)")
