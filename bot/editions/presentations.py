"""The bot's presentations of the formats, one value built at start-up from a tuple of
editions (the shipped one is `registry.EDITIONS`): a game's edition, the words of
`/newgame` and `/rules`, every event's planner, every message's composer and every board's
drawing. The services hold it and hand it on: the store's Planner (`plan_messages`), the
sender's texts (`compose`, `board_post`), the handlers' look-ups (through their context)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bot.announce.plan import Handler
from bot.announce.registry import SHARED_HANDLERS
from bot.announce.turn_card import LineOf
from bot.editions.base import Edition
from bot.editions.messages import SHARED_COMPOSERS, compose_with, table_log, turn_card
from bot.editions.planning import card_lines, plan_in
from bot.render.board_view import BoardView
from bot.render.listings import table_status
from bot.render.reader import Reader
from bot.render.wording import Composer
from engine.events import Event
from engine.format import format_of
from engine.state import Game
from locales import edition_words
from storage.messages_owed import OutboxItem, PlanContext


@dataclass(frozen=True)
class Presentations:
    """Every edition's presentation and the tables built from them once (by the engine's
    format key, by the words that name an edition, by board name, by message key)."""

    editions: tuple[Edition, ...]
    by_key: Mapping[str, Edition] = field(init=False, repr=False)
    by_words: Mapping[str, Edition] = field(init=False, repr=False)
    rules_by_words: Mapping[str, str] = field(init=False, repr=False)
    boards: Mapping[str, BoardView] = field(init=False, repr=False)
    # every event's planner: each edition's for its own events, and the shared ones
    planners: Mapping[type[Event], Handler] = field(init=False, repr=False)
    composers: Mapping[str, Composer] = field(init=False, repr=False)  # every message's

    def __post_init__(self) -> None:
        editions = self.editions
        words = {word: e for e in editions for word in (*e.words, *edition_words(e.key))}
        rules = {
            word: e.rules
            for e in editions
            if e.rules_words
            for word in (*e.rules_words, *edition_words(e.key))
        }
        planners = {t: h for e in editions for t, h in e.planners.items()}
        composers: dict[str, Composer] = {
            **SHARED_COMPOSERS,
            **{k: c for e in editions for k, c in e.composers.items()},
            "status.table": lambda r, a: table_status(r, a, self.board_words),
            "table.card": lambda r, a: turn_card(self.compose, r, a),
            "log.table": lambda r, a: table_log(self.compose, r, a),
        }
        built: dict[str, dict[Any, Any]] = {
            "by_key": {e.key: e for e in editions},
            "by_words": words,
            "rules_by_words": rules,
            "boards": {name: v for e in editions for name, v in e.boards.items()},
            "planners": {**planners, **SHARED_HANDLERS},
            "composers": composers,
        }
        for name, table in built.items():  # a frozen dataclass's own fields, set once
            object.__setattr__(self, name, MappingProxyType(table))

    def edition_of(self, game: Game) -> Edition:
        """The presentation of the game's format (by the engine's `format_of(game).key`)."""
        return self.by_key[format_of(game).key]

    def by_word(self, word: str) -> Edition | None:
        """The edition `/newgame <word>` names (any case), if any."""
        return self.by_words.get(word.casefold())

    def rules_by_word(self, word: str) -> str | None:
        """The catalog key of the rules `/rules <word>` asks for by name, if any."""
        return self.rules_by_words.get(word.casefold())

    def board_view(self, name: str) -> BoardView:
        """How the board of a post is drawn, by the board's name in the payload."""
        return self.boards[name]

    def plan_messages(self, ctx: PlanContext) -> list[OutboxItem]:
        """The Planner the store calls inside a command's transaction, in the game's edition."""
        return plan_in(self.edition_of(ctx.after), ctx)

    def card_lines_of(self, game: Game) -> dict[type[Event], LineOf]:
        """What each event tells on a turn's card in the game's edition."""
        return card_lines(self.edition_of(game))

    def compose(self, reader: Reader, msg: str, args: dict[str, Any]) -> str:
        """The text of a message in the reader's language (`messages.compose_with`)."""
        return compose_with(self.composers, reader, msg, args)

    def board_post(
        self, reader: Reader, board: dict[str, Any], text: str
    ) -> tuple[str, bytes | None]:
        """A post that carries a board, drawn by the edition that owns the board: its text
        and its picture (None: the board is told in words under the text instead)."""
        return self.board_view(str(board["name"])).post(reader, board, text)

    def board_words(self, reader: Reader, board: dict[str, Any]) -> str:
        """The board in words alone (/status)."""
        return self.board_view(str(board["name"])).words(reader, board)
