"""The `whodunit` command line."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["run"]:
        print("whodunit: the Telegram bot layer is not there yet.", file=sys.stderr)
        return 2
    print("usage: whodunit run | whodunit db upgrade", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
