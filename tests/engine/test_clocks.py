"""Clocks start when people can see them: a delivery's report (ClockSeen) gives the turn,
the refuter, the Liar! window, the caught liar and the passers their whole time from the
moment their message was delivered; a late, stale or repeated report never shortens one."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import REGISTRY
from engine import commands as cmd
from engine import events as ev
from engine.codec import (
    command_to_dict,
    event_to_dict,
    to_dict,
)
from engine.deadlines import deadlines, unseen_clock
from engine.decide import decide_and_apply
from engine.liars import commands as lcmd
from engine.liars import events as lev
from engine.liars.state import CLOCKS, Stage
from engine.settings import Settings
from engine.state import Game, Phase
from simulation.liarsplay import RandomLiars
from simulation.tableplay import RandomTable
from tests.support.classic import Classic, classic, suggest_to
from tests.support.liars import Liars, liars

TURN = classic().turn_time
REFUTE = classic().refute_time
WINDOW = liars().liar_window
LATE = timedelta(seconds=31)


def _seen(game: Classic, clock: str, ref: int, at: datetime | None = None) -> list[ev.Event]:
    return game.run(cmd.ClockSeen(clock=clock, ref=ref, seen_at=game.now if at is None else at))


def _due(game: Classic, key: str) -> datetime:
    return next(d.at for d in deadlines(game.game) if d.key == key)


def _classic() -> Classic:
    return Classic(3, roles=("scarlett", "mustard", "white"))


def _read(game: Liars, card: str = "pass", action: str = "pass") -> datetime:
    """Scarlett (user 1) stays and reads `card` (as `action`); the moment she read it."""
    game.hold(0, card)
    game.stay()
    game.read(action)
    return game.now


# --- the table's clocks ------------------------------------------------------------------
def test_the_turn_runs_its_whole_time_from_the_prompts_delivery() -> None:
    game = _classic()
    started = game.now
    game.wait(LATE)
    events = _seen(game, "turn", 1)
    assert events == [ev.ClockStarted(at=game.now, clock="turn", ref=1, due=game.now + TURN)]
    assert game.table.due == _due(game, "turn:1") == started + LATE + TURN
    assert game.table.clocks_seen == (("turn", 1),)


def test_a_second_report_of_a_clock_changes_nothing() -> None:
    game = _classic()
    game.wait(LATE)
    _seen(game, "turn", 1)
    game.wait(LATE)
    assert _seen(game, "turn", 1) == []  # a later edit of the same prompt
    assert game.table.due == game.now - LATE + TURN


def test_a_report_never_shortens_a_clock_and_never_comes_from_the_future() -> None:
    game = _classic()
    due = game.table.due
    assert _seen(game, "turn", 1, at=game.now - timedelta(minutes=5))[0].due == due  # type: ignore[attr-defined]
    later = _classic()
    later.wait(LATE)
    _seen(later, "turn", 1, at=later.now + timedelta(hours=1))
    assert later.table.due == later.now + TURN


def test_a_stale_report_changes_nothing() -> None:
    game = _classic()
    game.wait(LATE)
    assert _seen(game, "turn", 2) == [] and _seen(game, "turn", 0) == []
    assert _seen(game, "refute", 1) == []  # no suggestion waits
    assert _seen(game, "liar_window", 1) == []  # not a clock of the classic
    assert _seen(game, "no such clock", 1) == []
    game.fire_due()  # the turn timed out: the next turn's clock is another
    assert game.table.turn == 2 and _seen(game, "turn", 1) == []


def test_nothing_while_paused_or_once_the_game_is_over_or_without_a_table() -> None:
    game = _classic()
    game.run(cmd.PauseGame(actor=1, actor_is_admin=True))
    assert _seen(game, "turn", 1) == []
    game.run(cmd.ResumeGame(actor=1, actor_is_admin=True))
    game.accuse(game.envelope)
    assert game.game.phase is Phase.ENDED and _seen(game, "turn", 1) == []
    forum = Classic(3, settings=Settings())
    assert _seen(forum, "turn", 1) == []
    no_game = cmd.ClockSeen(clock="turn", ref=1, seen_at=game.now)
    assert Classic(3, start=False).run(no_game) == []


def test_a_report_needs_an_aware_moment() -> None:
    game = _classic()
    with pytest.raises(ValueError, match="timezone-aware"):
        _seen(game, "turn", 1, at=game.now.replace(tzinfo=None))


def test_the_refuter_gets_the_whole_refute_time_from_the_prompts_delivery() -> None:
    game = Classic(3, roles=("scarlett", "mustard", "white"))
    suggest_to(game, 1)
    number = game.table.suggestions[-1].number
    game.wait(LATE)
    _seen(game, "refute", number)
    assert _due(game, "refute:1") == game.now + REFUTE
    assert _seen(game, "refute", number) == []
    assert _seen(game, "refute", number + 1) == []


def test_the_turn_clock_standing_still_is_marked_seen_and_keeps_its_due() -> None:
    """The refuter answers meanwhile: the player has acted, the clock is theirs already."""
    game = _classic()
    suggest_to(game, 1)
    due = game.table.due
    game.wait(LATE)
    assert _seen(game, "turn", 1) == [
        ev.ClockStarted(at=game.now, clock="turn", ref=1, due=due)  # type: ignore[arg-type]
    ]
    game.fire_due()  # the refuter's time ran out: the turn's clock runs again
    assert _seen(game, "turn", 1) == []


# --- the Liars Edition's clocks ------------------------------------------------------------
def test_the_liar_window_is_whole_from_the_read_posts_delivery_and_a_late_call_is_taken() -> None:
    game = Liars(3)
    read_at = _read(game)
    game.wait(LATE)
    _seen(game, "liar_window", 1)
    assert _due(game, "liars:1:window") == read_at + LATE + WINDOW
    game.now = read_at + WINDOW + timedelta(seconds=5)  # after the window as first set
    assert all(d.at > game.now for d in deadlines(game.game))
    called = [e for e in game.call(2) if isinstance(e, lev.LiarCalled)]
    assert called and called[0].seat == 1


def test_the_turn_clock_stands_still_while_the_window_runs() -> None:
    game = Liars(3)
    _read(game)
    due = game.table.due
    events = _seen(game, "turn", 1, at=game.now + LATE)
    assert [e.due for e in events if isinstance(e, ev.ClockStarted)] == [due]


def test_the_caught_liar_and_the_passers_get_their_whole_time() -> None:
    game = Liars(3)
    _read(game, "lie")
    game.call(2)
    game.wait(LATE)
    assert _seen(game, "liar_window", 1) == []  # called: the window is over
    _seen(game, "liar_expose", 1)
    assert _due(game, "liars:1:expose") == game.now + REFUTE
    passing = Liars(3)
    _read(passing)
    passing.fire_due()  # nobody called: everyone passes a card
    play = passing.part.play
    assert play is not None and play.stage is Stage.PASSING
    passing.wait(LATE)
    _seen(passing, "liar_passing", 1)
    assert _due(passing, "liars:1:passing") == passing.now + REFUTE
    assert _seen(passing, "liar_passing", 1) == []


def test_the_clocks_and_their_marks_survive_the_codec() -> None:
    game = Liars(3)
    _read(game)
    game.wait(LATE)
    _seen(game, "liar_window", 1)
    report = cmd.ClockSeen(clock="liar_window", ref=1, seen_at=game.now)
    assert REGISTRY.codec.command_from_dict(command_to_dict(report)) == report
    assert all(REGISTRY.codec.event_from_dict(event_to_dict(e)) == e for e in game.events)
    assert REGISTRY.codec.from_dict(Game, to_dict(game.game)) == game.game


def test_a_new_turn_forgets_the_marks() -> None:
    game = _classic()
    _seen(game, "turn", 1)
    game.fire_due()
    assert game.table.turn == 2 and game.table.clocks_seen == ()


def test_each_deadline_names_its_clock_until_its_message_was_reported() -> None:
    """What the scheduler asks before it runs a deadline whose message may be on its way."""
    game = Liars(3)
    turn = cmd.TurnDeadline(turn=1)
    assert unseen_clock(game.game, turn) == ("turn", 1)
    _seen(game, "turn", 1)
    assert unseen_clock(game.game, turn) is None
    _read(game)
    window = lcmd.LiarsDeadline(turn=1, stage="window")
    assert unseen_clock(game.game, window) == ("liar_window", 1)
    _seen(game, "liar_window", 1)
    assert unseen_clock(game.game, window) is None
    classic_game = _classic()
    suggest_to(classic_game, 1)
    assert unseen_clock(classic_game.game, cmd.RefuteDeadline(turn=1)) == ("refute", 1)
    assert unseen_clock(classic_game.game, cmd.RefuteDeadline(turn=2)) is None
    assert unseen_clock(classic_game.game, cmd.DetectiveCue(seat=1)) is None
    assert unseen_clock(Classic(3, settings=Settings()).game, cmd.EndDay(day=1)) is None


# --- properties over random games ----------------------------------------------------------
def _clocks(game: Game) -> list[tuple[str, int]]:
    """Every report a delivery might make now: each clock of this turn and the next's, the
    last suggestions' refutations."""
    table = game.table
    assert table is not None
    turns = (table.turn - 1, table.turn, table.turn + 1)
    numbers = [s.number for s in table.suggestions[-2:]] + [len(table.suggestions) + 1]
    names = ("turn", *CLOCKS)
    return [(n, t) for n in names for t in turns] + [("refute", n) for n in numbers]


