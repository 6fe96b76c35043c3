"""Signing a Telegram Mini App's initData as Telegram does, for tests (the bot only checks
it: bot.web.init_data). Written out here on its own, so a mistake in the checker is not
repeated by the signer."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any
from urllib.parse import quote, urlencode


def sign_init_data(
    token: str, user: dict[str, Any] | None, *, auth_date: int, **fields: str
) -> str:
    """initData for `user` (None: none), signed with the bot's token at `auth_date`."""
    values = {"auth_date": str(auth_date), "query_id": "AAHdF6IQAAAAAN0XohDhrOrc", **fields}
    if user is not None:
        values["user"] = json.dumps(user, separators=(",", ":"), ensure_ascii=False)
    check = "\n".join(f"{key}={values[key]}" for key in sorted(values))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    values["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(values, quote_via=quote)


def person(user_id: int, name: str = "Alice", language: str = "en") -> dict[str, Any]:
    """The `user` object Telegram puts in initData."""
    return {
        "id": user_id,
        "first_name": name,
        "language_code": language,
        "allows_write_to_pm": True,
    }
