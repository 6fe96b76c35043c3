"""The bot's edition registry: the one module that imports the editions. The shared code
asks it for a game's edition (by the engine's format) and for what every edition adds
(composers, boards, the words of `/newgame` and `/rules`)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.editions.base import Edition
from bot.editions.classic import CLASSIC
from bot.editions.forum import FORUM
from bot.editions.liars import LIARS
from bot.editions.y2023 import Y2023
from bot.render.board_view import BoardView
from bot.render.wording import Composer
from engine.format import format_of
from engine.state import Game
from locales import edition_words

EDITIONS: tuple[Edition, ...] = (FORUM, CLASSIC, Y2023, LIARS)
BY_KEY: Mapping[str, Edition] = {e.key: e for e in EDITIONS}


BY_WORD: Mapping[str, Edition] = {
    word: e for e in EDITIONS for word in (*e.words, *edition_words(e.key))
}
RULES_BY_WORD: Mapping[str, str] = {
    word: e.rules
    for e in EDITIONS
    if e.rules_words
    for word in (*e.rules_words, *edition_words(e.key))
}
BOARD_VIEWS: Mapping[str, BoardView] = {name: v for e in EDITIONS for name, v in e.boards.items()}
COMPOSERS: Mapping[str, Composer] = {k: c for e in EDITIONS for k, c in e.composers.items()}


def edition_of(game: Game) -> Edition:
    """The presentation of the game's format (by the engine's `format_of(game).key`)."""
    return BY_KEY[format_of(game).key]


def by_word(word: str) -> Edition | None:
    """The edition `/newgame <word>` names (any case), if any."""
    return BY_WORD.get(word.casefold())


def rules_by_word(word: str) -> str | None:
    """The catalog key of the rules `/rules <word>` asks for by name, if any."""
    return RULES_BY_WORD.get(word.casefold())


def board_view(name: str) -> BoardView:
    """How the board of a post is drawn, by the board's name in the payload."""
    return BOARD_VIEWS[name]
