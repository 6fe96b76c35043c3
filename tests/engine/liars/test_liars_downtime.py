"""Liars Edition timers forgiven for the bot's downtime, as the classic turn and refuter
timers are: a Liar! window, a caught liar's or the passers' time that ran out while no bot
was running goes on with a fresh timer (nothing decided by the GM), once."""

from __future__ import annotations

from datetime import timedelta

from engine.deadlines import deadlines
from engine.liars import commands as lcmd
from engine.liars import events as lev
from engine.liars.state import Stage
from tests.support.liars import Liars, liars
from tests.support.liars_invariants import check_liars_invariants

DOWN = timedelta(hours=2)


def _read(card: str, action: str, **settings: object) -> Liars:
    """Scarlett (user 1) stayed in her room and reads `card` as `action`."""
    game = Liars(3, settings=liars(**settings))
    game.hold(0, card)
    game.stay()
    game.read(action)
    return game


def _renewed(game: Liars, stage: Stage, fresh: timedelta) -> None:
    """The stage's deadline, run excused after the downtime: a fresh timer, nothing else;
    run again: nothing."""
    play = game.part.play
    assert play is not None and play.stage is stage and play.due is not None
    game.now = play.due + DOWN
    late = lcmd.LiarsDeadline(turn=play.turn, stage=stage.value, excused=True)
    events = game.run(late)
    assert events == [
        lev.LiarsTimerRenewed(at=game.now, turn=play.turn, stage=stage, due=game.now + fresh)
    ]
    again = game.part.play
    assert again is not None and again.stage is stage and again.due == game.now + fresh
    key = f"liars:{play.turn}:{stage.value}"
    assert [(d.key, d.at) for d in deadlines(game.game)] == [(key, game.now + fresh)]
    assert game.run(late) == []  # fired twice: nothing
    check_liars_invariants(game.game)


def test_a_liar_window_that_closed_while_the_bot_was_down_stays_open_with_a_fresh_timer() -> None:
    window = timedelta(seconds=40)
    game = _read("lie", "move", liar_window=window)
    _renewed(game, Stage.WINDOW, window)
    events = game.call(2)  # Liar! may still be pressed
    assert any(isinstance(e, lev.LiarCalled) and e.lie for e in events)


def test_a_caught_liar_whose_time_ran_out_while_the_bot_was_down_still_chooses() -> None:
    game = _read("lie", "move")
    game.call(2)
    _renewed(game, Stage.EXPOSE, game.game.settings.refute_time)
    assert not any(isinstance(e, lev.CardExposed) for e in game.events)  # not by the GM
    card = game.hand(1)[-1]
    events = game.run(lcmd.ExposeCard(actor=1, card=card))
    exposed = [e for e in events if isinstance(e, lev.CardExposed)]
    assert [(e.card, e.by_gm) for e in exposed] == [(card, False)]


def test_passers_whose_time_ran_out_while_the_bot_was_down_still_choose() -> None:
    game = _read("pass", "pass")
    game.fire_due()  # the window closes with the bot up: the passes begin
    chosen = game.hand(2)[-1]
    game.run(lcmd.PassCard(actor=2, card=chosen))
    _renewed(game, Stage.PASSING, game.game.settings.refute_time)
    assert not any(isinstance(e, lev.PassChosen) and e.by_gm for e in game.events)
    game.run(lcmd.PassCard(actor=1, card=game.hand(1)[-1]))
    game.run(lcmd.PassCard(actor=3, card=game.hand(3)[-1]))
    assert game.part.play is not None and game.part.play.stage is Stage.DONE
    assert chosen in game.hand(3)


def test_a_renewed_timer_that_runs_out_with_the_bot_up_is_decided_as_usual() -> None:
    game = _read("lie", "move")
    game.call(2)
    _renewed(game, Stage.EXPOSE, game.game.settings.refute_time)
    first = game.hand(1)[0]
    events = game.fire_due()
    assert [(e.card, e.by_gm) for e in events if isinstance(e, lev.CardExposed)] == [(first, True)]


def test_the_turn_clock_stood_still_through_the_renewed_window() -> None:
    game = _read("move", "move")
    due, read_at = game.table.due, game.part.play.read_at if game.part.play else None
    assert due is not None and read_at is not None
    _renewed(game, Stage.WINDOW, game.game.settings.liar_window)
    game.fire_due()  # the fresh window closes with nobody calling
    assert game.table.due == due + (game.now - read_at)
