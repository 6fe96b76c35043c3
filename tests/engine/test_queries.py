"""What every player can always ask, what the thread sees, and the public log."""

from __future__ import annotations

import dataclasses
import json

from engine import events as ev
from engine.cards import CATEGORY_ORDER
from engine.public_log import public_log
from engine.queries import answer_choices, player_view, public_view, winner
from engine.settings import Settings
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


def _secret_play() -> Table:
    table = table_where(lambda t: bool(t.held(2, SUSPECT)))
    s = table.suggest(1, 2, table.held_by(2, SUSPECT))
    table.refute(2, s.id, s.suspect)
    table.accuse(3, table.wrong())
    return table


def test_public_log_hides_cards_until_the_end() -> None:
    table = _secret_play()
    log = public_log(table.events)
    by_type = {entry["type"]: entry for entry in log}
    assert "seed" not in by_type["LobbyOpened"]
    assert "envelope" not in by_type["GameStarted"]
    assert by_type["GameStarted"]["seats"] == [
        {"user": p.user, "role": p.role} for p in table.game.players
    ]
    assert "card" not in by_type["SuggestionRefuted"]
    made = by_type["AccusationMade"]
    assert made["seat"] == 2 and not {"suspect", "weapon", "place"} & set(made)
    assert by_type["SuggestionMade"]["suspect"] == table.game.suggestions[0].suspect
    json.dumps(log)  # the log is plain JSON

    table.wait(DAY)  # the wrong accusation is judged: still no secret
    assert by_type.keys() <= {e["type"] for e in public_log(table.events)}
    assert all(
        "card" not in e for e in public_log(table.events) if e["type"] == "SuggestionRefuted"
    )


def test_public_log_reveals_everything_once_the_game_ends() -> None:
    table = _secret_play()
    table.wait(DAY)
    table.accuse(1, table.envelope)
    table.wait(DAY)
    assert isinstance(table.events[-1], ev.GameEnded)
    by_type = {entry["type"]: entry for entry in public_log(table.events)}
    assert tuple(by_type["GameStarted"]["envelope"]) == table.envelope
    assert all("hand" in seat for seat in by_type["GameStarted"]["seats"])
    assert by_type["SuggestionRefuted"]["card"] == table.game.suggestions[0].suspect
    assert by_type["AccusationMade"]["suspect"] == table.envelope[0]
