"""The figures of one bench/tempo game (bench/tempo.py's docstring says what each means),
worked out from what the game left behind (bench/tempo_play.py `Played`)."""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from dataclasses import dataclass, field

from bench.tempo_play import Played, Row
from bot.demo.shown import EDITS, SENDS, spot_of
from engine.events import TurnEnded
from engine.liars.events import InvestigationRead
from engine.table.state import TurnEnd
from fakebot import ApiCall

COUNTED = SENDS | EDITS  # the group calls counted: posts and edits
GROUP_LIMIT = 20  # posts and edits a minute in a group (Telegram's)
STALL = 2.0  # seconds a row may go later than the limit lets it (the clock's steps, renders)
MARK_WITHIN = 2.0  # seconds from a call to its row's mark (the sender marks at the answer)
KEY = re.compile(r"^g(?P<game>\d+):e(?P<seq>\d+):")
UNIT_EVENTS = {"forum": ("SuggestionMade",)}  # a forum "turn": one suggestion
TURN_EVENTS = ("TurnStarted",)


@dataclass
class Figures:
    """One game's figures; the lists hold one value per measured thing (seconds)."""

    turns: int = 0
    minutes: float = 0.0
    days: int = 0  # a forum game's days
    ended: str = ""  # how the game ended (the last event's type), "" if it did not
    group_calls: int = 0
    per_turn: list[int] = field(default_factory=list)  # group calls of each turn
    before_first: int = 0  # group calls before the first turn (the start)
    after_end: int = 0  # ... and from the game's end on (verdict, end post, story)
    buttons: list[float] = field(default_factory=list)  # step opened -> its buttons shown
    behind: list[float] = field(default_factory=list)  # private message -> group caught up
    toasts: list[float] = field(default_factory=list)  # press -> its toast
    day_ends: list[tuple[int, int]] = field(default_factory=list)  # (posts, edits) per day end
    liar_windows: list[float] = field(default_factory=list)  # window left when the card showed
    stalls: list[float] = field(default_factory=list)  # seconds a row went later than the limit
    timed_out: int = 0  # turns the clock ended

    @property
    def per_minute(self) -> float:
        return self.turns / self.minutes if self.minutes > 0 else 0.0

    @property
    def mean_per_turn(self) -> float:
        return sum(self.per_turn) / len(self.per_turn) if self.per_turn else 0.0


def figures(played: Played) -> Figures:
    """Every figure of the game."""
    found = Figures(toasts=list(played.toasts))
    units = UNIT_EVENTS.get(played.spec.format, TURN_EVENTS)
    starts = [(at, seq) for seq, kind, at in played.events if kind in units]
    ends = [(at, seq) for seq, kind, at in played.events if kind == "GameEnded"]
    found.turns = len(starts)
    if starts:
        last = ends[0][0] if ends else played.events[-1][2]
        found.minutes = (last - starts[0][0]) / 60
    found.ended = "GameEnded" if ends else ""
    found.days = sum(kind == "DayOpened" for _, kind, _ in played.events)
    rows_of = _match_rows(played)
    _count_group(played, found, rows_of, starts, ends[0] if ends else None)
    found.buttons = _buttons(played, rows_of)
    found.behind = _behind(played)
    found.day_ends = _day_ends(played)
    found.liar_windows = _liar_windows(played)
    found.timed_out = _timed_out(played)
    found.stalls = _stalls(played, rows_of)
    return found


def _match_rows(played: Played) -> dict[int, Row]:
    """The outbox row behind each call of the log (by the call's index): a send is the
    row marked with its message, an edit the next edit row of that message marked just
    after it; a call with none was the handlers' own (a composer's step, a press's buttons
    taken off)."""
    by_key = {row.key: row for row in played.rows}
    pending: dict[int, list[Row]] = {}
    for row in sorted((r for r in played.rows if r.sent is not None), key=lambda r: r.sent or 0):
        pending.setdefault(row.chat, []).append(row)
    matched: dict[int, Row] = {}
    for index, (at, call) in enumerate(played.calls):
        spot = spot_of(call)
        if spot is None:
            continue
        chat, message = spot
        for row in pending.get(chat, []):
            sent = row.sent or 0.0
            if sent < at:
                continue
            if sent - at > MARK_WITHIN:
                break
            if _shows(row, message, by_key, call):
                matched[index] = row
                pending[chat].remove(row)
                break
    return matched


def _shows(row: Row, message: int, by_key: dict[str, Row], call: ApiCall) -> bool:
    if call.method in SENDS:
        return not row.edit and row.message == message
    target = by_key.get(row.target or "")
    return row.edit and target is not None and target.message == message


def _count_group(
    played: Played,
    found: Figures,
    rows_of: dict[int, Row],
    starts: list[tuple[float, int]],
    end: tuple[float, int] | None,
) -> None:
    """Each group call counted to the turn of the event its row was written for (a call of
    the handlers' own: the turn in progress then)."""
    start_seqs = [seq for _, seq in starts]
    start_times = [at for at, _ in starts]
    counts: Counter[int] = Counter()
    for index, (at, call) in enumerate(played.calls):
        if call.method not in COUNTED or call.params.get("chat_id") != played.group:
            continue
        row = rows_of.get(index)
        seq = _seq(row.key) if row is not None else None
        if seq is not None:
            late = end is not None and seq >= end[1]
            turn = bisect.bisect_right(start_seqs, seq) - 1
        else:
            moment = row.created if row is not None else at
            late = end is not None and moment >= end[0]
            turn = bisect.bisect_right(start_times, moment) - 1
        if late:
            found.after_end += 1
        elif turn < 0:
            found.before_first += 1
        else:
            counts[turn] += 1
    found.per_turn = [counts[turn] for turn in range(len(starts))]
    found.group_calls = sum(found.per_turn) + found.before_first + found.after_end


