"""`whodunit doctor`: is this bot set up to run? One line per check, with what to fix.

Checks the token (getMe), the clock (against the Date header of the Bot API's answer),
the webhook or polling state (getWebhookInfo), the database and its migrations, and the
bot's rights in every chat with a game not ended (getChatMember of the bot, read by
bot/rights.py as the group's own notice reads it; a game whose index could not be pinned
is named there). It talks to the Bot API with its own small HTTP client, so it sees
status codes and headers as they are. Exit code 0 when nothing failed (warnings
allowed), 1 otherwise.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from enum import Enum
from pathlib import Path
from types import MappingProxyType
from typing import Any, TextIO

import httpx
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import select
from sqlalchemy.engine import Connection, make_url

from bot.config import BotConfig, TokenError
from bot.rights import Lack, lacking
from storage.config import DEFAULT_URL, ENV_VAR
from storage.database import Database
from storage.migrate import alembic_config
from storage.models import ChatNameRecord, GameRecord, IndexPinRecord

CLOCK_SKEW = 30.0  # seconds between our clock and Telegram's before a warning
PENDING_WARN = 100  # updates waiting at Telegram before a warning
RECENT_ERROR = timedelta(hours=1)  # a webhook error this recent is a failure
MAX_CHATS = 500  # chats whose rights are checked (the oldest games first)
REMOVED_FIX = "add the bot back to the group as an admin, or end its games (/endgame)"
TIMEOUT = 10.0


class Level(Enum):
    OK = "OK"
    WARN = "WARN"
    FAIL = "FAIL"


# What the doctor says of each lack (bot/rights.py): what it means, and what to do.
SAID = MappingProxyType(
    {
        Lack.REMOVED: ("the bot was removed", REMOVED_FIX),
        Lack.MUTED: (
            "the bot cannot post",
            "lift the restriction: the bot must be allowed to send messages",
        ),
        Lack.NOT_ADMIN: (
            "not an admin",
            "make the bot an admin of the group: it then sees every command and member change",
        ),
        Lack.NO_DELETE: ("cannot delete messages", "give the bot the right to delete messages"),
        Lack.NO_PIN: (
            "cannot pin the game's index",
            "give the bot the right to pin messages: a game's index is pinned when it starts",
        ),
    }
)
WARNINGS = (Lack.NO_DELETE, Lack.NO_PIN)  # an admin still runs the game without them


@dataclass(frozen=True)
class Check:
    """One line of the report: what was checked, how it went, what to do about it."""

    name: str
    level: Level
    detail: str
    fix: str = ""


class ApiFailure(Exception):
    """The Bot API answered with an error (or could not be reached)."""

    def __init__(self, status: int | None, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


class BotApi:
    """Bot API calls as they are: the result, or ApiFailure with Telegram's status."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        base_url: str,
        token: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.http = http
        self.clock = clock
        self.url = f"{base_url}{token}/"
        self.token = token
        self.date: datetime | None = None  # the Date header of the last answer
        self.midpoint = 0.0  # local Unix time halfway through the last request

    async def call(self, method: str, **params: Any) -> Any:
        before = self.clock()
        try:
            answer = await self.http.post(self.url + method, json=params)
        except httpx.HTTPError as error:
            text = str(error).replace(self.token, "[hidden]") or type(error).__name__
            raise ApiFailure(None, f"cannot reach the Bot API: {text}") from None
        self.midpoint = (before + self.clock()) / 2
        header = answer.headers.get("date")
        self.date = parsedate_to_datetime(header) if header else None
        try:
            body = answer.json()
        except ValueError:
            raise ApiFailure(answer.status_code, f"HTTP {answer.status_code}") from None
        if not body.get("ok"):
            raise ApiFailure(answer.status_code, str(body.get("description", "")))
        return body["result"]


async def diagnose(config: BotConfig, clock: Callable[[], float] = time.time) -> list[Check]:
    """Every check, in the report's order (`clock`: this machine's Unix time)."""
    checks: list[Check] = []
    try:
        token = config.require_token()
    except TokenError as error:
        checks.append(Check("token", Level.FAIL, "not usable", str(error)))
        token = ""
    me: dict[str, Any] | None = None
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        api = BotApi(http, config.api_base_url, token, clock)
        if token:
            me = await _token(api, checks)
        if me is not None:
            checks.append(_clock(api))
            checks.append(await _webhook(api, config))
        games = await _database(config, checks)
        if me is not None and games is not None:
            checks.extend(await _chats(api, me["id"], games))
    return checks


