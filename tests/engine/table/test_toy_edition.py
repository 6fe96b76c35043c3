"""A toy fourth edition (tests/support/toy_edition/: the classic with one four-sided die,
and a command and event of its own) played through a registry built with it,
`Registry((*FORMATS, TOY))`, through `decide` and `evolve`: the lobby, the set-up, turns
with the toy die's rolls, moves towards a room, a suggestion refuted, and the winning
accusation. Nothing in engine/ names it, and nothing is registered anywhere: a registry
whose formats clash is refused when it is built."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import MappingProxyType

import pytest

from engine import FORMATS, REGISTRY, Registry
from engine import commands as cmd
from engine import events as ev
from engine.cards import Category
from engine.codec import event_to_dict, to_dict
from engine.decide import decide_and_apply
from engine.errors import InvalidSetting, WrongFormat
from engine.events import Event
from engine.format import format_of
from engine.formats import FormatSpec
from engine.settings import Settings
from engine.state import Game
from engine.table.classic import TABLE_COMMANDS
from engine.table.dice import roll_dice
from engine.table.edition import Handler
from engine.table.errors import NotYourTurn
from engine.table.queries import refutation_choices, turn_options
from engine.table.state import Step
from tests.support.toy_edition import (
    D4,
    FACES,
    TOY,
    TOY_REGISTRY,
    Knock,
    Knocked,
    ToyPart,
    knock,
)

T0 = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)


class Table:
    """The toy game, command by command through decide (each event folded by evolve)."""

    def __init__(self, players: int = 3, seed: int = 11) -> None:
        self.now = T0
        self.state: Game | None = None
        self.events: list[Event] = []
        settings = Settings(format="toy_d4")
        self.run(cmd.OpenLobby(actor=1, seed=seed, settings=settings))
        for user in range(2, players + 1):
            self.run(cmd.JoinLobby(actor=user))

    def run(self, command: cmd.Command) -> list[Event]:
        self.now += timedelta(seconds=5)
        decision = decide_and_apply(self.state, command, self.now, TOY_REGISTRY)
        self.state = decision.after
        self.events.extend(decision.events)
        return decision.events

    @property
    def game(self) -> Game:
        assert self.state is not None
        return self.state

    def current_user(self) -> int:
        table = self.game.table
        assert table is not None
        return self.game.players[table.current].user


def test_the_toy_edition_is_found_by_its_key_and_alias_in_its_registry_alone() -> None:
    assert TOY in TOY_REGISTRY.editions and TOY_REGISTRY.find_edition("toy_d4") is TOY
    assert TOY_REGISTRY.find_edition("d4") is TOY and TOY_REGISTRY.keys[-1] == "toy_d4"
    assert REGISTRY.find_edition("toy_d4") is None and "toy_d4" not in REGISTRY.keys
    table = Table()
    assert format_of(table.game).key == "toy_d4" and format_of(table.game) is TOY
    assert table.game.player_range == (3, 6) and not table.game.format.has_days
    with pytest.raises(InvalidSetting):  # the shipped registry plays no toy
        decide_and_apply(
            None, cmd.OpenLobby(actor=1, seed=1, settings=Settings(format="toy_d4")), T0
        )


def test_a_toy_game_is_played_from_the_lobby_to_the_winning_accusation() -> None:
    table = Table(players=3)
    started = table.run(cmd.StartGame(actor=1))
    setup = next(e for e in started if isinstance(e, ev.BoardSetUp))
    assert setup.board == "classic" and len(table.game.deck) == 21
    rolls: list[int] = []
    suggested = False
    for _ in range(300):
        game = table.game
        if not game.running:
            break
        assert game.table is not None
        user = table.current_user()
        turn = game.table.turn
        rolled = table.run(cmd.Roll(actor=user))
        dice = next(e for e in rolled if isinstance(e, ev.DiceRolled)).dice
        assert dice == roll_dice(game.seed, turn, 1, faces=FACES)
        rolls.extend(dice)
        options = turn_options(table.game, user)
        if options.rooms:
            table.run(cmd.Move(actor=user, to=options.rooms[0]))
            room = turn_options(table.game, user).suggest_in
            assert room is not None
            suspect = table.game.in_play(Category.SUSPECT)[0]
            weapon = table.game.in_play(Category.WEAPON)[0]
            table.run(cmd.Suggest(actor=user, suspect=suspect, weapon=weapon))
            suggested = True
            _answer(table)
            envelope = table.game.envelope
            assert envelope is not None
            suspect, weapon, place = envelope
            won = table.run(cmd.Accuse(actor=user, suspect=suspect, weapon=weapon, place=place))
            assert any(isinstance(e, ev.GameEnded) and e.winner is not None for e in won)
            break
        if options.towards:
            table.run(cmd.Move(actor=user, to=options.towards[0][1]))
        elif options.squares:
            table.run(cmd.Move(actor=user, to=options.squares[0]))
        table.run(cmd.EndTurn(actor=user))
    assert suggested and table.game.winner is not None and not table.game.running
    assert rolls and set(rolls) <= set(range(1, FACES + 1))
    suggestion = table.game.table.suggestions[-1] if table.game.table else None
    assert suggestion is not None and suggestion.answered


def _answer(table: Table) -> None:
    """Each asked refuter shows their first matching card."""
    game_table = table.game.table
    assert game_table is not None
    while game_table.step is Step.REFUTING:
        pending = game_table.pending
        assert pending is not None and pending.refuter is not None
        refuter = table.game.players[pending.refuter].user
        card = refutation_choices(table.game, refuter)[0]
        table.run(cmd.ShowCard(actor=refuter, card=card))
        game_table = table.game.table
        assert game_table is not None


def test_the_toy_editions_own_command_and_event_go_through_decide_and_evolve() -> None:
    table = Table()
    table.run(cmd.StartGame(actor=1))
    user = table.current_user()
    other = next(p.user for p in table.game.players if p.user != user)
    with pytest.raises(NotYourTurn):
        table.run(Knock(actor=other))
    (knocked,) = table.run(Knock(actor=user))
    assert isinstance(knocked, Knocked)
    table.run(Knock(actor=user))
    assert table.game.table is not None and table.game.table.edition == ToyPart(knocks=2)
    stored = json.loads(json.dumps(event_to_dict(knocked)))
    assert stored["type"] == "Knocked" and TOY_REGISTRY.codec.event_from_dict(stored) == knocked
    snapshot = json.loads(json.dumps(to_dict(table.game)))
    assert snapshot["table"]["edition"]["kind"] == "ToyPart" and "format" not in snapshot
    assert TOY_REGISTRY.codec.from_dict(Game, snapshot) == table.game
    with pytest.raises(KeyError):  # the shipped registry's codec knows no knock
        REGISTRY.codec.event_from_dict(stored)


def test_the_toy_editions_command_is_refused_in_another_edition() -> None:
    state: Game | None = None
    now = T0
    for command in (
        cmd.OpenLobby(actor=1, seed=3, settings=Settings(format="classic")),
        cmd.JoinLobby(actor=2),
        cmd.JoinLobby(actor=3),
        cmd.StartGame(actor=1),
    ):
        state = decide_and_apply(state, command, now, TOY_REGISTRY).after
    assert state is not None and state.table is not None
    current = state.players[state.table.current].user
    with pytest.raises(WrongFormat):
        decide_and_apply(state, Knock(actor=current), now, TOY_REGISTRY)


def test_another_edition_under_a_taken_key_is_refused() -> None:
    class Impostor(D4):
        """Another edition calling itself the toy's name."""

    with pytest.raises(ValueError, match="toy_d4"):
        Registry((*FORMATS, TOY, Impostor()))
    assert TOY_REGISTRY.find_edition("toy_d4") is TOY
    assert TOY_REGISTRY.find_edition("2023") is TOY_REGISTRY.find_edition("y2023") is not None


