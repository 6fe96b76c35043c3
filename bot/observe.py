"""One record per handled update: a log line and the update metrics.

The update processor (`bot/updates.py`) opens a `Handling` around each update; handlers
mark on it, through a context variable, what they learn (the game, a refusal's code, a
failure) without passing it around. When the update is done, one INFO line says what
happened: update id, game id, command, outcome (`ok`, `refused:<code>`, `error`) and the
duration in ms. The command is only its name (`/suggest`, `button:a`): never its text,
which may name cards.

The context variable is for this record only (logging and metrics, as a log's correlation
id is): nothing reads it to decide what to do. What the flood guard decides about an
update travels on its context (`context.flags`, `UpdateFlags` in bot/updates.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType

from telegram import Update
from telegram.constants import MessageEntityType

from bot import metrics

log = logging.getLogger("whodunit.updates")

KINDS = ("message", "edited_message", "callback_query", "my_chat_member", "chat_member")
# Answers that refuse: their key names the refusal's code.
REFUSING_PREFIXES = ("error.", "invalid.", "pack.invalid_", "flood.")
REFUSING_TOASTS: Mapping[str, str] = MappingProxyType(
    {"toast.not_yours": "not_yours", "toast.stale": "stale"}
)


@dataclass
class Handling:
    """What is known about the update being handled."""

    update_id: int | None
    kind: str
    command: str
    started: float = field(default_factory=time.perf_counter)
    game_id: int | None = None
    outcome: str = "ok"

    def refused(self, code: str) -> None:
        if self.outcome == "ok":  # the first refusal is the reason
            self.outcome = f"refused:{code}"

    def failed(self) -> None:
        self.outcome = "error"


_current: ContextVar[Handling | None] = ContextVar("whodunit_handling", default=None)


def note_game(game_id: int) -> None:
    """The update concerns this game."""
    handling = _current.get()
    if handling is not None and handling.game_id is None:
        handling.game_id = game_id


def note_refusal(code: str) -> None:
    """The update was refused with this code (a rule error's, or flood, not_yours ...)."""
    handling = _current.get()
    if handling is not None:
        handling.refused(code)


def note_answer(key: str) -> None:
    """An answer was given with this catalog key: a refusing key marks a refusal."""
    code = refusal_code(key)
    if code is not None:
        note_refusal(code)


def note_failure() -> None:
    handling = _current.get()
    if handling is not None:
        handling.failed()


def refusal_code(key: str) -> str | None:
    """The refusal's code of an answer's catalog key, or None for an answer that is not one."""
    if key in REFUSING_TOASTS:
        return REFUSING_TOASTS[key]
    for prefix in REFUSING_PREFIXES:
        if key.startswith(prefix):
            rest = key.removeprefix(prefix)
            return "flood" if prefix == "flood." else rest
    return None


class Observer:
    """Opens and closes the record of each update; knows the command names to report."""

    def __init__(self, commands: Iterable[str] = ()) -> None:
        self.commands = frozenset(c.lower() for c in commands)

    def begin(self, update: object) -> Handling:
        kind, command = self.describe(update)
        update_id = update.update_id if isinstance(update, Update) else None
        handling = Handling(update_id, kind, command)
        _current.set(handling)
        return handling

    def end(self, handling: Handling) -> None:
        """Log the line and move the metrics."""
        seconds = time.perf_counter() - handling.started
        outcome = handling.outcome
        short = outcome.partition(":")[0]
        metrics.UPDATES_HANDLED.labels(kind=handling.kind, outcome=short).inc()
        if short == "refused":
            metrics.UPDATES_REFUSED.labels(reason=metrics.refusal_reason(outcome[8:])).inc()
        metrics.COMMAND_SECONDS.labels(command=handling.command).observe(seconds)
        duration_ms = round(seconds * 1000, 1)
        game = handling.game_id if handling.game_id is not None else "-"
        log.info(
            "update %s game %s command %s outcome %s %.1f ms",
            handling.update_id,
            game,
            handling.command,
            outcome,
            duration_ms,
            extra={
                "update_id": handling.update_id,
                "game_id": handling.game_id,
                "command": handling.command,
                "outcome": outcome,
                "duration_ms": duration_ms,
            },
        )
        if _current.get() is handling:
            _current.set(None)

    def describe(self, update: object) -> tuple[str, str]:
        """(kind, command) of an update; the command is a known name, never free text."""
        if not isinstance(update, Update):
            return "other", "other"
        kind = next((k for k in KINDS if getattr(update, k, None) is not None), "other")
        query = update.callback_query
        if query is not None:
            prefix = (query.data or "").partition(":")[0]
            return kind, f"button:{prefix}" if prefix.isalnum() and len(prefix) <= 4 else "button"
        message = update.message or update.edited_message
        if message is not None and message.text and message.entities:
            first = message.entities[0]
            if first.type == MessageEntityType.BOT_COMMAND and first.offset == 0:
                name = message.text[1 : first.length].partition("@")[0].lower()
                return kind, f"/{name}" if name in self.commands else "/unknown"
        return kind, kind