async def _token(api: BotApi, checks: list[Check]) -> dict[str, Any] | None:
    try:
        me: dict[str, Any] = await api.call("getMe")
    except ApiFailure as error:
        if error.status in (401, 404):
            fix = "the token is wrong or revoked: get the current one from @BotFather (/token)"
        else:
            fix = "check WHODUNIT_TELEGRAM_API_URL and the network (proxy, firewall, DNS)"
        checks.append(Check("token", Level.FAIL, f"getMe failed: {error.description}", fix))
        return None
    checks.append(Check("token", Level.OK, f"@{me.get('username')} (id {me['id']})"))
    return me


def _clock(api: BotApi) -> Check:
    if api.date is None:
        return Check("clock", Level.WARN, "the Bot API sent no Date header to compare with")
    skew = api.midpoint - api.date.timestamp()
    detail = f"{abs(skew):.0f} s {'ahead of' if skew > 0 else 'behind'} the Bot API's clock"
    if abs(skew) > CLOCK_SKEW:
        fix = "synchronise the clock (NTP: systemd-timesyncd, chrony); deadlines use it"
        return Check("clock", Level.WARN, detail, fix)
    return Check("clock", Level.OK, detail)


async def _webhook(api: BotApi, config: BotConfig) -> Check:
    try:
        info: dict[str, Any] = await api.call("getWebhookInfo")
    except ApiFailure as error:
        return Check("webhook", Level.FAIL, f"getWebhookInfo failed: {error.description}")
    wanted = str(getattr(config, "webhook_url", None) or "")  # set in webhook mode
    url = str(info.get("url") or "")
    pending = int(info.get("pending_update_count") or 0)
    mode = f"webhook {url}" if url else "polling (no webhook set)"
    detail = f"{mode}, {pending} updates waiting"
    if wanted and url != wanted:
        fix = f"start the bot (`whodunit run`): it registers {wanted}"
        return Check("webhook", Level.FAIL, f"{detail}; configured: webhook {wanted}", fix)
    if not wanted and url:
        fix = "polling cannot work while a webhook is set: `whodunit run` removes it at start"
        return Check("webhook", Level.FAIL, f"{detail}; configured: polling", fix)
    if info.get("last_error_date"):
        when = datetime.fromtimestamp(int(info["last_error_date"]), UTC)
        message = info.get("last_error_message") or "no message"
        text = f"{detail}; last delivery error at {when:%Y-%m-%d %H:%M:%S} UTC: {message}"
        fix = "check the reverse proxy, the TLS certificate and that the workers are up"
        recent = datetime.now(UTC) - when < RECENT_ERROR
        return Check("webhook", Level.FAIL if recent else Level.WARN, text, fix)
    if pending > PENDING_WARN:
        return Check("webhook", Level.WARN, detail, "is the bot running? it is falling behind")
    return Check("webhook", Level.OK, detail)


@dataclass(frozen=True)
class OpenGame:
    id: int
    chat_id: int
    status: str
    title: str | None
    unpinned: str | None = None  # Telegram's refusal to pin the game's index


async def _database(config: BotConfig, checks: list[Check]) -> list[OpenGame] | None:
    """Reachable and migrated: then the games not ended (None when the check failed)."""
    url = config.database_url or DEFAULT_URL
    try:
        parsed = make_url(url)
    except Exception:
        checks.append(Check("database", Level.FAIL, "the URL cannot be parsed", f"fix {ENV_VAR}"))
        return None
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite":
        path = Path(parsed.database or "").expanduser()
        if not path.is_file():
            fix = "start the bot once or run `whodunit db upgrade` (or fix WHODUNIT_DATABASE_URL)"
            checks.append(Check("database", Level.FAIL, f"no database file at {path}", fix))
            return None
    try:
        current, heads, games = await asyncio.wait_for(_read_database(url), TIMEOUT)
    except Exception as error:
        text = f"{shown} unreachable: {type(error).__name__}: {str(error)[:200]}"
        fix = "start the database server, or fix WHODUNIT_DATABASE_URL (host, port, password)"
        checks.append(Check("database", Level.FAIL, text, fix))
        return None
    if current not in heads:
        detail = f"{shown} at migration {current}, the code expects {', '.join(heads)}"
        checks.append(Check("database", Level.FAIL, detail, "run `whodunit db upgrade`"))
        return None
    detail = f"{shown} reachable, migrations current ({current}), {len(games)} open games"
    checks.append(Check("database", Level.OK, detail))
    return games


async def _read_database(url: str) -> tuple[str | None, tuple[str, ...], list[OpenGame]]:
    heads = tuple(ScriptDirectory.from_config(alembic_config()).get_heads())
    db = Database(url)
    try:
        current = await db.run_read(_revision)
        games = await db.run_read(_open_games) if current in heads else []
    finally:
        await db.dispose()
    return current, heads, games


