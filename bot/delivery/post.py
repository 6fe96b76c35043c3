"""What an outbox row says to its reader: rendered at send time in the reader's language.

A person's private message reads in their language, a group post in the chat's; the people
it names (in its arguments and its buttons) are read in the same look-up.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardMarkup

from bot.directory import Directory
from bot.editions.presentations import Presentations
from bot.payload import Payload, users_in
from bot.render.index_text import planned_bare
from bot.render.keyboards import buttons_markup, keyboard
from bot.render.pictures import picture_post
from bot.render.reader import Reader
from storage.outbox import OutboxRow


@dataclass(frozen=True)
class Post:
    """The row's text and buttons; `edit_of` the key of the row whose message it edits, or
    `photo` the board's picture it goes as (the text its caption); `pin`: pinned once sent."""

    text: str
    markup: InlineKeyboardMarkup | None
    edit_of: str | None = None
    photo: bytes | None = None
    pin: bool = False
    board: str | None = None  # what the picture shows, as a digest (an edit redraws on change)


async def post_of(
    shown: Presentations, directory: Directory, row: OutboxRow, payload: Payload
) -> Post | None:
    """The row (its payload read, bot.delivery.links) as its reader sees it, worded and
    drawn by the editions `shown`; None for a reminder to a person who turned them off, or
    an edit of the index planned without its content (nothing is sent)."""
    if payload.edit_of is not None and planned_bare(payload.kind, payload.args):
        return None
    if (
        payload.kind == "dm.reminder"
        and row.user_id is not None
        and not await directory.wants_reminders(row.user_id)
    ):
        return None
    reader = await _reader(directory, row, payload)
    text = shown.compose(reader, payload.kind, payload.args)
    markup = keyboard(buttons_markup(reader, payload.buttons))
    if payload.board is not None:  # a picture, its text the caption (or the board in words)
        text, photo = shown.board_post(reader, payload.board, text)
        drawn = board_digest(payload.board) if photo is not None else None
        return Post(text, markup, edit_of=payload.edit_of, photo=photo, board=drawn)
    if payload.edit_of is not None:
        return Post(text, markup, edit_of=payload.edit_of)
    if payload.picture is not None:
        text, photo = picture_post(reader, payload.picture, payload.args, text)
        return Post(text, markup, photo=photo)
    return Post(text, markup, pin=payload.pin)


def board_digest(board: dict[str, Any]) -> str:
    """What a board picture shows, as a short digest: the same position draws the same."""
    shown = json.dumps(board, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(shown.encode()).hexdigest()[:16]


async def _reader(directory: Directory, row: OutboxRow, payload: Payload) -> Reader:
    named = users_in(payload.args) | _button_users(payload)
    zone = payload.tz or "UTC"  # the game's chat's
    if row.user_id is not None:  # one read for the reader and the people named
        people = await directory.persons(named | {row.user_id})
        language = await directory.person_language(row.user_id, row.game_id)
        zone = await directory.person_timezone(row.user_id) or zone
    else:
        language = await directory.chat_language(row.chat_id)
        people = await directory.persons(named)
    return Reader(language, zone, people, payload.labels or {})


def _button_users(payload: Payload) -> set[int]:
    return {int(spec["user"]) for row in payload.buttons or [] for spec in row if "user" in spec}
