"""The 2023 edition's lobby: "Ĉiu ludanto elektas rolulon" — each player chooses a character,
first come first served, a taken one refused, whoever has not chosen a random free one; and
each table format's own player range (a 2023 lobby starts with two, an admin's minimum
wins)."""

from __future__ import annotations

import pytest

from engine import commands as cmd
from engine import events as ev
from engine.errors import NotEnoughPlayers, RoleNotASuspect, RolesNotChosenMode, RoleTaken
from engine.settings import GameFormat, Settings
from engine.y2023.cards import Y2023
from tests.support.classic import Classic, classic
from tests.support.formats import player_range, roles_chosen


def _lobby(players: int = 2, **settings: object) -> Classic:
    """A 2023 lobby, users 1..players joined without a character."""
    base = Settings(format=GameFormat.Y2023).changed(**settings)
    return Classic(players, settings=base, start=False)


def test_a_chosen_character_is_kept_in_the_lobby_entry() -> None:
    lobby = _lobby()
    events = lobby.run(cmd.ChooseRole(actor=2, role="chef_white"))
    assert events == [ev.RoleChosen(at=lobby.now, user=2, role="chef_white")]
    assert [(e.user, e.role) for e in lobby.game.lobby] == [(1, None), (2, "chef_white")]


def test_taken_character_is_refused() -> None:
    lobby = _lobby()
    lobby.run(cmd.ChooseRole(actor=1, role="plum"))
    before = lobby.state
    with pytest.raises(RoleTaken):
        lobby.run(cmd.ChooseRole(actor=2, role="plum"))
    assert lobby.state is before
    with pytest.raises(RoleTaken):  # nor by someone joining with it
        lobby.run(cmd.ChooseRole(actor=3, role="plum"))
    assert not lobby.game.in_lobby(3)


def test_first_come_first_served_a_press_from_outside_joins_with_the_character() -> None:
    lobby = _lobby()
    events = lobby.run(cmd.ChooseRole(actor=3, role="mayor_green"))
    assert events == [ev.PlayerJoined(at=lobby.now, user=3, role="mayor_green")]
    assert lobby.game.lobby[-1].role == "mayor_green"


def test_a_member_may_change_their_character_which_frees_the_old_one() -> None:
    lobby = _lobby()
    lobby.run(cmd.ChooseRole(actor=1, role="plum"))
    lobby.run(cmd.ChooseRole(actor=1, role="scarlett"))
    lobby.run(cmd.ChooseRole(actor=2, role="plum"))
    assert [e.role for e in lobby.game.lobby] == ["scarlett", "plum"]


def test_choosing_ones_own_character_again_changes_nothing() -> None:
    lobby = _lobby()
    lobby.run(cmd.ChooseRole(actor=1, role="plum"))
    before = lobby.state
    assert lobby.run(cmd.ChooseRole(actor=1, role="plum")) == []
    assert lobby.state is before


def test_only_the_editions_characters_may_be_chosen() -> None:
    lobby = _lobby()
    with pytest.raises(RoleNotASuspect):
        lobby.run(cmd.ChooseRole(actor=1, role="white"))  # the classic's Mrs White
    with pytest.raises(RoleNotASuspect):
        lobby.run(cmd.ChooseRole(actor=1, role="rope"))


def test_whoever_has_not_chosen_gets_a_random_free_character_at_the_start() -> None:
    starts = set()
    for seed in range(20):
        lobby = Classic(3, seed=seed, settings=Settings(format=GameFormat.Y2023), start=False)
        lobby.run(cmd.ChooseRole(actor=2, role="plum"))
        lobby.run(cmd.StartGame(actor=1))
        roles = [p.role for p in lobby.game.players]
        assert roles[1] == "plum"
        assert len(set(roles)) == 3 and set(roles) <= set(Y2023.suspects)
        starts.add((roles[0], roles[2]))
    assert len(starts) > 1, "the others' characters are drawn at random"


def test_the_2023_lobby_chooses_even_with_role_assignment_random() -> None:
    settings = Settings(format=GameFormat.Y2023)
    assert settings.role_assignment == "random" and roles_chosen(settings)
    assert not roles_chosen(Settings(format=GameFormat.CLASSIC))


def test_a_classic_lobby_with_random_roles_refuses_a_choice() -> None:
    lobby = Classic(2, settings=classic(), start=False)
    with pytest.raises(RolesNotChosenMode):
        lobby.run(cmd.ChooseRole(actor=1, role="plum"))


def test_each_table_format_has_its_own_player_range() -> None:
    assert player_range(Settings()) == (3, 10)  # the forum's
    assert player_range(Settings(format=GameFormat.CLASSIC)) == (3, 6)
    assert player_range(Settings(format=GameFormat.LIARS)) == (3, 6)
    assert player_range(Settings(format=GameFormat.Y2023)) == (2, 6)  # "Du-ludanta ludo"
    assert player_range(Settings(format=GameFormat.Y2023, min_players=3)) == (3, 6)  # set: wins
    assert player_range(Settings(format=GameFormat.Y2023, max_players=4)) == (2, 4)
    assert player_range(Settings(format=GameFormat.CLASSIC, min_players=2)) == (3, 6)
    assert player_range(Settings(format=GameFormat.LIARS, min_players=2)) == (3, 6)
    assert player_range(Settings(min_players=2, max_players=4)) == (2, 4)


def test_a_2023_lobby_of_two_starts_with_no_setting_changed() -> None:
    lobby = _lobby()
    assert lobby.game.settings.min_players is None
    lobby.run(cmd.StartGame(actor=1))
    assert len(lobby.game.players) == 2 and lobby.game.table is not None


def test_an_admins_minimum_wins_over_the_2023_editions_own() -> None:
    lobby = _lobby(min_players=3)
    with pytest.raises(NotEnoughPlayers) as refused:
        lobby.run(cmd.StartGame(actor=1))
    assert refused.value.values == {"minimum": 3, "joined": 2}
    lobby.run(cmd.ChangeSettings(actor=1, changes={"min_players": None}))  # "off": its own
    lobby.run(cmd.StartGame(actor=1))
    assert len(lobby.game.players) == 2


def test_a_classic_lobby_of_two_still_needs_its_own_minimum() -> None:
    lobby = Classic(2, settings=classic(), start=False)
    with pytest.raises(NotEnoughPlayers) as refused:
        lobby.run(cmd.StartGame(actor=1))
    assert refused.value.values == {"minimum": 3, "joined": 2}
    lobby.run(cmd.ChangeSettings(actor=1, changes={"min_players": 2}))  # below the board's 3
    with pytest.raises(NotEnoughPlayers):
        lobby.run(cmd.StartGame(actor=1))
