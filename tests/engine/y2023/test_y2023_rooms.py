"""The 2023 edition in a room: a card placed face down there (the two-player game) is looked
at privately on entering, and nothing is looked at where nothing lies; the suggestion as
the classic; the accusation only after the move, from a room."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.events import EndReason
from engine.table.errors import NotYourTurn
from engine.table.queries import turn_options
from engine.y2023 import events as yev
from engine.y2023.errors import AccuseAfterMoving, AccuseOutsideRoom
from engine.y2023.queries import private_view
from tests.support.y2023 import Y2023Game


def _game(players: int = 3) -> Y2023Game:
    game = Y2023Game(players)
    game.first_to(1)
    return game


def test_entering_a_room_with_a_placed_card_the_player_looks_at_it_privately() -> None:
    game = _game(2)  # only the two-player game places cards in rooms
    card = game.y2023.placed[0][1]
    game.set_edition(placed=(("library", card), *game.y2023.placed[1:]))
    game.put("scarlett", (16, 17))
    game.rolled(3)
    events = game.move("library")
    seen = [e for e in events if isinstance(e, yev.PlacedCardSeen)]
    assert [(e.seat, e.room, e.card) for e in seen] == [(0, "library", card)]
    assert ("library", card) in private_view(game.game, 0).peeked
    assert card not in private_view(game.game, 1).cards


def test_the_placed_card_is_looked_at_before_suggesting_and_stays_in_the_room() -> None:
    game = _game(2)  # only the two-player game places cards in rooms
    room, card = game.y2023.placed[0]
    game.put("scarlett", room)
    events = game.roll_and_stay()
    assert [e.card for e in events if isinstance(e, yev.PlacedCardSeen)] == [card]
    assert turn_options(game.game, 1).suggest_in == room
    assert game.y2023.card_in(room) == card


def test_the_secret_passage_into_a_room_with_a_card_shows_it() -> None:
    game = _game(2)  # only the two-player game places cards in rooms
    _, card = game.y2023.placed[0]
    game.set_edition(placed=(("study", card), *game.y2023.placed[1:]))
    game.put("scarlett", "kitchen")
    events = game.roll_and_passage()
    assert [e.card for e in events if isinstance(e, yev.PlacedCardSeen)] == [card]


def test_a_card_already_seen_is_not_shown_again() -> None:
    game = _game(2)  # only the two-player game places cards in rooms
    room, _ = game.y2023.placed[0]
    game.put("scarlett", room)
    game.roll_and_stay()
    game.end()
    game.first_to(1)
    game.put("scarlett", room)
    assert not any(isinstance(e, yev.PlacedCardSeen) for e in game.roll_and_stay())


def test_three_players_entering_any_room_look_at_nothing() -> None:
    game = _game()
    assert game.y2023.placed == ()
    for room in game.game.pack.places:
        game.first_to(1)
        game.put("scarlett", room)
        events = game.roll_and_stay()
        assert not any(isinstance(e, yev.PlacedCardSeen) for e in events)
        game.end()
    assert game.y2023.seen == ()


def test_the_suggestion_as_the_classic_tokens_move_refutation_goes_left() -> None:
    game = _game()
    game.put("scarlett", "hall")
    game.roll_and_stay()
    suspect, weapon, _ = game.envelope  # nobody holds these: only Mustard's card matches
    mustard = game.hand(2)
    named = next(c for c in mustard if c in game.game.pack.suspects + game.game.pack.weapons)
    if named in game.game.pack.suspects:
        suspect = named
    else:
        weapon = named
    events = game.suggest(suspect, weapon)
    assert any(isinstance(e, ev.TableSuggestionMade) and e.room == "hall" for e in events)
    assert game.table.room_of_weapon(weapon) == "hall"
    assert game.table.place_of(suspect) == "hall"
    asked = [e.seat for e in events if isinstance(e, ev.RefuterAsked)]
    assert asked == [1]  # the first player to the left holding a named card chooses
    game.show(2, named)
    assert game.table.suggestions[-1].card == named
    assert named in private_view(game.game, 0).shown
    assert named not in private_view(game.game, 2).cards


def test_an_accusation_outside_a_room_is_refused_and_changes_nothing() -> None:
    game = _game()
    game.next_roll(glass=False)
    game.roll()
    game.move(turn_options(game.game, 1).squares[0])
    assert not turn_options(game.game, 1).can_accuse
    before = game.state
    with pytest.raises(AccuseOutsideRoom):
        game.accuse(game.envelope)
    assert game.state is before


def test_an_accusation_comes_after_the_roll_and_the_move_never_before() -> None:
    """ "Vi komencos vian vicon ĵetante la du ĵetkubojn" and "La unua ago, kiun vi faros en
    via vico, estas movi vian karakteron": the dice begin the turn, the move comes first."""
    game = _game()
    game.put("scarlett", "hall")
    for step in ("before the roll", "after the roll, before the move"):
        assert not turn_options(game.game, 1).can_accuse, step
        before = game.state
        with pytest.raises(AccuseAfterMoving):
            game.accuse(game.envelope)
        assert game.state is before, step
        if step == "before the roll":
            game.next_roll(glass=False)
            game.roll()
    game.stay()  # staying stands for the move
    assert turn_options(game.game, 1).can_accuse
    ended = game.accuse(game.envelope)[-1]
    assert isinstance(ended, ev.GameEnded) and ended.winner == 0


def test_an_accusation_only_on_ones_turn() -> None:
    game = _game()
    game.put("mustard", "hall")
    with pytest.raises(NotYourTurn):
        game.accuse(game.envelope, user=2)


def test_an_accusation_from_any_room_right_wins_at_once() -> None:
    game = _game()
    room = game.envelope[2]
    elsewhere = next(r for r in game.game.pack.places if r != room)
    game.put("scarlett", elsewhere)
    game.roll_and_stay()
    assert turn_options(game.game, 1).can_accuse
    events = game.accuse(game.envelope)
    ended = events[-1]
    assert isinstance(ended, ev.GameEnded) and ended.winner == 0
    assert ended.reason is EndReason.WON


def test_a_wrong_accuser_is_out_but_still_shows_cards_for_suggestions() -> None:
    game = _game()
    game.put("scarlett", "hall")
    game.roll_and_stay()
    game.accuse(game.wrong())
    assert game.game.players[0].eliminated and game.table.current == 1
    suspect, weapon, room = game.envelope  # nobody holds these
    mine = game.game.players[0].hand[0]
    if mine in game.game.pack.suspects:
        suspect = mine
    elif mine in game.game.pack.weapons:
        weapon = mine
    else:
        room = mine
    game.put("mustard", room)
    game.roll_and_stay()
    events = game.suggest(suspect, weapon)
    assert [e.seat for e in events if isinstance(e, ev.CouldNotRefute)] == [2]
    asked = [e for e in events if isinstance(e, ev.RefuterAsked)]
    assert [e.seat for e in asked] == [0]
    game.show(1, mine)
    assert game.table.suggestions[-1].card == mine


def test_every_accusation_wrong_the_murderer_escapes_nobody_wins() -> None:
    game = _game()
    for _ in range(3):
        game.put(game.current.role, "hall")
        game.roll_and_stay()
        events = game.accuse(game.wrong())
    ended = events[-1]
    assert isinstance(ended, ev.GameEnded)
    assert ended.reason is EndReason.NO_WINNER and ended.winner is None
