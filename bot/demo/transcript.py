"""What the demo prints: the group thread and every private chat on one screen, as it
happens. The bot's side is read from the fake Bot API's log of calls (each post, edit and
pop-up in the order the bot made them, its HTML made plain text as Telegram shows it); the
people's side is told by the demo as they act."""

from __future__ import annotations

import asyncio
import os
import shutil
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TextIO

from fakebot import ApiCall, FakeTelegram, format_text
from locales import t

INDENT = "    "
# Bot API calls that change what a person sees, and the parameter holding the text.
SHOWN = MappingProxyType(
    {
        "sendMessage": "text",
        "sendPhoto": "caption",
        "editMessageText": "text",
        "editMessageCaption": "caption",
    }
)


@dataclass
class Transcript:
    """Prints each message once, under a header naming its chat and sender; `pause` seconds
    after each (0: none)."""

    server: FakeTelegram
    language: str
    group_id: int
    out: TextIO
    pause: float = 0.0
    names: dict[int, str] = field(default_factory=dict)  # person id -> first name
    seen: int = 0  # calls of the server's log printed so far
    color: bool = False
    # (chat, message) -> the lines and buttons printed of it: an edit prints what changed
    printed: dict[tuple[int, int], tuple[list[str], list[str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        tty = bool(getattr(self.out, "isatty", lambda: False)())
        self.color = tty and "NO_COLOR" not in os.environ
        # On a terminal, lines as wide as it (and 110 at most); into a file or a pipe, whole.
        columns = shutil.get_terminal_size((100, 24)).columns
        self.width: int | None = max(40, min(columns, 110)) if tty else None

    # -- the people's side -------------------------------------------------------------------
    async def typed(self, person: int, chat: int, text: str) -> None:
        """A person's message, in the group or their private chat."""
        await self.flush()
        self._header(chat, self.names[person], text)
        await self._paused()

    async def pressed(self, person: int, chat: int, button: str) -> None:
        """A person's press on a button."""
        await self.flush()
        words = t(self.language, "demo.presses", name=self.names[person], button=f"[{button}]")
        self._write(f"{self._tag(chat)} {self._accent(words)}")
        await self._paused()

    def note(self, text: str) -> None:
        """A line of the demo's own (the cast, the end)."""
        self._write(self._bold(text) if text else "")

    # -- the bot's side ----------------------------------------------------------------------
    async def flush(self) -> None:
        """Every call the bot made since the last look that a person would see."""
        calls = self.server.calls
        while self.seen < len(calls):
            call = calls[self.seen]
            self.seen += 1
            if call.ok and self._show(call):
                await self._paused()

    def _show(self, call: ApiCall) -> bool:
        params = call.params
        if call.method == "answerCallbackQuery":
            text = params.get("text")
            if text:
                self._write(f"{INDENT}↳ {text}")
            return False
        key = SHOWN.get(call.method)
        chat = params.get("chat_id")
        if key is None or not isinstance(chat, int):
            return False
        lines = plain(str(params.get(key) or ""), params.get("parse_mode")).splitlines()
        if call.method == "sendPhoto":
            lines = ["🖼", *lines]
        labels = buttons(params.get("reply_markup"))
        bot = self.server.bot.first_name
        edited = call.method.startswith("edit")
        message = params.get("message_id") if edited else _sent_id(call.response)
        before = self.printed.get((chat, message)) if isinstance(message, int) else None
        if isinstance(message, int):
            self.printed[(chat, message)] = (lines, labels)
        if edited:
            bot = f"{bot} ✎ ({t(self.language, 'demo.edited')})"
        if before is not None:  # an edit of a message printed: only what changed
            lines = [line for line in lines if line.strip() and line not in before[0]]
            labels = labels if labels != before[1] else []
            if not lines and not labels:
                return False
        self._header(chat, bot, "")
        self._body(lines, labels)
        return True

    # -- layout ------------------------------------------------------------------------------
    def _tag(self, chat: int) -> str:
        if chat == self.group_id:
            return f"[{t(self.language, 'demo.group')}]"
        name = self.names.get(chat, str(chat))
        return f"[{t(self.language, 'demo.private', name=name)}]"

    def _header(self, chat: int, sender: str, text: str) -> None:
        line = f"{self._tag(chat)} {self._bold(sender)}:"
        self._write(f"{line} {text}" if text else line)

    def _body(self, lines: list[str], labels: list[str]) -> None:
        for line in lines:
            self._wrapped(line)
        if labels:
            self._wrapped("  ".join(f"[{label}]" for label in labels), self._accent)

    def _wrapped(self, line: str, style: Callable[[str], str] | None = None) -> None:
        """A line as wide as the terminal, its continuation indented further."""
        if not line.strip():
            self._write("")
            return
        if self.width is None:
            self._write(INDENT + (style(line) if style is not None else line))
            return
        pieces = textwrap.wrap(
            line,
            self.width,
            initial_indent=INDENT,
            subsequent_indent=INDENT + "  ",
            break_long_words=False,
            replace_whitespace=False,
        )
        for piece in pieces:
            self._write(style(piece) if style is not None else piece)

    def _bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.color else text

    def _accent(self, text: str) -> str:
        return f"\033[36m{text}\033[0m" if self.color else text

    def _write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    async def _paused(self) -> None:
        if self.pause > 0:
            await asyncio.sleep(self.pause)


def plain(text: str, parse_mode: object) -> str:
    """A message's text as Telegram shows it (the HTML's tags gone, entities decoded)."""
    return format_text(text, str(parse_mode) if parse_mode else None).text


def buttons(markup: Any) -> list[str]:
    """The texts of an inline keyboard's buttons, row after row."""
    if not isinstance(markup, dict):
        return []
    rows = markup.get("inline_keyboard") or []
    return [str(b.get("text", "")) for row in rows for b in row]


def _sent_id(response: dict[str, Any]) -> int | None:
    """The id of the message a send call made."""
    result = response.get("result")
    found = result.get("message_id") if isinstance(result, dict) else None
    return found if isinstance(found, int) else None
