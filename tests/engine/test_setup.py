"""Cards and set-up (docs/rules-forum.md): the deck formula, the envelope, the deal, roles."""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType

import pytest

from engine import commands as cmd
from engine import events as ev
from engine import formats, settings
from engine.cards import CLASSIC, PACKS, Category, Pack
from engine.settings import RoleAssignment, Settings
from engine.state import Phase
from tests.support.table import DAY, PLACE, SUSPECT, T0, WEAPON, Table, expect_error, table_where


@pytest.mark.parametrize("players", range(3, 11))
def test_deck_follows_forum_formula_n_suspects_n_weapons_n_plus_3_places(players: int) -> None:
    table = Table(players, Settings(max_players=10))
    assert len(table.in_play(SUSPECT)) == players
    assert len(table.in_play(WEAPON)) == players
    assert len(table.in_play(PLACE)) == players + 3
    assert len(table.game.deck) == 3 * players + 3


@pytest.mark.parametrize("players", range(3, 11))
def test_after_the_envelope_exactly_three_cards_each_by_default(players: int) -> None:
    table = Table(players, Settings(max_players=10))
    assert [len(p.hand) for p in table.game.players] == [3] * players


@pytest.mark.parametrize(("players", "extra"), [(3, 1), (4, 2), (5, 1), (6, 3)])
def test_extra_cards_adds_to_each_category(players: int, extra: int) -> None:
    table = Table(players, Settings(extra_cards=extra))
    assert len(table.in_play(SUSPECT)) == players + extra
    assert len(table.in_play(WEAPON)) == players + extra
    assert len(table.in_play(PLACE)) == players + 3 + extra
    dealt = sum(len(p.hand) for p in table.game.players)
    assert dealt == 3 * players + 3 * extra


def test_deal_is_as_even_as_possible() -> None:
    table = Table(4, Settings(extra_cards=1))  # 15 cards for 4 players
    assert sorted(len(p.hand) for p in table.game.players) == [3, 4, 4, 4]


def test_envelope_is_one_card_of_each_category_in_play() -> None:
    table = Table(5)
    suspect, weapon, place = table.envelope
    assert suspect in table.in_play(SUSPECT)
    assert weapon in table.in_play(WEAPON)
    assert place in table.in_play(PLACE)


def test_hands_and_envelope_partition_the_deck() -> None:
    table = Table(6, Settings(extra_cards=1))
    dealt = [c for p in table.game.players for c in p.hand] + list(table.envelope)
    assert Counter(dealt) == Counter(table.game.deck)
    assert len(set(dealt)) == len(dealt)


def test_cards_in_play_are_drawn_from_the_pack() -> None:
    table = Table(4)
    assert set(table.in_play(SUSPECT)) <= set(CLASSIC.suspects)
    assert set(table.in_play(WEAPON)) <= set(CLASSIC.weapons)
    assert set(table.in_play(PLACE)) <= set(CLASSIC.places)


def test_deal_is_random_but_replays_from_the_seed() -> None:
    one, same = Table(5, seed=7), Table(5, seed=7)
    assert one.events == same.events
    deals = {(Table(5, seed=s).envelope, Table(5, seed=s).game.deck) for s in range(1, 12)}
    assert len(deals) > 1


def test_pack_too_small_names_what_is_missing() -> None:
    table = Table(10, Settings(extra_cards=3, max_players=10), start=False)
    error = expect_error("pack_too_small", lambda: table.run(cmd.StartGame(actor=1)))
    # 13 suspects and 13 weapons of 12, 16 places of 15.
    assert error.values == {"suspects": 1, "weapons": 1, "places": 1}
    assert table.game.phase is Phase.LOBBY


