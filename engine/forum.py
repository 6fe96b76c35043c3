"""The forum format: a game over days with addressed suggestions; no board, no turns."""

from __future__ import annotations

import random
from datetime import datetime

from engine import events as ev
from engine.cards import CardId, Category
from engine.decision import Decision
from engine.format import Format
from engine.formats import FORUM_SPEC
from engine.lobby import deal, forum_cards
from engine.schedule import day_end
from engine.state import Game


class Forum(Format):
    """The forum's answers: days, not turns; its clocks are the shared rules' own (days,
    answers, accusation windows)."""

    spec = FORUM_SPEC

    def roles(self, game: Game) -> tuple[CardId, ...]:
        return game.pack.cards_of(Category.SUSPECT)

    def drawn_cards(self, game: Game, rng: random.Random) -> dict[Category, list[CardId]]:
        return forum_cards(game, rng)

    def start(self, decision: Decision, rng: random.Random, now: datetime) -> None:
        """The deal, then the first day."""
        decision.emit(deal(decision.state, now, rng))
        ends_at = day_end(decision.state.settings, now)
        decision.emit(ev.DayOpened(at=now, day=1, ends_at=ends_at))

    def plays_turns(self, game: Game) -> bool:
        return False

    def moment(self, game: Game) -> int:
        return game.day


FORUM = Forum()
