"""Whole messages: a payload's key and arguments become one text in the reader's language.

Plain catalog messages need no composer; the others' composers are the game's
announcements (`game_messages`), what a person asks to see (`listings`), the table's
(`table_messages`), all in `bot.render`, and each edition's own, which `Presentations`
joins with these."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from bot.payload import upgrade
from bot.render.achievements_text import ACHIEVEMENT_COMPOSERS
from bot.render.arguments import flat_args
from bot.render.game_messages import GAME_COMPOSERS
from bot.render.index_text import INDEX_COMPOSERS
from bot.render.listings import LISTING_COMPOSERS
from bot.render.notebook_text import NOTEBOOK_COMPOSERS
from bot.render.player_log import PLAYER_LOG_COMPOSERS
from bot.render.ratings_text import RATINGS_COMPOSERS
from bot.render.reader import Reader
from bot.render.records_text import RECORDS_COMPOSERS
from bot.render.settings_menu import MENU_COMPOSERS
from bot.render.story_text import STORY_COMPOSERS
from bot.render.table_messages import TABLE_COMPOSERS
from bot.render.wording import Composer, join_lines, place_name
from locales import t

# Private messages of a game whose own text names it (the notebook's title, which its
# picture draws too): no line of their own for the game.
NAMED_IN_TEXT = frozenset({"notebook.text", "notebook.picture"})

# Every format's composers (a table's too); `Presentations` adds each edition's, and those
# that need the editions' boards or the whole table (`status.table`, `table.card`, `log.table`).
SHARED_COMPOSERS: Mapping[str, Composer] = MappingProxyType(
    {
        **GAME_COMPOSERS,
        **INDEX_COMPOSERS,
        **LISTING_COMPOSERS,
        **PLAYER_LOG_COMPOSERS,
        **NOTEBOOK_COMPOSERS,
        **STORY_COMPOSERS,
        **RECORDS_COMPOSERS,
        **RATINGS_COMPOSERS,
        **ACHIEVEMENT_COMPOSERS,
        **MENU_COMPOSERS,
        **TABLE_COMPOSERS,
    }
)

Compose = Callable[[Reader, str, dict[str, Any]], str]  # a message's key and args -> its text


def compose_with(
    composers: Mapping[str, Composer], reader: Reader, msg: str, args: dict[str, Any]
) -> str:
    """The text of a message, by its composer among `composers` or else the catalog's. A
    private message of a game (it carries `game_label`) opens with the game's chat and topic.
    Arguments are typed values; format-1 names (`hand_cards`, …) are upgraded first."""
    args = upgrade(args)
    composer = composers.get(msg)
    if composer is not None:
        text = composer(reader, args)
    else:
        text = t(reader.language, msg, **flat_args(reader, args))
    if "game_label" in args and msg not in NAMED_IN_TEXT:
        place = t(reader.language, "game.place_line", place=place_name(reader.language, args))
        return join_lines(place, text)
    return text


def turn_card(compose: Compose, reader: Reader, args: dict[str, Any]) -> str:
    """A turn's card (`bot.announce.turn_card`): who plays the turn, then a line for each
    public step (each a message of its own kind), and where the player's buttons are."""
    heading = {name: args[name] for name in ("turn", "player", "suspect")}
    head = t(reader.language, "table.card", **flat_args(reader, heading))
    told = [*args["lines"], *([args["status"]] if args.get("status") else [])]
    return "\n".join([head, *(compose(reader, x["kind"], x["args"]) for x in told)])


def table_log(compose: Compose, reader: Reader, args: dict[str, Any]) -> str:
    """`/log` at the table: every turn's card in its last form, in turn order."""
    if not args["cards"]:
        return t(reader.language, "log.table_empty")
    cards = [turn_card(compose, reader, card) for card in args["cards"]]
    return "\n\n".join([t(reader.language, "log.table"), *cards])
