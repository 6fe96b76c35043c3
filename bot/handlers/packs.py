"""/pack: a chat's own card pack (admins). The forum GMs often play with themed keywords."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from telegram import Update

from bot.context import CustomContext
from bot.handlers.common import group_update, is_admin, refuse, say
from bot.parsing import normalize
from bot.payload import cards_listing, labels_of
from engine.cards import CATEGORY_ORDER, CUSTOM, Category, custom_pack
from engine.errors import RuleError
from engine.formats import spec_for
from engine.queries import admin_refusal
from locales import LANGUAGES, edition_words, t


def parse_pack_text(text: str) -> list[list[str]]:
    """Three lines of names (suspects, weapons, places), each maybe headed "Weapons:".

    Only a known heading (pack.line_labels_* in any language) is taken off a line, so a
    name with a colon ("Dr: Who") stays whole. Three headed lines may come in any order;
    a heading in the wrong place otherwise makes the text unreadable (no lines).
    """
    lines = [_headed(line) for line in text.splitlines() if line.strip()]
    headings = [heading for heading, _ in lines]
    if None not in headings and len(set(headings)) == len(CATEGORY_ORDER) == len(lines):
        lines.sort(key=lambda line: CATEGORY_ORDER.index(line[0]))
    placed = zip((heading for heading, _ in lines), CATEGORY_ORDER, strict=False)
    misplaced = any(heading not in (None, category) for heading, category in placed)
    if misplaced and len(lines) == len(CATEGORY_ORDER):
        return []
    return [
        [name.strip() for name in re.split(r"[,;]", names) if name.strip()] for _, names in lines
    ]


def _headed(line: str) -> tuple[Category | None, str]:
    """A line's heading, if it starts with one, and the rest of the line."""
    heading, colon, rest = line.partition(":")
    category = _HEADINGS.get(normalize(heading)) if colon else None
    return (category, rest) if category is not None else (None, line)


_HEADINGS: Mapping[str, Category] = MappingProxyType(
    {
        normalize(word): category
        for category in CATEGORY_ORDER
        for language in LANGUAGES
        for word in t(language, f"pack.line_labels_{category.value}").split(",")
    }
)


async def pack(update: Update, context: CustomContext) -> None:
    """/pack shows how; /pack + three lines sets the chat's own pack; /pack classic goes back."""
    w = await group_update(update, context)
    if w is None or w.message is None:
        return
    svc = context.services
    body = (w.message.text or "").split(maxsplit=1)[1:]
    text = body[0].strip() if body else ""
    if not text:
        defaults = await svc.store.chats.get(w.chat.id)
        current = defaults.pack if defaults.settings.pack == CUSTOM else None
        listing = cards_listing(current.cards_of) if current else None
        labels = labels_of(current) if current else None
        await say(context, w, "pack.usage", {"cards": listing}, labels=labels)
        return
    refusal = admin_refusal(await is_admin(context, w.chat.id, w.user.id))
    if refusal is not None:
        await refuse(context, w, refusal)
        return
    defaults = await svc.store.chats.get(w.chat.id)
    if text.casefold() in ("classic", *edition_words("classic")):
        await svc.store.chats.set_settings(w.chat.id, defaults.settings.changed(pack="classic"))
        await say(context, w, "pack.classic")
        return
    parts = parse_pack_text(text)
    if len(parts) != 3:
        await say(context, w, "pack.usage", {"cards": None})
        return
    try:
        own = custom_pack(*parts)
    except RuleError as error:
        await refuse(context, w, error)
        return
    await svc.store.chats.set_pack(w.chat.id, own)
    custom = defaults.settings.changed(pack=CUSTOM)
    spec_for(custom, svc.registry.specs)  # a table's format refuses it, as the settings did
    await svc.store.chats.set_settings(w.chat.id, custom)
    listing = cards_listing(own.cards_of)
    await say(context, w, "pack.saved", {"cards": listing}, labels=labels_of(own))
