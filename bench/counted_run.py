"""`whodunit run` with its database transactions counted: for `bench.service`.

    .venv/bin/python -m bench.counted_run FILE   (then the usual WHODUNIT_* environment)

A SQLAlchemy event on every engine counts transactions begun (`begin`) and committed
(`commit`); a daemon thread writes "begun committed" to FILE every 0.2 s. Otherwise this is
`whodunit run` itself (`bot.cli.main(["run"])`): the count is how `bench.service` measures
transactions per update on SQLite, which has no statistics view.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from bot.cli import main as whodunit

COUNTS = {"begin": 0, "commit": 0}


def _count(kind: str) -> Any:
    def listener(*_: object) -> None:
        COUNTS[kind] += 1

    return listener


def _publish(path: Path) -> None:
    last = ""
    while True:
        now = f"{COUNTS['begin']} {COUNTS['commit']}"
        if now != last:
            path.with_suffix(".tmp").write_text(now)
            path.with_suffix(".tmp").replace(path)
            last = now
        time.sleep(0.2)


def main() -> int:
    """Count, then run the bot."""
    path = Path(sys.argv[1])
    event.listen(Engine, "begin", _count("begin"))
    event.listen(Engine, "commit", _count("commit"))
    threading.Thread(target=_publish, args=(path,), daemon=True).start()
    return whodunit(["run"])


if __name__ == "__main__":
    sys.exit(main())
