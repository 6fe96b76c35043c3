"""A tiny test driver: a table of users 1..N playing one game at a controlled time.

`Table(players=4)` opens a lobby as user 1, lets users 2..N join and starts the game at
`T0`. Every command runs through `decide_and_apply` (the events with the state after
each); the table keeps the state and every event. `wait(delta)` moves the clock like a
perfect scheduler (each due deadline fires at its own moment); setting `now` directly is
a bot that was down.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest

from engine import REGISTRY
from engine import commands as cmd
from engine import events as ev
from engine.cards import CATEGORY_ORDER, CardId, Category
from engine.codec import command_to_dict, event_to_dict
from engine.deadlines import deadlines
from engine.decide import decide_and_apply
from engine.errors import RuleError
from engine.evolve import evolve, replay
from engine.settings import Settings
from engine.state import Game, Player, Suggestion

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(hours=24)
HOUR = timedelta(hours=1)
ADMIN = 99
SUSPECT, WEAPON, PLACE = CATEGORY_ORDER

Cards = tuple[CardId, CardId, CardId]
E = TypeVar("E", bound=ev.Event)


def expect_error(code: str, fn: Callable[[], Any]) -> RuleError:
    """Run fn, which must be refused with exactly this rule error code."""
    with pytest.raises(RuleError) as caught:
        fn()
    assert caught.value.code == code, f"expected {code!r}, got {caught.value!r}"
    return caught.value


class Table:
    """One game, its state, its events and its clock."""

    def __init__(
        self,
        players: int = 3,
        settings: Settings | None = None,
        *,
        seed: int = 1,
        roles: dict[int, CardId] | None = None,
        start: bool = True,
        now: datetime = T0,
    ) -> None:
        self.now = now
        self.state: Game | None = None
        self.events: list[ev.Event] = []
        self.run(cmd.OpenLobby(actor=1, seed=seed, settings=settings or Settings()))
        roles = roles or {}
        for user in range(2, players + 1):
            self.run(cmd.JoinLobby(actor=user, role=roles.get(user)))
        if start:
            self.run(cmd.StartGame(actor=1))

    # --- running commands ---------------------------------------------------
    def run(self, command: cmd.Command) -> list[ev.Event]:
        """Decide at `now`, apply the events, keep them; a RuleError propagates.

        Every event must survive storage (JSON) and the events must rebuild the state.
        """
        decision = decide_and_apply(self.state, command, self.now)
        new = decision.events
        for event, before, after in decision.steps():
            assert (
                REGISTRY.codec.event_from_dict(json.loads(json.dumps(event_to_dict(event))))
                == event
            )
            assert evolve(before, event) == after, "the engine folded the event as evolve does"
        self.state = decision.after
        self.events.extend(new)
        assert replay(self.events) == self.state, "the events do not rebuild the state"
        return new

    def admin(self, command_type: type[cmd.Command], **fields: Any) -> list[ev.Event]:
        """Run a command as a chat admin (user ADMIN, who is not a player)."""
        return self.run(command_type(actor=ADMIN, actor_is_admin=True, **fields))

    def wait(self, delta: timedelta) -> list[ev.Event]:
        """Let time pass; every deadline that falls due fires at its own moment."""
        return self.wait_until(self.now + delta)

    def wait_until(self, moment: datetime) -> list[ev.Event]:
        new: list[ev.Event] = []
        while True:
            due = [d for d in deadlines(self.state) if d.at <= moment]
            if not due:
                break
            self.now = max(self.now, due[0].at)
            stored = json.loads(json.dumps(command_to_dict(due[0].command)))  # a deadline row
            fired = self.run(REGISTRY.codec.command_from_dict(stored))
            assert fired, f"deadline {due[0].key} fired without effect"
            new.extend(fired)
        self.now = max(self.now, moment)
        return new

    def end_day(self) -> list[ev.Event]:
        """Let the current day run out (deadlines fire on the way)."""
        assert self.game.day_ends_at is not None
        return self.wait_until(self.game.day_ends_at)

    # --- player moves -------------------------------------------------------
    def suggest(self, user: int, target: int, cards: Cards | None = None) -> Suggestion:
        """`user` makes a suggestion to `target`; returns it as stored."""
        suspect, weapon, place = cards or self.not_held_by(target)
        self.run(
            cmd.MakeSuggestion(
                actor=user, target=target, suspect=suspect, weapon=weapon, place=place
            )
        )
        return self.game.suggestions[-1]

    def refute(self, user: int, suggestion: int, card: CardId) -> list[ev.Event]:
        return self.run(cmd.Refute(actor=user, suggestion=suggestion, card=card))

    def no_refutation(self, user: int, suggestion: int) -> list[ev.Event]:
        return self.run(cmd.DeclareNoRefutation(actor=user, suggestion=suggestion))

    def accuse(self, user: int, cards: Cards) -> list[ev.Event]:
        suspect, weapon, place = cards
        return self.run(cmd.Accuse(actor=user, suspect=suspect, weapon=weapon, place=place))

    # --- looking at the game ------------------------------------------------
    @property
    def game(self) -> Game:
        assert self.state is not None
        return self.state

    def player(self, user: int) -> Player:
        player = self.game.player_of(user)
        assert player is not None
        return player

    def in_play(self, category: Category) -> tuple[CardId, ...]:
        return self.game.in_play(category)

    def hand(self, user: int) -> tuple[CardId, ...]:
        return self.player(user).hand

    @property
    def envelope(self) -> Cards:
        assert self.game.envelope is not None
        return self.game.envelope

    def cards_not_in(self, user: int) -> tuple[CardId, ...]:
        """Cards in play that `user` does not hold (the envelope's among them)."""
        hand = set(self.hand(user))
        return tuple(card for card in self.game.deck if card not in hand)

    def held(self, user: int, category: Category) -> tuple[CardId, ...]:
        """The user's cards of one category."""
        return tuple(c for c in self.hand(user) if c in self.in_play(category))

    def suggestion(self, number: int) -> Suggestion:
        """A suggestion of the game, as stored (it must exist)."""
        found = self.game.suggestion(number)
        assert found is not None, f"no suggestion {number}"
        return found

    def named(self, suggestion: int) -> Cards:
        """The three cards a suggestion named."""
        return self.suggestion(suggestion).cards

    def not_held_by(self, user: int) -> Cards:
        """Suspect, weapon, place none of which the user holds (always exists: the envelope)."""
        hand = set(self.hand(user))
        s, w, p = (next(c for c in self.in_play(k) if c not in hand) for k in CATEGORY_ORDER)
        return (s, w, p)

    def held_by(self, user: int, *categories: Category) -> Cards:
        """A combo whose cards of `categories` the user holds, the others not.

        With no categories: the user's cards wherever they have one of a category.
        """
        wanted = categories or tuple(k for k in CATEGORY_ORDER if self.held(user, k))
        lacking = [k for k in wanted if not self.held(user, k)]
        assert not lacking, f"user {user} holds no {lacking[0]}: pick another seed"
        free = self.not_held_by(user)
        chosen = [
            self.held(user, k)[0] if k in wanted else free[i] for i, k in enumerate(CATEGORY_ORDER)
        ]
        assert len(chosen) == 3
        return (chosen[0], chosen[1], chosen[2])

    def wrong(self) -> Cards:
        """An accusation that is certainly wrong: the envelope with another suspect."""
        _, weapon, place = self.envelope
        other = next(c for c in self.in_play(SUSPECT) if c != self.envelope[0])
        return (other, weapon, place)

    def of_type(self, event_type: type[E], events: Iterable[ev.Event] | None = None) -> list[E]:
        """Events of one type, from `events` or from the whole game."""
        source = self.events if events is None else events
        return [e for e in source if isinstance(e, event_type)]

    def last(self, event_type: type[E]) -> E:
        found = self.of_type(event_type)
        assert found, f"no {event_type.__name__} yet"
        return found[-1]

    def quota(self, user: int) -> int:
        return self.game.quota_left(self.player(user))


def table_where(predicate: Callable[[Table], bool], **kwargs: Any) -> Table:
    """The first table (by seed) whose deal satisfies `predicate`; deterministic."""
    for seed in range(1, 500):
        table = Table(seed=seed, **kwargs)
        if predicate(table):
            return table
    raise AssertionError("no seed gives such a deal")


def holds_all_categories(table: Table, user: int) -> bool:
    return all(table.held(user, k) for k in CATEGORY_ORDER)
