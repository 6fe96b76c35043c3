"""The lobby: opening, joining and leaving, the player limits, who may start."""

from __future__ import annotations

from engine import commands as cmd
from engine import events as ev
from engine.decide import decide
from engine.settings import Settings
from engine.state import Phase
from tests.support.table import ADMIN, T0, Table, expect_error


def test_opening_a_lobby_makes_its_creator_join() -> None:
    table = Table(1, start=False)
    assert table.game.phase is Phase.LOBBY
    assert table.game.creator == 1
    assert [e.user for e in table.game.lobby] == [1]


def test_only_one_game_per_chat() -> None:
    table = Table(3)
    expect_error("game_exists", lambda: table.run(cmd.OpenLobby(actor=5, seed=2)))


def test_commands_without_a_game_are_refused() -> None:
    expect_error("no_game", lambda: decide(None, cmd.JoinLobby(actor=1), T0))
    expect_error("no_game", lambda: decide(None, cmd.StartGame(actor=1), T0))


def test_join_and_leave_lobby() -> None:
    table = Table(2, start=False)
    table.run(cmd.JoinLobby(actor=3))
    assert [e.user for e in table.game.lobby] == [1, 2, 3]
    expect_error("already_joined", lambda: table.run(cmd.JoinLobby(actor=3)))
    table.run(cmd.LeaveLobby(actor=2))
    assert [e.user for e in table.game.lobby] == [1, 3]
    expect_error("not_joined", lambda: table.run(cmd.LeaveLobby(actor=2)))


def test_min_three_players_by_default() -> None:
    table = Table(2, start=False)
    error = expect_error("not_enough_players", lambda: table.run(cmd.StartGame(actor=1)))
    assert error.values == {"minimum": 3, "joined": 2}
    table.run(cmd.JoinLobby(actor=3))
    table.run(cmd.StartGame(actor=1))
    assert table.game.phase is Phase.RUNNING


def test_min_players_setting() -> None:
    table = Table(3, Settings(min_players=4), start=False)
    expect_error("not_enough_players", lambda: table.run(cmd.StartGame(actor=1)))
    assert Table(2, Settings(min_players=2)).game.phase is Phase.RUNNING


def test_lobby_full_at_max_players() -> None:
    table = Table(4, Settings(max_players=4), start=False)
    error = expect_error("lobby_full", lambda: table.run(cmd.JoinLobby(actor=5)))
    assert error.values == {"maximum": 4}


def test_start_by_creator_or_admin_only() -> None:
    table = Table(3, start=False)
    refused = expect_error("only_host_or_admin", lambda: table.run(cmd.StartGame(actor=2)))
    assert refused.values == {"host": 1}
    expect_error("only_host_or_admin", lambda: table.run(cmd.StartGame(actor=ADMIN)))
    table.admin(cmd.StartGame)
    assert table.game.phase is Phase.RUNNING
    creator = Table(3, start=False)
    creator.run(cmd.StartGame(actor=1))
    assert creator.game.phase is Phase.RUNNING


def test_lobby_closes_when_the_game_starts() -> None:
    table = Table(3)
    expect_error("not_in_lobby", lambda: table.run(cmd.JoinLobby(actor=4)))
    expect_error("not_in_lobby", lambda: table.run(cmd.LeaveLobby(actor=2)))
    expect_error("not_in_lobby", lambda: table.run(cmd.StartGame(actor=1)))
    assert table.game.lobby == ()


def test_players_are_seated_in_order_of_joining() -> None:
    table = Table(2, start=False)
    table.run(cmd.JoinLobby(actor=7))
    table.run(cmd.JoinLobby(actor=5))
    table.run(cmd.StartGame(actor=1))
    assert [p.user for p in table.game.players] == [1, 2, 7, 5]
    assert [p.seat for p in table.game.players] == [0, 1, 2, 3]


