"""Accusations at the table: own turn, any room, checked at once; out, or the win."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.events import EndReason
from engine.queries import reveal
from engine.state import Phase
from engine.table.errors import NotYourTurn
from engine.table.queries import refutation_choices, turn_options
from engine.table.state import MoveKind, Step, TurnEnd
from tests.support.classic import Classic


def _game(players: int = 3) -> Classic:
    roles = ("scarlett", "mustard", "white", "green", "peacock", "plum")[:players]
    return Classic(players, roles=roles)


def test_an_accusation_only_on_ones_own_turn() -> None:
    game = _game()
    before = game.state
    with pytest.raises(NotYourTurn):
        game.accuse(game.envelope, user=2)
    assert game.state is before


def test_a_right_accusation_naming_any_room_wins_and_shows_the_envelope() -> None:
    game = _game()
    assert isinstance(game.table.place_of("scarlett"), tuple)  # not in the room named
    events = game.accuse(game.envelope)
    assert isinstance(events[0], ev.AccusedAtTable) and events[0].correct
    assert game.game.phase is Phase.ENDED and game.game.winner == 0
    assert reveal(game.game).envelope == game.envelope


def test_a_right_accusation_may_follow_a_suggestion() -> None:
    game = _game()
    game.put("scarlett", "hall")
    game._table(step=Step.MOVED, entered=True)
    game.suggest("plum", "rope")
    pending = game.table.pending
    if pending is not None and pending.refuter is not None:
        user = game.game.players[pending.refuter].user
        game.show(user, refutation_choices(game.game, user)[0])
    game.accuse(game.envelope)
    assert game.game.end_reason is EndReason.WON


def test_a_wrong_accuser_is_out_and_their_token_moves_from_the_corridor_to_the_nearest_room() -> (
    None
):
    game = _game()
    game.put("scarlett", (4, 8))  # by the kitchen's door
    events = game.accuse(game.wrong())
    moved = [e for e in events if isinstance(e, ev.TokenMoved)]
    assert [(e.to, e.kind) for e in moved] == [("kitchen", MoveKind.OUT)]
    ended = next(e for e in events if isinstance(e, ev.TurnEnded))
    assert ended.reason is TurnEnd.ACCUSED
    player = game.game.players[0]
    assert player.accused and player.eliminated and game.game.phase is Phase.RUNNING
    assert game.current.role == "mustard"


def test_a_wrong_accuser_in_a_room_stays_there() -> None:
    game = _game()
    game.put("scarlett", "lounge")
    events = game.accuse(game.wrong())
    assert not any(isinstance(e, ev.TokenMoved) for e in events)


def test_a_player_who_is_out_takes_no_more_turns_but_still_refutes() -> None:
    game = _game()
    game.accuse(game.wrong())
    seen = []
    for _ in range(4):
        seen.append(game.current.role)
        game.rolled(1)
        game.move(turn_options(game.game, game.current.user).squares[0])
        game.end()
    assert "scarlett" not in seen
    scarlett = game.game.players[0]
    card = scarlett.hand[0]
    suggestion = _naming(game, card)
    game.put(game.current.role, suggestion[2])
    game._table(step=Step.MOVED, entered=True)
    events = game.suggest(suggestion[0], suggestion[1])
    asked = [e.seat for e in events if isinstance(e, ev.RefuterAsked)]
    assert asked == [0]  # only she holds a named card (the rest are the envelope's)
    game.show(1, card)
    assert game.table.suggestions[-1].card == card


def _naming(game: Classic, card: str) -> tuple[str, str, str]:
    """A suggestion naming `card` and otherwise cards in the envelope."""
    suspect, weapon, room = game.envelope
    kind = game.game.pack.category_of(card)
    if kind is not None and kind.value == "suspect":
        return (card, weapon, room)
    if kind is not None and kind.value == "weapon":
        return (suspect, card, room)
    return (suspect, weapon, card)


def test_when_all_are_out_nobody_wins_and_the_envelope_is_shown() -> None:
    game = _game(3)
    for _ in range(3):
        game.accuse(game.wrong())
    final = game.game
    assert final.phase is Phase.ENDED and final.end_reason is EndReason.NO_WINNER
    assert final.winner is None and reveal(final).envelope == game.envelope


def test_the_last_player_in_plays_on_alone_until_they_accuse() -> None:
    game = _game(3)
    game.accuse(game.wrong())
    game.accuse(game.wrong())
    assert game.current.role == "white"
    game.rolled(1)
    game.move(turn_options(game.game, 3).squares[0])
    game.end()
    assert game.current.role == "white" and game.game.phase is Phase.RUNNING
    game.accuse(game.envelope)
    assert game.game.winner == 2