def _timed(game: Game) -> dict[str, datetime]:
    return {d.key: d.at for d in deadlines(game) if not d.key.startswith("detective:")}


def _report(game: Game, clock: str, ref: int, seen_at: datetime, now: datetime) -> Game | None:
    return decide_and_apply(game, cmd.ClockSeen(clock=clock, ref=ref, seen_at=seen_at), now).after


def _key(game: Game, clock: str) -> str:
    """The deadline row a clock's due comes from."""
    table = game.table
    assert table is not None
    if clock in CLOCKS:
        return f"liars:{table.turn}:{CLOCKS[clock].value}"
    return f"{clock}:{table.turn}"


def _live(game: Game, clock: str, ref: int) -> bool:
    """Whether the report is of this turn's (or its suggestion's) clock at all."""
    table = game.table
    assert table is not None
    pending = table.pending
    if clock == "refute":
        return pending is not None and pending.number == ref
    return ref == table.turn


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    liars_edition=st.booleans(),
    steps=st.integers(5, 200),
    later=st.integers(0, 900),
    delays=st.lists(st.integers(-120, 600), min_size=1, max_size=4),
)
def test_reports_never_shorten_a_clock_and_a_repeated_or_stale_one_changes_nothing(
    seed: int, liars_edition: bool, steps: int, later: int, delays: list[int]
) -> None:
    """A random game `steps` in; each clock reported `later` seconds on, as delivered
    `delays` seconds before that (a negative delay: a report from a skewed clock)."""
    kind = RandomLiars if liars_edition else RandomTable
    random_game = kind(seed=seed, players=3 + seed % 4)
    random_game.setup()
    for _ in range(steps):
        if random_game.game.phase is Phase.ENDED:
            return
        random_game.step()
    game, now = random_game.game, random_game.now + timedelta(seconds=later)
    before = _timed(game)
    for clock, ref in _clocks(game):
        for delay in delays:
            seen_at = now - timedelta(seconds=delay)
            after = _report(game, clock, ref, seen_at, now)
            assert after is not None
            timed = _timed(after)
            assert timed.keys() == before.keys()
            assert all(timed[k] >= at for k, at in before.items()), (clock, ref)
            if not _live(game, clock, ref):
                assert after is game, (clock, ref)
            if after is game:
                continue
            assert _report(after, clock, ref, seen_at - timedelta(seconds=5), now) is after
            changed = {k for k in before if timed[k] != before[k]}
            assert changed <= {_key(game, clock)}, (clock, ref, changed)
            if changed:
                span = game.settings.liar_window if clock == "liar_window" else None
                span = span or (game.settings.turn_time if clock == "turn" else None)
                span = span or game.settings.refute_time
                assert timed[_key(game, clock)] == min(seen_at, now) + span