def test_pack_too_small_counts_only_the_short_categories(monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = Pack("tiny", ("a", "b", "c", "d", "e"), ("x", "y", "z"), tuple("pqrstuvw"))
    packs = MappingProxyType({**PACKS, "tiny": tiny})
    monkeypatch.setattr(settings, "PACKS", packs)  # a pack the settings accept
    monkeypatch.setattr(formats, "PACKS", packs)  # ... and a format plays
    table = Table(4, Settings(pack="tiny"), start=False)  # needs 4, 4 and 7
    error = expect_error("pack_too_small", lambda: table.run(cmd.StartGame(actor=1)))
    assert error.values == {"suspects": 0, "weapons": 1, "places": 0}
    assert Table(3, Settings(pack="tiny")).game.phase is Phase.RUNNING  # needs 3, 3 and 6


def test_largest_table_the_classic_pack_allows() -> None:
    table = Table(10, Settings(extra_cards=2, max_players=10))  # 12, 12 and 15: all of it
    assert table.game.phase is Phase.RUNNING
    assert set(table.game.deck) == set(CLASSIC.all_cards)


def test_roles_random_distinct_suspects_in_play() -> None:
    for seed in range(1, 20):
        table = Table(6, seed=seed)
        roles = [p.role for p in table.game.players]
        assert len(set(roles)) == len(roles)
        assert set(roles) <= set(table.in_play(SUSPECT))


def test_own_role_may_be_the_murderer() -> None:
    table = table_where(lambda t: any(p.role == t.envelope[0] for p in t.game.players))
    assert table.game.phase is Phase.RUNNING


def test_roles_chosen_at_join() -> None:
    roles = {2: "plum", 3: "azure"}
    table = Table(4, Settings(role_assignment=RoleAssignment.CHOSEN), roles=roles)
    assert table.player(2).role == "plum"
    assert table.player(3).role == "azure"
    # Chosen roles are always in play; those who chose none get distinct others.
    assert {"plum", "azure"} <= set(table.in_play(SUSPECT))
    others = {table.player(1).role, table.player(4).role}
    assert len(others) == 2 and not others & {"plum", "azure"}
    assert others <= set(table.in_play(SUSPECT))


def test_chosen_role_must_be_a_free_suspect_of_the_pack() -> None:
    table = Table(
        2, Settings(role_assignment=RoleAssignment.CHOSEN), roles={2: "plum"}, start=False
    )
    join = cmd.JoinLobby
    expect_error("role_taken", lambda: table.run(join(actor=3, role="plum")))
    expect_error("role_not_a_suspect", lambda: table.run(join(actor=3, role="rope")))
    expect_error("role_not_a_suspect", lambda: table.run(join(actor=3, role="nobody")))
    table.run(cmd.LeaveLobby(actor=2))
    table.run(join(actor=3, role="plum"))  # freed by leaving


def test_roles_cannot_be_chosen_in_random_mode() -> None:
    table = Table(2, start=False)
    join = cmd.JoinLobby(actor=3, role="plum")
    expect_error("roles_not_chosen_mode", lambda: table.run(join))


def test_start_opens_day_1_with_roster_cards_and_day_end() -> None:
    table = Table(4)
    started = table.last(ev.GameStarted)
    assert [s.user for s in started.seats] == [1, 2, 3, 4]
    assert all(s.role in table.in_play(SUSPECT) for s in started.seats)
    opened = table.last(ev.DayOpened)
    assert (opened.day, opened.at, opened.ends_at) == (1, T0, T0 + DAY)
    assert table.game.day_open
    assert table.game.settings.suggestions_per_day == 3


def test_settings_are_frozen_into_the_game_at_start() -> None:
    table = Table(3, start=False)
    table.run(cmd.ChangeSettings(actor=1, changes={"suggestions_per_day": 5}))
    table.run(cmd.StartGame(actor=1))
    assert table.game.settings.suggestions_per_day == 5
    change = cmd.ChangeSettings(actor=1, actor_is_admin=True, changes={"suggestions_per_day": 2})
    expect_error("setting_locked", lambda: table.run(change))


@pytest.mark.parametrize("category", [Category.SUSPECT, Category.WEAPON, Category.PLACE])
def test_in_play_lists_cards_in_pack_order(category: Category) -> None:
    table = Table(5)
    order = CLASSIC.cards_of(category)
    cards = table.in_play(category)
    assert list(cards) == sorted(cards, key=order.index)
