"""Worker threads and the event loop: how soon the loop gets the interpreter back.

The bot works out notebooks, stories and the computer detectives' moves in worker threads
(pure Python, CPU-bound) beside the event loop that handles every update, and SQLite's jobs
run in threads too. A thread that wants the interpreter waits until the running one has
held it for the switch interval, 5 ms by default; an update gives the interpreter up at
every await, so while a long count ran (seconds at the forum's ten seats) each update
waited up to 5 ms at each of its steps. Half a millisecond keeps that wait small
(`python -m bench.loop_beside`), and costs a thread running alone nothing: no switch
happens unless another thread asks.
"""

from __future__ import annotations

import sys

SWITCH_SECONDS = 0.0005


def hand_over_quickly() -> None:
    """Let a waiting thread (the event loop) in after half a millisecond, not five."""
    sys.setswitchinterval(SWITCH_SECONDS)
