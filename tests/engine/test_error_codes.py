"""Every kind of rule error (engine/errors.py and each format's errors.py) is raised by a
scenario; the codes are collected from the kinds each format declares."""

from __future__ import annotations

import ast
import gc
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from engine import REGISTRY, RULE_ERROR_CODES
from engine import commands as cmd
from engine.cards import CLASSIC
from engine.decide import decide
from engine.error_codes import by_code
from engine.errors import SHARED_ERRORS, NoSuggestionsLeft, RuleError
from engine.forum import FORUM
from engine.liars.edition import LIARS_EDITION
from engine.liars.errors import LIARS_ERRORS, AccuseAtStart
from engine.settings import RoleAssignment, Settings
from engine.table.classic import CLASSIC as CLASSIC_EDITION
from engine.table.errors import TABLE_ERRORS
from engine.y2023.edition import Y2023_EDITION
from engine.y2023.errors import Y2023_ERRORS
from tests.support.classic_errors import table_scenario
from tests.support.liars_errors import liars_scenario
from tests.support.table import DAY, SUSPECT, T0, Table, expect_error, table_where

ENGINE = Path(__file__).resolve().parents[2] / "engine"
ERROR_MODULES = (
    "engine.errors",
    "engine.table.errors",
    "engine.y2023.errors",
    "engine.liars.errors",
)


def _lobby(players: int = 3, settings: Settings | None = None) -> Table:
    return Table(players, settings, start=False)


def _strict() -> Table:
    return Table(3, Settings(auto_no_refutation=False))


def _waiting_for_window() -> Table:
    table = Table(3)
    table.wait(timedelta(hours=2))
    table.accuse(1, table.wrong())
    table.end_day()
    return table


def _eliminated() -> Table:
    table = Table(3, Settings(eliminated_may_suggest=False))
    table.accuse(1, table.wrong())
    table.wait(DAY)
    return table


def _holder() -> Table:
    return table_where(lambda t: bool(t.held(2, SUSPECT)), settings=Settings())


def _outside(table: Table) -> str:
    return next(c for c in CLASSIC.suspects if c not in table.game.deck)


def _voided() -> Table:
    table = _strict()
    table.suggest(1, 2)
    table.admin(cmd.VoidSuggestion, suggestion=1)
    return table


def _answered() -> Table:
    table = _strict()
    table.suggest(1, 2)
    table.no_refutation(2, 1)
    return table


def _full_quota() -> Table:
    table = Table(4)
    for target in (2, 3, 4):
        table.suggest(1, target)
    return table


def _chosen(role: str) -> Callable[[], object]:
    table = _lobby(2, Settings(role_assignment=RoleAssignment.CHOSEN))
    table.run(cmd.JoinLobby(actor=3, role="plum"))
    return lambda: table.run(cmd.JoinLobby(actor=4, role=role))


def _refute_with(pick: Callable[[Table, int], str]) -> Callable[[], object]:
    table = _holder()
    s = table.suggest(1, 2, table.held_by(2, SUSPECT))
    return lambda: table.refute(2, s.id, pick(table, s.id))


def _left() -> Table:
    table = Table(4)
    table.run(cmd.LeaveGame(actor=2))
    return table