def _revision(conn: Connection) -> str | None:
    """The database's migration (None before the first)."""
    return MigrationContext.configure(conn).get_current_revision()


def _open_games(conn: Connection) -> list[OpenGame]:
    g, n, p = GameRecord, ChatNameRecord, IndexPinRecord
    named = n.chat_id == g.chat_id, n.topic_id == 0
    query = (
        select(g.id, g.chat_id, g.status, n.name, p.refusal)
        .outerjoin(n, named[0] & named[1])
        .outerjoin(p, p.game_id == g.id)
        .where(g.status != "ended")
        .order_by(g.id)
    )
    return [OpenGame(r.id, r.chat_id, r.status, r.name, r.refusal) for r in conn.execute(query)]


async def _chats(api: BotApi, bot_id: int, games: list[OpenGame]) -> list[Check]:
    """The bot's rights in each chat with an open game (a few requests at a time)."""
    by_chat: dict[int, list[OpenGame]] = {}
    for game in games:
        by_chat.setdefault(game.chat_id, []).append(game)
    chats = list(by_chat.items())[:MAX_CHATS]
    gate = asyncio.Semaphore(4)

    async def one(chat_id: int, its: list[OpenGame]) -> Check:
        async with gate:
            return await _chat_rights(api, bot_id, chat_id, its)

    checks = list(await asyncio.gather(*(one(c, g) for c, g in chats)))
    if not chats:
        checks.append(Check("chats", Level.OK, "no open games: no chat to check"))
    elif len(by_chat) > MAX_CHATS:
        detail = f"only the first {MAX_CHATS} of {len(by_chat)} chats were checked"
        checks.append(Check("chats", Level.WARN, detail))
    return checks


async def _chat_rights(api: BotApi, bot_id: int, chat_id: int, games: list[OpenGame]) -> Check:
    title = next((g.title for g in games if g.title), None)
    ids = ", ".join(f"{g.id} ({g.status})" for g in games)
    name = f"chat {chat_id}"
    where = f"{title!r}, games {ids}" if title else f"games {ids}"
    try:
        member: dict[str, Any] = await api.call("getChatMember", chat_id=chat_id, user_id=bot_id)
    except ApiFailure as error:
        fix = REMOVED_FIX
        if error.status is None or error.status >= 500:
            fix = "try again later"
        return Check(name, Level.FAIL, f"{where}: {error.description}", fix)
    status = member.get("status")
    lacks = lacking(member)
    unpinned = _unpinned(games)
    if lacks and lacks[0] not in WARNINGS:
        what, fix = SAID[lacks[0]]
        if lacks[0] is Lack.REMOVED:
            what = f"{what} ({status})"
        elif lacks[0] is Lack.NOT_ADMIN:
            what = f"the bot is {status}, {what}{unpinned}"
        return Check(name, Level.FAIL, f"{where}: {what}", fix)
    said = [SAID[lack] for lack in lacks]
    if unpinned and member.get("can_pin_messages", False):  # the right was given since
        said.append(("an index is not pinned", "pin it by hand: the bot pins only at the start"))
    if said:
        detail = f"{where}: admin, {'; '.join(what for what, _ in said)}{unpinned}"
        return Check(name, Level.WARN, detail, "; ".join(fix for _, fix in said))
    return Check(name, Level.OK, f"{where}: admin, can post, delete and pin messages")


def _unpinned(games: list[OpenGame]) -> str:
    """The games of a chat whose index could not be pinned, and Telegram's word (or "")."""
    refused = [g for g in games if g.unpinned]
    if not refused:
        return ""
    ids = ", ".join(str(g.id) for g in refused)
    return f" (the index of game {ids} could not be pinned: {refused[-1].unpinned})"


def report(checks: list[Check], out: TextIO) -> int:
    """Print the report; the exit code (1 when any check failed)."""
    width = max((len(c.name) for c in checks), default=0)
    for check in checks:
        print(f"{check.level.value:<4}  {check.name:<{width}}  {check.detail}", file=out)
        if check.fix and check.level is not Level.OK:
            print(f"{'':<4}  {'':<{width}}  fix: {check.fix}", file=out)
    failed = sum(c.level is Level.FAIL for c in checks)
    warned = sum(c.level is Level.WARN for c in checks)
    print(f"{failed} failed, {warned} warnings, {len(checks)} checks", file=out)
    return 1 if failed else 0


async def doctor(
    config: BotConfig, out: TextIO | None = None, clock: Callable[[], float] = time.time
) -> int:
    """Run every check and print the report."""
    return report(await diagnose(config, clock), out or sys.stdout)
