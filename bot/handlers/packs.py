"""/pack: a chat's own card pack (admins). The forum GMs often play with themed keywords."""

from __future__ import annotations

import re

from telegram import Update
from telegram.ext import ContextTypes

from bot.handlers.common import group_update, is_admin, refuse, say, services
from bot.render import labels_of
from engine.cards import CATEGORY_ORDER, CUSTOM, custom_pack
from engine.errors import RuleError


def parse_pack_text(text: str) -> list[list[str]]:
    """Three lines of names (suspects, weapons, places), each maybe headed "Weapons:"."""
    lines = [line for line in text.splitlines() if line.strip()]
    return [
        [name.strip() for name in re.split(r"[,;]", line.split(":", 1)[-1]) if name.strip()]
        for line in lines
    ]


async def pack(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/pack shows how; /pack + three lines sets the chat's own pack; /pack classic goes back."""
    w = await group_update(update, context)
    if w is None or w.message is None:
        return
    svc = services(context)
    body = (w.message.text or "").split(maxsplit=1)[1:]
    text = body[0].strip() if body else ""
    if not text:
        defaults = await svc.store.chats.get(w.chat.id)
        current = defaults.pack if defaults.settings.pack == CUSTOM else None
        listing = {c.value: list(current.cards_of(c)) for c in CATEGORY_ORDER} if current else None
        labels = labels_of(current) if current else None
        await say(context, w, "pack.usage", {"cards": listing}, labels=labels)
        return
    if not await is_admin(context, w.chat.id, w.user.id):
        await refuse(context, w, RuleError("admin_only"))
        return
    defaults = await svc.store.chats.get(w.chat.id)
    if text.lower() in ("classic", "классика", "классический"):
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
    await svc.store.chats.set_settings(w.chat.id, defaults.settings.changed(pack=CUSTOM))
    listing = {c.value: list(own.cards_of(c)) for c in CATEGORY_ORDER}
    await say(context, w, "pack.saved", {"cards": listing}, labels=labels_of(own))