def _scenario(code: str) -> Callable[[], object]:
    """Build the situation, return the move that the rules refuse with `code`."""
    table = table_scenario(code) or liars_scenario(code)
    if table is not None:
        return table
    if code == "game_exists":
        t = Table(3)
        return lambda: t.run(cmd.OpenLobby(actor=1, seed=1))
    if code == "no_game":
        return lambda: decide(None, cmd.StartGame(actor=1), T0)
    if code == "not_in_lobby":
        t = Table(3)
        return lambda: t.run(cmd.JoinLobby(actor=9))
    if code == "already_joined":
        t = _lobby()
        return lambda: t.run(cmd.JoinLobby(actor=2))
    if code == "not_joined":
        t = _lobby()
        return lambda: t.run(cmd.LeaveLobby(actor=9))
    if code == "not_a_detective":  # a person named as a lobby's computer detective
        t = _lobby()
        return lambda: t.run(cmd.RemoveDetective(actor=1, detective=2))
    if code == "lobby_full":
        t = _lobby(3, Settings(max_players=3))
        return lambda: t.run(cmd.JoinLobby(actor=4))
    if code == "not_enough_players":
        t = _lobby(2)
        return lambda: t.run(cmd.StartGame(actor=1))
    if code == "pack_too_small":
        t = _lobby(10, Settings(extra_cards=3))
        return lambda: t.run(cmd.StartGame(actor=1))
    if code == "role_taken":
        return _chosen("plum")
    if code == "role_not_a_suspect":
        return _chosen("rope")
    if code == "roles_not_chosen_mode":
        t = _lobby()
        return lambda: t.run(cmd.JoinLobby(actor=4, role="plum"))
    if code == "only_host_or_admin":
        t = _lobby()
        return lambda: t.run(cmd.StartGame(actor=2))
    if code == "admin_only":
        t = Table(3)
        return lambda: t.run(cmd.PauseGame(actor=1))
    if code == "game_not_running":
        t = _lobby()
        return lambda: t.suggest(1, 2, ("plum", "rope", "hall"))
    if code == "game_paused":
        t = Table(3)
        t.admin(cmd.PauseGame)
        return lambda: t.suggest(1, 2)
    if code == "game_not_paused":
        t = Table(3)
        return lambda: t.admin(cmd.ResumeGame)
    if code == "day_not_open":
        t = _waiting_for_window()
        return lambda: t.suggest(2, 3)
    if code == "not_a_player":
        t = Table(3)
        return lambda: t.accuse(9, t.envelope)
    if code == "player_inactive":
        t = _left()
        return lambda: t.suggest(2, 1)
    if code == "cannot_target_self":
        t = Table(3)
        return lambda: t.suggest(1, 1, t.not_held_by(2))
    if code == "no_suggestions_left":
        t = _full_quota()
        return lambda: t.suggest(1, 2)
    if code == "target_limit_reached":
        t = Table(3, Settings(max_per_target_per_day=1))
        t.suggest(1, 2)
        return lambda: t.suggest(1, 2)
    if code == "received_limit_reached":
        t = Table(3, Settings(max_received_per_day=1))
        t.suggest(1, 2)
        return lambda: t.suggest(3, 2)
    if code == "eliminated_cannot_suggest":
        t = _eliminated()
        return lambda: t.suggest(1, 2)
    if code == "card_not_in_play":
        t = Table(3)
        return lambda: t.accuse(1, (_outside(t), *t.envelope[1:]))
    if code == "card_wrong_category":
        t = Table(3)
        return lambda: t.accuse(1, (t.envelope[2], *t.envelope[1:]))
    if code == "suggestion_not_found":
        t = Table(3)
        return lambda: t.admin(cmd.VoidSuggestion, suggestion=5)
    if code == "not_your_answer":
        t = _strict()
        t.suggest(1, 2)
        return lambda: t.no_refutation(3, 1)
    if code == "already_answered":
        t = _answered()
        return lambda: t.no_refutation(2, 1)
    if code == "suggestion_voided":
        t = _voided()
        return lambda: t.no_refutation(2, 1)
    if code == "card_not_held":
        return _refute_with(lambda t, i: t.named(i)[1])
    if code == "card_not_named":
        return _refute_with(lambda t, i: next(c for c in t.hand(2) if c not in t.named(i)))
    if code == "must_refute":
        t = _holder()
        s = t.suggest(1, 2, t.held_by(2, SUSPECT))
        return lambda: t.no_refutation(2, s.id)
    if code == "away_not_allowed":
        t = Table(3, Settings(away_days=0))
        return lambda: t.run(cmd.GoAway(actor=1, until=t.now + DAY))
    if code == "away_too_short":
        t = Table(3)
        return lambda: t.run(cmd.GoAway(actor=1, until=t.now))
    if code == "away_limit":
        t = Table(3, Settings(away_days=2))
        return lambda: t.run(cmd.GoAway(actor=1, until=t.now + 3 * DAY))
    if code == "target_away":
        t = Table(3, Settings(away_asked=False))
        t.run(cmd.GoAway(actor=2, until=t.now + DAY))
        return lambda: t.suggest(1, 2)
    if code == "standing_not_held":
        t = Table(3)
        return lambda: t.run(cmd.SetStandingAnswer(actor=1, order=(t.hand(2)[0],)))
    if code == "already_accused":
        t = Table(3)
        t.accuse(1, t.wrong())
        return lambda: t.accuse(1, t.envelope)
    if code == "invalid_setting":
        t = _lobby()
        return lambda: t.run(cmd.ChangeSettings(actor=1, changes={"day_length": timedelta(0)}))
    if code == "unknown_setting":
        t = _lobby()
        return lambda: t.run(cmd.ChangeSettings(actor=1, changes={"speed": 2}))
    if code == "setting_locked":
        t = Table(3)
        return lambda: t.admin(cmd.ChangeSettings, changes={"suggestions_per_day": 5})
    if code == "already_in_game":
        t = Table(3)
        return lambda: t.admin(cmd.ReplacePlayer, player=2, newcomer=3)
    if code == "invalid_extension":
        t = Table(3)
        return lambda: t.admin(cmd.ExtendDay, by=timedelta(0))
    if code == "target_not_in_game":
        t = Table(3)
        return lambda: t.suggest(1, 9, t.not_held_by(2))
    if code == "seat_not_active":
        t = _left()
        return lambda: t.admin(cmd.RemovePlayer, player=2)
    if code == "invalid_pack":
        from engine.cards import custom_pack

        return lambda: custom_pack(["A", "B"], ["C", "D", "E"], ["F", "G", "H", "I", "J", "K"])
    if code == "suggestion_already_made":
        t = Table(3)
        t.suggest(1, 2)
        suspect, weapon, place = t.not_held_by(2)
        again = cmd.MakeSuggestion(
            actor=1, target=2, suspect=suspect, weapon=weapon, place=place, number=1
        )
        return lambda: t.run(again)
    raise AssertionError(f"no scenario for {code!r}: add one")