def test_lobby_settings_changed_by_creator_or_admin_only() -> None:
    table = Table(3, start=False)
    change = {"suggestions_per_day": 4}
    expect_error(
        "only_host_or_admin", lambda: table.run(cmd.ChangeSettings(actor=2, changes=change))
    )
    table.run(cmd.ChangeSettings(actor=1, changes=change))
    assert table.game.settings.suggestions_per_day == 4
    table.admin(cmd.ChangeSettings, changes={"auto_no_refutation": False})
    assert table.game.settings.auto_no_refutation is False
    assert table.game.settings.suggestions_per_day == 4
    assert table.last(ev.SettingsChanged).changed == ("auto_no_refutation",)


def test_game_not_started_refuses_play() -> None:
    table = Table(3, start=False)
    move = cmd.MakeSuggestion(actor=1, target=2, suspect="plum", weapon="rope", place="hall")
    expect_error("game_not_running", lambda: table.run(move))
    accuse = cmd.Accuse(actor=1, suspect="plum", weapon="rope", place="hall")
    expect_error("game_not_running", lambda: table.run(accuse))


def test_creator_may_choose_a_role_when_roles_are_chosen_at_join() -> None:
    from datetime import UTC, datetime

    from engine import commands as cmd
    from engine.decide import decide
    from engine.errors import RuleError
    from engine.evolve import replay
    from engine.settings import RoleAssignment, Settings

    now = datetime(2026, 1, 1, tzinfo=UTC)
    chosen = Settings(role_assignment=RoleAssignment.CHOSEN)
    events = decide(None, cmd.OpenLobby(actor=1, seed=1, settings=chosen, role="plum"), now)
    game = replay(events)
    assert game is not None and game.lobby[0].role == "plum"
    try:
        decide(None, cmd.OpenLobby(actor=1, seed=1, role="plum"), now)
    except RuleError as error:
        assert error.code == "roles_not_chosen_mode"
    else:
        raise AssertionError("a role was accepted in random mode")


def test_a_creator_who_left_the_lobby_can_no_longer_start_it() -> None:
    table = Table(4, start=False)
    table.run(cmd.LeaveLobby(actor=1))
    refused = expect_error("only_host_or_admin", lambda: table.run(cmd.StartGame(actor=1)))
    assert refused.values == {"host": 2}, "the longest-waiting player runs the lobby now"
    expect_error("only_host_or_admin", lambda: table.run(cmd.StartGame(actor=3)))
    change = cmd.ChangeSettings(actor=1, changes={"suggestions_per_day": 5})
    expect_error("only_host_or_admin", lambda: table.run(change))
    table.run(cmd.StartGame(actor=2))
    assert table.game.phase is Phase.RUNNING
    assert [p.user for p in table.game.players] == [2, 3, 4]


def test_the_host_passes_in_order_of_joining_and_back_to_a_returning_creator() -> None:
    table = Table(3, start=False)
    assert table.game.lobby_host == 1
    table.run(cmd.LeaveLobby(actor=1))
    table.run(cmd.LeaveLobby(actor=2))
    assert table.game.lobby_host == 3
    table.run(cmd.JoinLobby(actor=2))
    assert table.game.lobby_host == 3, "rejoining puts a player at the back of the queue"
    table.run(cmd.JoinLobby(actor=1))
    assert table.game.lobby_host == 1, "the creator runs the lobby whenever they are in it"
    table.run(cmd.ChangeSettings(actor=1, changes={"suggestions_per_day": 5}))
    assert table.game.settings.suggestions_per_day == 5


def test_an_empty_lobby_is_an_admins_to_start() -> None:
    table = Table(1, start=False)
    table.run(cmd.LeaveLobby(actor=1))
    assert table.game.lobby_host is None
    expect_error("admin_only", lambda: table.run(cmd.StartGame(actor=1)))
    error = expect_error("not_enough_players", lambda: table.admin(cmd.StartGame))
    assert error.values == {"minimum": 3, "joined": 0}
