"""A Telegram Mini App's `initData`, checked as Telegram's "Validating data received via the
Mini App" says: the data-check-string is every field but `hash`, sorted by key, `key=value`
joined by line feeds; the secret is HMAC-SHA256 of the bot's token keyed by "WebAppData";
`hash` must be the hex HMAC-SHA256 of the data-check-string under that secret. A fresh
`auth_date` and a `user` with an id are required too.

Errors say what is wrong, never the data or the token (neither may reach a log)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from urllib.parse import parse_qsl

MAX_AGE = 24 * 3600.0  # seconds a sign-in is good for (Telegram signs it when the app opens)
SKEW = 60.0  # seconds `auth_date` may lie ahead of our clock
MAX_LENGTH = 8192  # initData is a few hundred bytes; a header of more is not Telegram's
HEX_HASH = re.compile(r"[0-9a-f]{64}")


class InitDataError(ValueError):
    """initData that is missing, malformed, forged, expired or has no user."""


def secret_key(token: str) -> bytes:
    """The key initData is signed with: HMAC-SHA256 of the token, keyed by "WebAppData"."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: Mapping[str, str]) -> str:
    """Every field but `hash`, sorted by key, as `key=value` lines."""
    return "\n".join(f"{key}={value}" for key, value in sorted(fields.items()) if key != "hash")


def fields_of(init_data: str) -> dict[str, str]:
    """The fields of an initData query string, decoded (each key once)."""
    if not init_data or len(init_data) > MAX_LENGTH:
        raise InitDataError("initData is missing or too long")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InitDataError("initData is not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataError("initData repeats a field")
    return fields


def validate(
    init_data: str, token: str, *, now: float, max_age: float = MAX_AGE, skew: float = SKEW
) -> int:
    """The Telegram user id initData was signed for (`now`: Unix seconds); InitDataError
    when it is not Telegram's for this bot, is older than `max_age` or from the future."""
    fields = fields_of(init_data)
    given = fields.get("hash", "")
    if not HEX_HASH.fullmatch(given):
        raise InitDataError("initData has no hash")
    digest = hmac.new(secret_key(token), data_check_string(fields).encode(), hashlib.sha256)
    if not hmac.compare_digest(digest.hexdigest(), given):
        raise InitDataError("initData is not signed with this bot's token")
    signed = fields.get("auth_date", "")
    if not signed.isdigit():
        raise InitDataError("initData has no auth_date")
    if int(signed) > now + skew:
        raise InitDataError("initData is signed in the future")
    if now - int(signed) > max_age:
        raise InitDataError("initData has expired")
    return user_id_of(fields)


def user_id_of(fields: Mapping[str, str]) -> int:
    """The id of the `user` field's JSON object."""
    try:
        user = json.loads(fields.get("user", ""))
    except ValueError:
        raise InitDataError("initData has no user") from None
    user_id = user.get("id") if isinstance(user, dict) else None
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
        raise InitDataError("initData's user has no id")
    return user_id
