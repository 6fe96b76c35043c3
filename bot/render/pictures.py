"""Posts that go as a picture drawn from their arguments (a player's notebook, a person's
profile card), by name; when the picture cannot be drawn the post goes as text instead, in
full."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from bot.render.me_card import me_post
from bot.render.notebook_post import notebook_post
from bot.render.reader import Reader

PicturePost = Callable[[Reader, dict[str, Any], str], tuple[str, bytes | None]]
PICTURES: Mapping[str, PicturePost] = MappingProxyType({"notebook": notebook_post, "me": me_post})


def picture_post(
    reader: Reader, name: str, args: dict[str, Any], caption: str
) -> tuple[str, bytes | None]:
    """The post's text and its picture (None: the text says it all)."""
    return PICTURES[name](reader, args, caption)
