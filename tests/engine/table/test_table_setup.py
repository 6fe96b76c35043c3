"""The classic format's setup: format setting, 21 cards, tokens, weapons, who starts."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import REGISTRY
from engine import commands as cmd
from engine.board.classic import CLASSIC as BOARD
from engine.cards import Category
from engine.errors import InvalidSetting, LobbyFull, NotEnoughPlayers, RoleNotASuspect
from engine.settings import GameFormat, Settings
from engine.table.setup import table_cards
from engine.table.state import Step
from tests.support.classic import T0, Classic, classic


def test_the_forum_format_is_the_default_and_classic_is_chosen_at_newgame() -> None:
    assert Settings().format is GameFormat.FORUM
    assert Settings(format="classic").format is GameFormat.CLASSIC
    forum = Classic(3, settings=Settings(), start=True)
    assert forum.game.table is None and forum.game.day == 1
    table = Classic(3)
    assert table.game.table is not None and table.game.day == 0


def test_settings_of_the_classic_format_are_validated() -> None:
    with pytest.raises(InvalidSetting):
        REGISTRY.format_for(Settings(format="chess"))
    with pytest.raises(InvalidSetting):
        classic(dice=3)
    with pytest.raises(InvalidSetting):
        classic(turn_time=Settings().turn_time * 0)
    with pytest.raises(InvalidSetting):
        classic(away_after=0)
    with pytest.raises(InvalidSetting):
        REGISTRY.format_for(classic(pack="custom"))
    assert (classic().dice, classic(dice=2).dice) == (1, 2)
    assert str(classic().turn_time) == "0:03:00" and str(classic().refute_time) == "0:02:00"
    assert classic().away_after == 2


def test_three_to_six_players() -> None:
    with pytest.raises(NotEnoughPlayers):
        Classic(2, settings=classic(min_players=2))
    six = Classic(6, start=False)
    with pytest.raises(LobbyFull):
        six.run(cmd.JoinLobby(actor=7))
    eight = Classic(8, settings=Settings(), start=False)
    eight.run(cmd.ChangeSettings(actor=1, changes={"format": "classic"}))
    with pytest.raises(LobbyFull):
        eight.run(cmd.StartGame(actor=1))


def test_the_six_suspects_six_weapons_and_nine_rooms_are_the_21_cards() -> None:
    game = Classic(4).game
    assert Counter(game.pack.category_of(c) for c in game.deck) == {
        Category.SUSPECT: 6,
        Category.WEAPON: 6,
        Category.PLACE: 9,
    }
    assert set(table_cards(Category.PLACE)) == set(BOARD.rooms)


def test_one_card_of_each_kind_in_the_envelope_the_rest_dealt_some_get_one_more() -> None:
    for players in (3, 4, 5, 6):
        game = Classic(players).game
        assert game.envelope is not None
        kinds = [game.pack.category_of(c) for c in game.envelope]
        assert kinds == [Category.SUSPECT, Category.WEAPON, Category.PLACE]
        sizes = sorted(len(p.hand) for p in game.players)
        assert sum(sizes) == 18 and sizes[-1] - sizes[0] <= 1


def test_each_player_is_one_suspect_chosen_at_join_or_dealt() -> None:
    chosen = Classic(3, roles=("plum", "white", "green"))
    assert [p.role for p in chosen.game.players] == ["plum", "white", "green"]
    dealt = Classic(5).game
    roles = [p.role for p in dealt.players]
    assert len(set(roles)) == 5 and set(roles) <= set(table_cards(Category.SUSPECT))


def test_a_role_chosen_at_join_must_be_one_of_the_six_board_suspects() -> None:
    lobby = Classic(1, roles=("plum",), start=False)
    with pytest.raises(RoleNotASuspect):
        lobby.run(cmd.JoinLobby(actor=2, role="orchid"))


def test_a_role_chosen_before_the_format_changed_must_be_a_board_suspect_to_start() -> None:
    lobby = Classic(3, roles=("orchid", "plum", "white"), settings=Settings(), start=False)
    lobby.run(cmd.ChangeSettings(actor=1, changes={"format": "classic"}))
    with pytest.raises(RoleNotASuspect):
        lobby.run(cmd.StartGame(actor=1))


def test_all_six_tokens_stand_on_their_start_squares_whether_played_or_not() -> None:
    table = Classic(3).table
    assert dict(table.tokens) == dict(BOARD.starts)
    assert len(table.tokens) == 6


def test_each_weapon_starts_in_a_different_room_at_random_from_the_seed() -> None:
    layouts = {Classic(3, seed=seed).table.weapons for seed in range(8)}
    for weapons in layouts:
        rooms = [room for _, room in weapons]
        assert len(set(rooms)) == 6 and set(rooms) <= set(BOARD.rooms)
    assert len(layouts) > 1
    assert Classic(3, seed=5).table.weapons == Classic(3, seed=5).table.weapons


def test_the_player_with_miss_scarlett_starts() -> None:
    game = Classic(3, roles=("plum", "scarlett", "white"))
    assert game.table.current == 1 and game.table.turn == 1
    assert game.table.step is Step.ROLL and game.table.due == T0 + classic().turn_time


def test_without_scarlett_the_next_suspect_in_the_classic_order_starts() -> None:
    game = Classic(3, roles=("plum", "white", "peacock"))
    assert game.current.role == "white"


def test_play_goes_left_in_seat_order() -> None:
    game = Classic(4, roles=("green", "plum", "scarlett", "white"))
    order = []
    for _ in range(5):
        order.append(game.current.role)
        game.rolled(1)
        game.move(next(iter(_any_square(game))))
        game.end()
    assert order == ["scarlett", "white", "green", "plum", "scarlett"]


def _any_square(game: Classic) -> set[tuple[int, int]]:
    from engine.table.queries import turn_options

    return set(turn_options(game.game, game.current.user).squares)


def test_the_forum_deal_is_unchanged_by_the_shared_dealing() -> None:
    """Pinned from the code before the classic format: seed 2026, 4 players."""
    game = Classic(4, settings=Settings(), seed=2026).game
    assert game.table is None
    assert game.envelope == ("plum", "dagger", "patio")
    assert [(p.role, p.hand) for p in game.players] == [
        ("gray", ("revolver", "cellar", "theatre")),
        ("plum", ("axe", "trophy", "study")),
        ("brunette", ("mustard", "lounge", "observatory")),
        ("mustard", ("gray", "brunette", "hall")),
    ]
