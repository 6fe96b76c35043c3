"""The toy edition's bot presentation: the classic's at the table (its prompt, its board
of squares, drawn by the classic's view), and a group post for its own event, the knock.

Its one text is its own: the toy ships nowhere, so it adds no key to the shipped catalogs;
its composer words the knock from the small catalog below (a language it lacks reads the
English), and names the player as every message does (`Reader.mention`)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from bot.announce.plan import Plan, user_at
from bot.announce.table_prompt import ClassicPrompt
from bot.editions.base import Edition
from bot.payload import User
from bot.render.reader import Reader
from engine.state import Game
from tests.support.toy_edition import TOY, Knocked, ToyPart

KNOCKED = "toy.knocked"  # the knock's message key (a composer's, in no catalog)
TEXTS = MappingProxyType(
    {
        "en": "✊ {player} knocks on the table (knock {knocks}).",
        "ru": "✊ {player} стучит по столу (стук {knocks}).",
    }
)


def knocks(game: Game) -> int:
    """The knocks so far (the toy's part of the table)."""
    part = game.table.edition if game.table is not None else None
    return part.knocks if isinstance(part, ToyPart) else 0


def knocked(plan: Plan, seq: int, e: Knocked, before: Game | None, after: Game) -> None:
    """The knock, told to the group: who knocked, and the knocks so far."""
    args = {"player": User(user_at(after, e.seat)), "knocks": knocks(after)}
    plan.group(plan.key(seq, "knock"), KNOCKED, args)


def knock_text(reader: Reader, args: dict[str, Any]) -> str:
    """The knock in the reader's language (the toy's own words)."""
    text = TEXTS.get(reader.language, TEXTS["en"])
    return text.format(player=reader.mention(args["player"].id), knocks=args["knocks"])


TOY_BOT = Edition(
    key=TOY.key,
    words=TOY.aliases,
    rules="rules.classic",  # the classic's rules: the toy plays them with one d4
    prompt=ClassicPrompt(),
    planners={Knocked: knocked},
    composers={KNOCKED: knock_text},
)

__all__ = ["KNOCKED", "TEXTS", "TOY_BOT", "knock_text", "knocked", "knocks"]
