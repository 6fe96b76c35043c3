"""A clock starts when people can see it. The delivery of the message someone must act on
reports its moment (`ClockSeen`), and the clock then runs its whole span from that moment:
a group at Telegram's limit may hold a post back for a while, and the time to answer it
must not run out meanwhile. Which clocks there are is the table edition's
(`Edition.clock`); a forum game has none (its days and answers outlast any delay)."""

from __future__ import annotations

from datetime import datetime

from engine import commands as cmd
from engine import events as ev
from engine.decision import Decision
from engine.format import format_of
from engine.state import Game


def clock_seen(state: Game | None, c: cmd.ClockSeen, now: datetime) -> Decision:
    """The clock's deadline becomes the later of its own and the delivery plus its span
    (a stopped clock keeps its own). Stale (another turn, suggestion or stage), reported
    before, the game over or paused, or a game without a table: nothing, never an error
    (the delivery reports what it sent, whatever happened meanwhile)."""
    if c.seen_at.tzinfo is None:
        raise ValueError("seen_at must be timezone-aware")
    if state is None or not state.running or state.paused:
        return Decision(state)
    clock = format_of(state).fresh_clock(state, c.clock, c.ref)
    if clock is None:
        return Decision(state)
    seen_at = min(c.seen_at, now)  # a report is never of a moment still to come
    due = clock.due if clock.stopped else max(clock.due, seen_at + clock.span)
    return Decision(state, ev.ClockStarted(at=now, clock=c.clock, ref=c.ref, due=due))
