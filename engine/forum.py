"""The forum format: a game over days with addressed suggestions; no board, no turns."""

from __future__ import annotations

from engine.format import Format
from engine.formats import FORUM_SPEC
from engine.state import Game


class Forum(Format):
    """The forum's answers: days, not turns; its clocks are the shared rules' own (days,
    answers, accusation windows)."""

    spec = FORUM_SPEC
    has_days = True

    def plays_turns(self, game: Game) -> bool:
        return False

    def moment(self, game: Game) -> int:
        return game.day


FORUM = Forum()