def _seq(key: str) -> int | None:
    match = KEY.match(key)
    return int(match["seq"]) if match else None


def _buttons(played: Played, rows_of: dict[int, Row]) -> list[float]:
    """For each press: from the moment the step it belongs to was opened (the write of the
    row that showed its button, or for an edit the presser's own press before, if later:
    an edit waiting may have taken a later write's content; for a message the handler
    edited itself, the press that made it do so) to the moment its button was shown; from
    the game's start on."""
    by_chat: dict[int, list[float]] = {}
    by_person: dict[int, list[float]] = {}
    for act in played.acts:
        if act.data is not None:
            by_chat.setdefault(act.chat, []).append(act.at)
            by_person.setdefault(act.person, []).append(act.at)
    began = next((at for _, kind, at in played.events if kind == "GameStarted"), 0.0)
    waits = []
    for act in played.acts:
        if act.data is None or act.shown is None or act.at < began:
            continue
        row = rows_of.get(act.shown)
        if row is not None:
            pressed = _last(by_person.get(act.person, []), act.seen) if row.edit else None
            opened: float | None = max(row.created, pressed or row.created)
        else:
            opened = _last(by_chat.get(act.chat, []), act.seen)
        if opened is not None:
            waits.append(max(0.0, act.seen - opened))
    return waits


def _last(moments: list[float], until: float) -> float | None:
    """The latest of the (ordered) `moments` at or before `until` (None: none)."""
    index = bisect.bisect_right(moments, until)
    return moments[index - 1] if index else None


class GroupCaughtUp:
    """When the group had been sent every row of the game written up to a moment."""

    def __init__(self, played: Played) -> None:
        game = [r for r in played.rows if KEY.match(r.key)]
        self.rows = sorted(
            (r for r in game if r.chat == played.group and r.sent is not None),
            key=lambda r: r.created,
        )
        self.created = [r.created for r in self.rows]
        self.latest: list[float] = []  # the latest sending among the rows up to each one
        latest = -math.inf
        for row in self.rows:
            latest = max(latest, row.sent or latest)
            self.latest.append(latest)

    def at(self, written: float) -> float | None:
        """For a write at `written` (None: no group row was written by then)."""
        upto = bisect.bisect_right(self.created, written)
        return self.latest[upto - 1] if upto else None

    def changed(self, written: float) -> bool:
        """Whether the write at `written` posted in the group, or came while an edit of the
        group waited (which it may have become part of)."""
        upto = bisect.bisect_right(self.created, written)
        if upto and self.created[upto - 1] == written:
            return True
        return any(r.edit and r.created < written < (r.sent or 0) for r in self.rows[:upto])


def _behind(played: Played) -> list[float]:
    """For each write of the game that sent a player a private message and changed the
    group: from the first of those private messages being sent to the moment every group
    row written up to that write had been sent."""
    group = GroupCaughtUp(played)
    private: dict[float, float] = {}
    for row in played.rows:
        if KEY.match(row.key) and row.chat > 0 and row.sent is not None:
            private[row.created] = min(private.get(row.created, math.inf), row.sent)
    lags = []
    for written, first in sorted(private.items()):
        caught_up = group.at(written)
        if caught_up is not None and group.changed(written):
            lags.append(caught_up - first)
    return lags


def _liar_windows(played: Played) -> list[float]:
    """For each investigation card read aloud (Liars): how long its Liar! window was still
    open when the group had been shown it (negative: it had closed before)."""
    group = GroupCaughtUp(played)
    times = {seq: at for seq, _, at in played.events}
    left = []
    for seq, event in enumerate(played.log, start=1):
        if isinstance(event, InvestigationRead) and not event.by_gm:
            shown = group.at(times[seq])
            if shown is not None:
                left.append(event.due.timestamp() - shown)
    return left


def _timed_out(played: Played) -> int:
    """Turns the turn's clock ended."""
    return sum(isinstance(e, TurnEnded) and e.reason == TurnEnd.TIMED_OUT for e in played.log)


def _stalls(played: Played, rows_of: dict[int, Row]) -> list[float]:
    """The bench's check of itself (and of the sender): each row sent more than STALL
    seconds after the limit let it go (its chat's call before it, the call a window before
    it, its own writing), none expected."""
    calls: dict[int, list[float]] = {}
    late = []
    for index, (at, call) in enumerate(played.calls):
        chat = call.params.get("chat_id")
        if call.method not in COUNTED or not isinstance(chat, int):
            continue
        before = calls.setdefault(chat, [])
        row = rows_of.get(index)
        if row is not None:
            count = GROUP_LIMIT if chat < 0 else 1
            window = 60.0 if chat < 0 else 1.0
            free = [row.created, *before[-1:]]
            if len(before) >= count:
                free.append(before[-count] + window)
            if at - max(free) > STALL:
                late.append(at - max(free))
        before.append(at)
    return late


def _day_ends(played: Played) -> list[tuple[int, int]]:
    """For each day's end: the group posts and edits its write queued."""
    ended = {at for _, kind, at in played.events if kind == "DayEnded"}
    found = []
    for moment in sorted(ended):
        rows = [r for r in played.rows if r.chat == played.group and r.created == moment]
        found.append((sum(not r.edit for r in rows), sum(r.edit for r in rows)))
    return found


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile `q` (0–100) of `values` (nan for none)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]
