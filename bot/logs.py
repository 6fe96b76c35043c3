"""Logs without secrets: no bot token and no message body at any level.

python-telegram-bot logs its base URL (which holds the token) and, at DEBUG, the parameters
and results of every Bot API call and every update it processes; httpx logs each request's
URL. Message bodies carry hands and shown cards, so a record's arguments that are Bot API
parameters, results or Telegram objects are replaced by a short description (parameter
names, an update's id), and the token's secret is cut out of the final text, tracebacks
included. The filter sits on the root logger's handlers, so it sees every record.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from telegram import TelegramObject, Update

HIDDEN = "[hidden]"
_FORMATTER = logging.Formatter()


class SecretsFilter(logging.Filter):
    """Removes the token's secret and message bodies from every record it sees."""

    def __init__(self, token: str | None) -> None:
        super().__init__()
        secret = (token or "").partition(":")[2]
        self.secrets = [s for s in (token, secret) if s]

    def filter(self, record: logging.LogRecord) -> bool:
        args: tuple[Any, ...] | dict[str, Any] | None = None
        if isinstance(record.args, Mapping):
            args = {key: described(value) for key, value in record.args.items()}
        elif record.args:
            args = tuple(described(value) for value in record.args)
        msg = record.msg if isinstance(record.msg, str) else described(record.msg)
        try:
            text = msg % args if args else str(msg)
        except (TypeError, ValueError, KeyError):
            text = f"{msg} {args}"
        record.msg, record.args = self.scrub(text), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = _FORMATTER.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self.scrub(record.stack_info)
        return True

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, HIDDEN)
        return text


def described(value: Any) -> Any:
    """A log argument without message bodies: names of parameters, ids of updates."""
    if isinstance(value, Update):
        kind = next((k for k in _UPDATE_KINDS if getattr(value, k, None) is not None), "other")
        return f"<update {value.update_id}: {kind}>"
    if isinstance(value, TelegramObject):
        return f"<{type(value).__name__}>"
    if isinstance(value, Mapping):
        return "{" + ", ".join(str(key) for key in value) + "}"  # names only
    if isinstance(value, (list, tuple)) and any(
        isinstance(v, (Mapping, TelegramObject)) for v in value
    ):
        return f"<{len(value)} items>"
    return value


_UPDATE_KINDS = (
    "message",
    "edited_message",
    "callback_query",
    "my_chat_member",
    "chat_member",
    "channel_post",
)


# What `bot/observe.py` puts on its update line, kept as fields of their own in JSON.
FIELDS = ("update_id", "game_id", "command", "outcome", "duration_ms")


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the update line's fields,
    and the traceback when there is one (scrubbed by the filter before this runs)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            if hasattr(record, name):
                entry[name] = getattr(record, name)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


JsonFormatter.converter = time.gmtime  # UTC, as the "Z" says


def use_json(handlers: Iterable[logging.Handler] | None = None) -> None:
    """Format every root handler (or `handlers`) as JSON lines."""
    for handler in logging.getLogger().handlers if handlers is None else handlers:
        handler.setFormatter(JsonFormatter())


def install(token: str | None, handlers: Iterable[logging.Handler] | None = None) -> SecretsFilter:
    """Put the filter on every root handler (or on `handlers`)."""
    secrets = SecretsFilter(token)
    for handler in logging.getLogger().handlers if handlers is None else handlers:
        handler.addFilter(secrets)
    return secrets
