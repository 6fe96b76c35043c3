"""The 2023 edition's setup: its cast, weapons and rooms, its board, characters chosen,
all cards dealt with three or more players, the two-player game (seven each, four cards
face down in rooms), the clue deck, the first roll, each edition's player range."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine import REGISTRY
from engine import commands as cmd
from engine.codec import event_to_dict
from engine.errors import LobbyFull, NotEnoughPlayers, RoleNotASuspect
from engine.settings import GameFormat, Settings
from engine.y2023 import events as yev
from engine.y2023.board import Y2023_BOARD
from engine.y2023.cards import CLUE_DECK, PLACED_IN_ROOMS, TWO_PLAYER_HAND, Y2023
from engine.y2023.evolve import edition_set_up
from engine.y2023.queries import private_view
from engine.y2023.setup import first_player, placed_in_rooms
from engine.y2023.state import y2023_of, y2023_part
from tests.support.classic import Classic
from tests.support.formats import player_range
from tests.support.y2023 import Y2023Game, y2023


def test_the_2023_cast_weapons_and_rooms_as_the_rulebook_names_them() -> None:
    assert Y2023.suspects == (
        "scarlett",
        "mustard",
        "chef_white",
        "mayor_green",
        "solicitor_peacock",
        "plum",
    )
    assert {"rope", "dagger", "wrench", "candlestick"} <= set(Y2023.weapons)
    assert len(Y2023.weapons) == 6 and len(Y2023.places) == 9
    assert {"kitchen", "study", "ballroom", "library", "lounge", "conservatory"} <= set(
        Y2023.places
    )
    game = Y2023Game(3)
    assert game.game.deck == Y2023.all_cards and game.game.pack is Y2023


def test_its_board_has_squares_doors_and_secret_passages() -> None:
    board = Y2023_BOARD
    assert board.rooms == Y2023.places
    assert all(board.doors_of(room) for room in board.rooms)
    assert board.passages["kitchen"] == "study" and board.passages["study"] == "kitchen"
    assert board.passages["lounge"] == "conservatory"
    assert set(board.starts) == set(Y2023.suspects)
    game = Y2023Game(3)
    assert game.table.board == "y2023"
    assert dict(game.table.tokens) == dict(board.starts)
    assert len({room for _, room in game.table.weapons}) == 6  # one weapon in each of six rooms


def test_each_player_chooses_a_character_of_the_edition() -> None:
    game = Y2023Game(3, roles=("plum", "chef_white", "mayor_green"))
    assert [p.role for p in game.game.players] == ["plum", "chef_white", "mayor_green"]
    lobby = Classic(2, roles=("scarlett", "mustard"), settings=y2023(), start=False)
    with pytest.raises(RoleNotASuspect):
        lobby.run(cmd.JoinLobby(actor=3, role="white"))  # the classic's Mrs White


def test_three_players_are_dealt_all_eighteen_cards() -> None:
    """The rulebook's "Disdonu ĉiujn kartojn al la ludantoj": nothing in a room or face up."""
    for players in (3, 4, 5, 6):
        for seed in range(15):
            game = Y2023Game(players, seed=seed)
            assert game.y2023.placed == () and game.y2023.face_up == ()
            hands = [p.hand for p in game.game.players]
            sizes = sorted(len(h) for h in hands)
            assert sum(sizes) == 18 and sizes[-1] - sizes[0] <= 1
            everything = Counter([*(c for h in hands for c in h), *game.envelope])
            assert everything == Counter(Y2023.all_cards)


def test_two_players_get_seven_each_and_four_in_rooms() -> None:
    for seed in range(20):
        game = Y2023Game(2, seed=seed)
        hands = [p.hand for p in game.game.players]
        assert [len(h) for h in hands] == [TWO_PLAYER_HAND, TWO_PLAYER_HAND] == [7, 7]
        placed = game.y2023.placed
        rooms = [room for room, _ in placed]
        assert len(placed) == PLACED_IN_ROOMS == 4
        assert len(set(rooms)) == 4 and set(rooms) <= set(Y2023.places)
        assert game.y2023.face_up == ()
        everything = Counter([*hands[0], *hands[1], *game.envelope])
        everything.update(card for _, card in placed)
        assert everything == Counter(Y2023.all_cards)


def test_cards_in_rooms_only_in_the_two_player_game() -> None:
    assert [placed_in_rooms(n) for n in range(2, 7)] == [4, 0, 0, 0, 0]


def test_a_stored_game_with_cards_face_up_still_reads() -> None:
    """Games stored before the deal followed the rulebook: six each and two face up."""
    game = Y2023Game(2)
    setup = next(e for e in game.events if isinstance(e, yev.EditionSetUp))
    old = replace(setup, face_up=("rope", "hall"))
    back = REGISTRY.codec.event_from_dict(event_to_dict(old))
    assert isinstance(back, yev.EditionSetUp) and back == old
    state = game.game
    assert state.table is not None
    after = edition_set_up(state, back)
    assert after.table is not None and y2023_of(after.table) is not None
    assert y2023_part(after.table).face_up == ("rope", "hall")
    assert {"rope", "hall"} <= private_view(after, 0).cards


def test_the_clue_deck_is_shuffled_beside_the_board() -> None:
    decks = {Y2023Game(3, seed=seed).y2023.clues for seed in range(5)}
    assert len(decks) > 1
    for deck in decks:
        assert sorted(deck) == sorted(clue.id for clue in CLUE_DECK)


def test_the_highest_roll_of_one_die_plays_first_ties_roll_again() -> None:
    for seed in range(30):
        game = Y2023Game(4, seed=seed)
        setup = next(e for e in game.events if isinstance(e, yev.EditionSetUp))
        rolls = setup.first_rolls
        first_round = rolls[:4]
        top = max(value for _, value in first_round)
        tied = [seat for seat, value in first_round if value == top]
        assert game.table.current in tied
        if len(tied) == 1:
            assert len(rolls) == 4
        else:
            assert len(rolls) > 4 and {seat for seat, _ in rolls[4:]} <= set(tied)


def test_the_player_announced_as_highest_is_the_one_who_plays_first() -> None:
    for players in (2, 3, 6):
        for seed in range(40):
            game = Y2023Game(players, seed=seed)
            setup = next(e for e in game.events if isinstance(e, yev.EditionSetUp))
            seat, roll = first_player(setup.first_rolls, players)
            assert seat == game.table.current and game.table.turn == 1
            assert (seat, roll) == setup.first_rolls[-1] or roll == max(
                v for s, v in setup.first_rolls[-players:] if s == seat
            )


def test_two_to_six_players_the_classic_still_three() -> None:
    assert player_range(y2023()) == (2, 6)
    assert player_range(Settings(format=GameFormat.CLASSIC, min_players=2)) == (3, 6)
    with pytest.raises(NotEnoughPlayers):
        Y2023Game(1)
    lobby = Y2023Game(6, start=False)
    with pytest.raises(LobbyFull):
        lobby.run(cmd.JoinLobby(actor=7))