def test_an_edition_whose_event_name_is_taken_is_refused() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Knocked(Event):  # another event under the toy's event's name
        seat: int

    class Echo(D4):
        spec = FormatSpec("toy_echo", players=(3, 6))
        events = MappingProxyType({Knocked: lambda state, e: state})

    with pytest.raises(ValueError, match="Knocked"):
        Registry((*FORMATS, TOY, Echo()))


def test_a_registry_holds_its_own_formats_tables_and_changes_no_other() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Echoed(Event):
        seat: int

    @dataclass(frozen=True, kw_only=True)
    class Echo(cmd.Command):
        pass

    class EchoTable(D4):
        spec = FormatSpec("toy_echo2", players=(3, 6))
        commands: Mapping[type[cmd.Command], Handler] = {**TABLE_COMMANDS, Echo: knock}
        events = MappingProxyType({Echoed: lambda state, e: state})

    before = (REGISTRY.keys, dict(REGISTRY.codec.names.events), dict(REGISTRY.folds))
    echo = EchoTable()
    registry = Registry((*FORMATS, echo))
    assert registry.find_edition("toy_echo2") is echo
    assert registry.codec.names.events["Echoed"] is Echoed and Echoed in registry.folds
    assert registry.codec.names.commands["Echo"] is Echo and Echo in registry.handlers
    assert registry.codec.names.commands["Roll"] is cmd.Roll  # the shared ones too
    assert (REGISTRY.keys, dict(REGISTRY.codec.names.events), dict(REGISTRY.folds)) == before
    assert "Echo" not in REGISTRY.codec.names.commands and Echo not in REGISTRY.handlers
