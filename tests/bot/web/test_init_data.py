"""initData of a Telegram Mini App: accepted only as Telegram signs it for this bot, fresh,
with a user; what a refusal says gives away neither the data nor the token."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import parse_qsl, quote, urlencode

import pytest

from bot.web.init_data import MAX_AGE, SKEW, InitDataError, data_check_string, validate
from tests.support.init_data import person, sign_init_data

TOKEN = "123456:ABC-def_GHI"
NOW = 1_790_000_000


def _signed(user_id: int = 42, *, at: int = NOW, token: str = TOKEN, **fields: str) -> str:
    return sign_init_data(token, person(user_id), auth_date=at, **fields)


def _refused(init_data: str, match: str, **kw: float) -> InitDataError:
    with pytest.raises(InitDataError, match=match) as refused:
        validate(init_data, TOKEN, now=NOW, **kw)
    said = str(refused.value)
    assert TOKEN not in said and (not init_data or init_data not in said)
    return refused.value


def test_valid_init_data_gives_its_user() -> None:
    assert validate(_signed(42), TOKEN, now=NOW) == 42
    assert validate(_signed(7, chat_type="sender"), TOKEN, now=NOW + 60) == 7


def test_the_hash_is_telegrams_algorithm() -> None:
    """Worked out here by hand: every field but hash, sorted, `key=value` by line feeds;
    the secret HMAC-SHA256(key="WebAppData", msg=token)."""
    fields = {"auth_date": str(NOW), "user": '{"id":5,"first_name":"Ann Lee"}', "query_id": "Q"}
    check = f"auth_date={NOW}\nquery_id=Q\nuser=" + '{"id":5,"first_name":"Ann Lee"}'
    assert data_check_string({**fields, "hash": "x"}) == check
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    assert validate(urlencode({**fields, "hash": digest}), TOKEN, now=NOW) == 5


def test_a_wrong_hash_is_refused() -> None:
    fields = dict(parse_qsl(_signed(42)))
    fields["user"] = fields["user"].replace("42", "43")  # another person, the same hash
    _refused(urlencode(fields, quote_via=quote), "not signed")
    fields = dict(parse_qsl(_signed(42)))
    fields["hash"] = "0" * 64
    _refused(urlencode(fields), "not signed")


def test_data_signed_with_another_token_is_refused() -> None:
    _refused(_signed(42, token="123456:another-bot"), "not signed")


def test_expired_data_is_refused() -> None:
    assert validate(_signed(at=NOW - int(MAX_AGE)), TOKEN, now=NOW) == 42
    _refused(_signed(at=NOW - int(MAX_AGE) - 1), "expired")
    _refused(_signed(at=NOW - 3601), "expired", max_age=3600)


def test_data_from_the_future_is_refused() -> None:
    assert validate(_signed(at=NOW + int(SKEW)), TOKEN, now=NOW) == 42
    _refused(_signed(at=NOW + int(SKEW) + 1), "future")


def test_data_without_a_user_is_refused() -> None:
    _refused(sign_init_data(TOKEN, None, auth_date=NOW), "no user")
    _refused(sign_init_data(TOKEN, {"first_name": "Ann"}, auth_date=NOW), "no id")
    _refused(sign_init_data(TOKEN, {"id": "42"}, auth_date=NOW), "no id")


def test_the_order_of_the_fields_does_not_matter() -> None:
    pairs = parse_qsl(_signed(42, start_param="x"))
    for order in (pairs[::-1], sorted(pairs), pairs[1:] + pairs[:1]):
        assert validate(urlencode(order, quote_via=quote), TOKEN, now=NOW) == 42


@pytest.mark.parametrize(
    ("init_data", "match"),
    [
        ("", "missing"),
        ("x" * 9000, "too long"),
        ("no equals sign", "not a query string"),
        ("auth_date=1&user=%7B%7D", "no hash"),
    ],
)
def test_malformed_data_is_refused(init_data: str, match: str) -> None:
    _refused(init_data, match)


def test_a_repeated_field_is_refused() -> None:
    _refused(_signed(42) + "&user=%7B%22id%22%3A1%7D", "repeats")


def test_a_signature_without_auth_date_is_refused() -> None:
    fields = dict(parse_qsl(_signed(42)))
    del fields["auth_date"], fields["hash"]
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    _refused(urlencode({**fields, "hash": digest}), "no auth_date")
