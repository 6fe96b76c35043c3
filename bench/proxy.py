"""The round-robin reverse proxy of `bench.service`'s webhook modes, as its own process.

    .venv/bin/python -m bench.proxy PORT_FILE WORKER_PORT[,WORKER_PORT...]

`testbed.proxy.RoundRobin` (what Caddy is in deploy/compose.yaml): each update the
fake Bot API posts goes to the next worker. Run apart from the driver so that its CPU time
is its own; writes its port to PORT_FILE once listening; on SIGTERM prints the updates each
worker took (``taken {port: count, ...}``) and exits.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from testbed.proxy import RoundRobin


async def serve(port_file: Path, ports: list[int]) -> None:
    """Forward until SIGTERM or SIGINT."""
    proxy = RoundRobin(ports)
    await proxy.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    tmp = port_file.with_suffix(".tmp")
    tmp.write_text(str(proxy.port))
    os.replace(tmp, port_file)
    try:
        await stop.wait()
    finally:
        await proxy.stop()
        print("taken", json.dumps(proxy.taken), flush=True)


def main() -> None:
    """Entry point."""
    asyncio.run(serve(Path(sys.argv[1]), [int(p) for p in sys.argv[2].split(",")]))


if __name__ == "__main__":
    main()
