"""What every player can always ask, and what the thread sees."""

from __future__ import annotations

import dataclasses

from engine import commands as cmd
from engine.cards import CATEGORY_ORDER
from engine.queries import (
    admin_refusal,
    answer_choices,
    player_view,
    public_view,
    settings_are_the_games,
    settings_refusal,
    suggestion_refusal,
    winner,
)
from engine.settings import Settings
from engine.state import Game
from tests.support.table import (
    DAY,
    HOUR,
    SUSPECT,
    T0,
    Table,
    expect_error,
    holds_all_categories,
    table_where,
)


def test_player_queries_expose_only_own_hand() -> None:
    table = Table(4)
    for player in table.game.players:
        view = player_view(table.game, player.user)
        assert view.hand == player.hand
        assert view.role == player.role
    names = {f.name for f in dataclasses.fields(player_view(table.game, 1))}
    assert "envelope" not in names and "hands" not in names
    expect_error("not_a_player", lambda: player_view(table.game, 42))


def test_public_view_has_no_hand_envelope_or_shown_card() -> None:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)))
    s = table.suggest(1, 2, table.held_by(2, SUSPECT))
    table.refute(2, s.id, s.suspect)
    view = public_view(table.game)
    names = {f.name for f in dataclasses.fields(view)}
    names |= {f.name for f in dataclasses.fields(view.seats[0])}
    assert not names & {"hand", "hands", "envelope", "card", "shown_to_me"}
    assert view.cards == {k: table.in_play(k) for k in CATEGORY_ORDER}
    assert [(x.user, x.role) for x in view.seats] == [(p.user, p.role) for p in table.game.players]


def test_player_can_ask_day_end_quota_and_answers_owed_both_ways() -> None:
    table = Table(3, Settings(auto_no_refutation=False))
    to_2 = table.suggest(1, 2)
    to_1 = table.suggest(3, 1)
    view = player_view(table.game, 1)
    assert view.quota_left == 2
    assert [s.id for s in view.owed] == [to_2.id]
    assert [s.id for s in view.owes] == [to_1.id]
    assert view.can_accuse and view.my_accusation is None
    shown = public_view(table.game)
    assert (shown.day, shown.day_open, shown.day_ends_at) == (1, True, T0 + DAY)
    assert [x.owes for x in shown.seats] == [1, 1, 0]
    assert [x.quota_left for x in shown.seats] == [2, 3, 2]


def test_player_sees_own_accusation_and_window_close() -> None:
    table = Table(3)
    table.wait(HOUR)
    table.accuse(2, table.wrong())
    view = player_view(table.game, 2)
    assert view.my_accusation is not None and view.my_accusation.cards == table.wrong()
    assert not view.can_accuse
    assert player_view(table.game, 1).my_accusation is None
    assert public_view(table.game).window_closes_at == T0 + HOUR + DAY


def test_answer_choices_are_the_named_cards_the_target_holds() -> None:
    table = table_where(lambda t: holds_all_categories(t, 2))
    s = table.suggest(1, 2, table.held_by(2, SUSPECT))
    assert answer_choices(table.game, 2, s.id) == (s.suspect,)
    full = table.suggest(3, 2, table.held_by(2))
    assert answer_choices(table.game, 2, full.id) == full.cards
    expect_error("not_your_answer", lambda: answer_choices(table.game, 3, s.id))
    expect_error("not_your_answer", lambda: answer_choices(table.game, 2, 99))


def test_winner_query() -> None:
    table = Table(3)
    assert winner(table.game) is None
    table.accuse(3, table.envelope)
    table.wait(DAY)
    assert winner(table.game) == 2
    assert public_view(table.game).winner == 2


def test_a_suggestion_is_refused_before_its_cards_are_read_until_the_cards_are_dealt() -> None:
    lobby = Table(3, start=False)
    refusal = suggestion_refusal(lobby.game)
    assert refusal is not None and refusal.code == "game_not_running"
    expect_error("game_not_running", lambda: lobby.suggest(1, 2, ("s1", "w1", "p1")))
    table = Table(3)
    assert suggestion_refusal(table.game) is None
    table.admin(cmd.EndGame)
    refusal = suggestion_refusal(table.game)
    assert refusal is not None and refusal.code == "game_not_running"


def test_admin_commands_are_refused_to_non_admins_before_anything_else_and_by_decide() -> None:
    table = Table(3)
    refusal = admin_refusal(actor_is_admin=False)
    assert refusal is not None and refusal.code == "admin_only"
    assert admin_refusal(actor_is_admin=True) is None
    # The command carries the same fact, and decide refuses it the same way.
    expect_error("admin_only", lambda: table.run(cmd.PauseGame(actor=1, actor_is_admin=False)))
    table.run(cmd.PauseGame(actor=1, actor_is_admin=True))
    assert table.game.paused


def test_chat_defaults_are_the_admins_to_set_and_a_game_decides_its_own() -> None:
    for game in (None, _ended()):
        assert not settings_are_the_games(game)
        refusal = settings_refusal(game, actor_is_admin=False)
        assert refusal is not None and refusal.code == "admin_only"
        assert settings_refusal(game, actor_is_admin=True) is None
    lobby = Table(3, start=False)
    assert settings_are_the_games(lobby.game)
    assert settings_refusal(lobby.game, actor_is_admin=False) is None
    # In the lobby the host may change a setting; in a running game only an admin may.
    lobby.run(cmd.ChangeSettings(actor=1, changes={"suggestions_per_day": 5}))
    running = Table(3)
    assert settings_refusal(running.game, actor_is_admin=False) is None
    change = cmd.ChangeSettings(actor=1, changes={"day_length": HOUR})
    expect_error("admin_only", lambda: running.run(change))


def _ended() -> Game:
    table = Table(3)
    table.admin(cmd.EndGame)
    return table.game