@pytest.mark.parametrize("code", sorted(RULE_ERROR_CODES))
def test_every_rule_error_code_is_raised_by_a_scenario(code: str) -> None:
    expect_error(code, _scenario(code))


def test_the_codes_are_derived_from_one_class_per_kind() -> None:
    """RULE_ERROR_CODES is the set of the kinds' codes; a code names exactly one kind."""
    kinds = RuleError.__subclasses__()
    assert {kind.code for kind in kinds} == RULE_ERROR_CODES
    assert len(kinds) == len(RULE_ERROR_CODES)
    assert all(REGISTRY.errors[kind.code] is kind for kind in kinds)
    assert all(kind.__module__ in ERROR_MODULES for kind in kinds)


def test_each_format_declares_its_own_kinds() -> None:
    """A format's errors live in its package and are its own: the Liars Edition's eight
    in engine/liars/errors.py, raised by it alone; the collected codes are every format's."""
    assert {kind.__module__ for kind in LIARS_ERRORS} == {"engine.liars.errors"}
    assert len(LIARS_ERRORS) == 8
    assert {kind.__module__ for kind in Y2023_ERRORS} == {"engine.y2023.errors"}
    assert {kind.__module__ for kind in TABLE_ERRORS} == {"engine.table.errors"}
    assert {kind.__module__ for kind in SHARED_ERRORS} == {"engine.errors"}
    assert set(LIARS_EDITION.errors) == {*SHARED_ERRORS, *TABLE_ERRORS, *LIARS_ERRORS}
    assert set(Y2023_EDITION.errors) == {*SHARED_ERRORS, *TABLE_ERRORS, *Y2023_ERRORS}
    assert set(CLASSIC_EDITION.errors) == {*SHARED_ERRORS, *TABLE_ERRORS}
    assert FORUM.errors == SHARED_ERRORS
    assert by_code(SHARED_ERRORS + LIARS_ERRORS)["accuse_at_start"] is AccuseAtStart
    every = SHARED_ERRORS + TABLE_ERRORS + Y2023_ERRORS + LIARS_ERRORS
    assert set(REGISTRY.errors.values()) == set(every)


def test_only_a_kind_of_rule_error_can_be_raised() -> None:
    """The base class has no code, so every refusal is one of the catalogued kinds."""
    with pytest.raises(TypeError):
        RuleError()
    refused = NoSuggestionsLeft(resets_at=T0)
    assert (refused.code, refused.values) == ("no_suggestions_left", {"resets_at": T0})
    assert isinstance(refused, RuleError)
    with pytest.raises(TypeError, match="taken"):
        type("Twice", (RuleError,), {}, code="no_game")
    gc.collect()  # the refused class is gone from RuleError.__subclasses__()


def test_engine_raises_only_kinds_of_rule_error() -> None:
    """No engine module builds a RuleError by code: each raise names its kind."""
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "RuleError", f"{path.name}:{node.lineno}"
