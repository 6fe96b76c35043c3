"""Suggestions at the table, and refutation going left from the suggester."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

import pytest

from engine import commands as cmd
from engine import events as ev
from engine.cards import Category
from engine.errors import CardNotHeld, CardNotNamed, RuleError
from engine.table.errors import (
    AlreadySuggested,
    CannotStay,
    MustEnterRoom,
    NotInRoom,
    NotYourRefutation,
    RefutationPending,
)
from engine.table.queries import refutation_choices, turn_options
from engine.table.setup import table_cards
from engine.table.state import MoveKind, Step
from tests.support.classic import Classic

SUSPECTS = table_cards(Category.SUSPECT)
WEAPONS = table_cards(Category.WEAPON)
ROOMS = table_cards(Category.PLACE)
KITCHEN_DOOR = (4, 7)


def _game(players: int = 3) -> Classic:
    roles = ("scarlett", "mustard", "white", "green", "peacock", "plum")[:players]
    return Classic(players, roles=roles)


def _refused(game: Classic, error: type[RuleError], command: cmd.Command) -> None:
    before = game.state
    with pytest.raises(error):
        game.run(command)
    assert game.state is before


def _held(game: Classic, seat: int, cards: tuple[str, ...]) -> int:
    return len(set(game.game.players[seat].hand) & set(cards))


def _cards_where(game: Classic, test: Callable[[tuple[str, str, str]], bool]) -> tuple[str, ...]:
    return next(c for c in product(SUSPECTS, WEAPONS, ROOMS) if test(c))


def _enter(game: Classic, room: str) -> None:
    """The current player walks into the kitchen from its door."""
    assert room == "kitchen"
    game.put(game.current.role, KITCHEN_DOOR)
    game.rolled(1)
    game.move(room)


def _just_entered(game: Classic, room: str) -> None:
    """As if the current player had just walked into `room`."""
    game.put(game.current.role, room)
    game._table(step=Step.MOVED, entered=True)


def test_a_suggestion_only_in_the_room_one_is_in_naming_that_room() -> None:
    game = _game()
    game.rolled(2)
    game.move(turn_options(game.game, 1).squares[0])
    _refused(game, NotInRoom, cmd.Suggest(actor=1, suspect="plum", weapon="rope"))
    game = _game()
    _enter(game, "kitchen")
    assert turn_options(game.game, 1).suggest_in == "kitchen"
    made = next(e for e in game.suggest("plum", "rope") if isinstance(e, ev.TableSuggestionMade))
    assert made.room == "kitchen"


def test_a_suggestion_follows_entering_a_room_this_turn() -> None:
    game = _game()
    game.put("scarlett", "kitchen")
    _refused(game, MustEnterRoom, cmd.Suggest(actor=1, suspect="plum", weapon="rope"))


def test_the_named_suspect_token_and_weapon_move_into_the_room() -> None:
    game = _game()
    _enter(game, "kitchen")
    weapon = next(w for w, room in game.table.weapons if room != "kitchen")
    events = game.suggest("plum", weapon)
    moved = [e for e in events if isinstance(e, ev.TokenMoved)]
    assert [(e.suspect, e.to, e.kind) for e in moved] == [("plum", "kitchen", MoveKind.SUGGESTION)]
    assert any(isinstance(e, ev.WeaponMoved) and e.room == "kitchen" for e in events)
    assert game.table.place_of("plum") == "kitchen"
    assert game.table.room_of_weapon(weapon) == "kitchen"


def _finish_refutation(game: Classic) -> None:
    pending = game.table.pending
    if pending is not None and pending.refuter is not None:
        user = game.game.players[pending.refuter].user
        game.show(user, refutation_choices(game.game, user)[0])


def test_a_token_moved_in_by_a_suggestion_may_suggest_there_next_turn_without_moving() -> None:
    game = _game()
    _enter(game, "kitchen")
    game.suggest("mustard", "rope")
    _finish_refutation(game)
    game.end()
    assert game.current.role == "mustard"
    assert turn_options(game.game, 2).can_stay
    game.stay()
    assert game.table.step is Step.MOVED
    game.suggest("white", "dagger")
    assert game.table.suggestions[-1].room == "kitchen"


def test_staying_is_only_for_a_player_moved_in_by_a_suggestion() -> None:
    game = _game()
    game.put("scarlett", "kitchen")
    _refused(game, CannotStay, cmd.StayToSuggest(actor=1))


def test_the_right_to_stay_lasts_one_turn() -> None:
    game = _game()
    _enter(game, "kitchen")
    game.suggest("mustard", "rope")
    _finish_refutation(game)
    game.end()
    game.roll()  # Mustard rolls instead of staying
    options = turn_options(game.game, 2)
    game.move(options.squares[0] if options.squares else options.rooms[0])
    game.end()
    while game.current.role != "mustard":
        game.rolled(1)
        game.move(turn_options(game.game, game.current.user).squares[0])
        game.end()
    game.put("mustard", "kitchen")
    _refused(game, CannotStay, cmd.StayToSuggest(actor=2))


def test_after_suggesting_in_a_room_one_must_leave_before_suggesting_there_again() -> None:
    game = _game()
    _enter(game, "kitchen")
    game.suggest("plum", "rope")
    _finish_refutation(game)
    _refused(game, AlreadySuggested, cmd.Suggest(actor=1, suspect="plum", weapon="rope"))
    assert game.table.seats[0].suggested_in == "kitchen"
    game.end()
    for _ in range(2):
        game.rolled(1)
        game.move(turn_options(game.game, game.current.user).squares[0])
        game.end()
    assert game.current.role == "scarlett"
    _refused(game, CannotStay, cmd.StayToSuggest(actor=1))
    _refused(game, MustEnterRoom, cmd.Suggest(actor=1, suspect="plum", weapon="rope"))


def test_moved_into_the_room_again_one_may_suggest_there_again() -> None:
    game = _game()
    _enter(game, "kitchen")
    game.suggest("plum", "rope")
    _finish_refutation(game)
    game.end()
    _just_entered(game, "study")  # Mustard takes Scarlett out of the kitchen...
    game.suggest("scarlett", "rope")
    _finish_refutation(game)
    game.end()
    _just_entered(game, "kitchen")  # ...and White brings her back into it
    game.suggest("scarlett", "rope")
    _finish_refutation(game)
    game.end()
    assert game.table.place_of("scarlett") == "kitchen"
    assert turn_options(game.game, 1).can_stay
    game.stay()
    game.suggest("plum", "dagger")


def test_refutation_goes_left_passes_players_who_cannot_and_stops_at_the_first_who_shows() -> None:
    game = _game(4)
    named = _cards_where(game, lambda c: not _held(game, 1, c) and _held(game, 2, c) > 0)
    _just_entered(game, named[2])
    events = game.suggest(named[0], named[1])
    passes = [e.seat for e in events if isinstance(e, ev.CouldNotRefute)]
    asked = [e.seat for e in events if isinstance(e, ev.RefuterAsked)]
    assert passes == [1] and asked == [2]
    user = game.game.players[2].user
    choices = refutation_choices(game.game, user)
    assert set(choices) == set(named) & set(game.hand(user))
    shown = game.show(user, choices[-1])
    assert [type(e) for e in shown] == [ev.CardShown]
    assert game.table.step is Step.SUGGESTED and game.table.suggestions[-1].card == choices[-1]


def test_nobody_refutes_when_no_other_player_holds_a_named_card() -> None:
    game = _game(3)
    named = _cards_where(game, lambda c: not _held(game, 1, c) and not _held(game, 2, c))
    _just_entered(game, named[2])
    events = game.suggest(named[0], named[1])
    assert [type(e) for e in events if not isinstance(e, ev.TokenMoved | ev.WeaponMoved)] == [
        ev.TableSuggestionMade,
        ev.CouldNotRefute,
        ev.CouldNotRefute,
        ev.NobodyRefuted,
    ]
    assert turn_options(game.game, 1).can_end_turn and turn_options(game.game, 1).can_accuse


def test_the_refuter_shows_only_a_named_card_they_hold() -> None:
    game = _game(3)
    named = _cards_where(game, lambda c: _held(game, 1, c) == 1)
    _just_entered(game, named[2])
    game.suggest(named[0], named[1])
    not_held = next(c for c in named if c not in game.hand(2))
    not_named = next(c for c in game.hand(2) if c not in named)
    _refused(game, CardNotHeld, cmd.ShowCard(actor=2, card=not_held))
    _refused(game, CardNotNamed, cmd.ShowCard(actor=2, card=not_named))
    _refused(game, NotYourRefutation, cmd.ShowCard(actor=3, card=named[0]))
    _refused(game, RefutationPending, cmd.EndTurn(actor=1))
    _refused(
        game, RefutationPending, cmd.Accuse(actor=1, suspect="plum", weapon="rope", place="hall")
    )
