"""A small JSON control API under ``/_fake/<op>`` to drive the world from another process
(`python -m fakebot` mounts it).

Every operation takes a JSON object (POST body, or the query string for GET) and answers JSON;
a mistake in the request answers HTTP 400 ``{"error": "..."}``.  Users, chats and messages
are referred to by id; messages come back as :meth:`FakeMessage.snapshot` dicts.
:class:`fakebot.client.FakeTelegramClient` wraps all of this.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from asyncio import FIRST_COMPLETED
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Any

from aiohttp import web

from .chats import FakeChat, FakeGroup
from .messages import FakeMessage
from .server import FakeTelegram
from .users import FakeUser

Op = Callable[[FakeTelegram, dict[str, Any]], Awaitable[Any]]


def add_control_routes(server: FakeTelegram) -> None:
    """Mount ``/_fake/{op}`` on the server's aiohttp app."""

    async def handle(request: web.Request) -> web.Response:
        name = request.match_info["op"]
        if name not in OPS:
            return web.json_response(
                {"error": f"unknown control op {name!r}", "ops": sorted(OPS)}, status=404
            )
        args: dict[str, Any] = dict(request.query)
        if request.can_read_body:
            args.update(await request.json())
        try:
            return web.json_response({"result": await OPS[name](server, args)})
        except (ValueError, KeyError, TypeError) as err:
            return web.json_response({"error": f"{type(err).__name__}: {err}"}, status=400)

    server.app.router.add_route("*", "/_fake/{op}", handle)


def _user(server: FakeTelegram, args: dict[str, Any], key: str = "user_id") -> FakeUser:
    user = server.world.users.get(int(args[key]))
    if user is None:
        raise ValueError(f"no user {args[key]}")
    return user


def _chat(server: FakeTelegram, args: dict[str, Any]) -> FakeChat:
    chat = server.chat(int(args["chat_id"]))
    if chat is None:
        raise ValueError(f"no chat {args['chat_id']}")
    return chat


def _group(server: FakeTelegram, args: dict[str, Any]) -> FakeGroup:
    chat = _chat(server, args)
    if not isinstance(chat, FakeGroup):
        raise ValueError(f"chat {chat.id} is not a group")
    return chat


def _message(chat: FakeChat, message_id: Any) -> FakeMessage:
    message = chat.message(int(message_id))
    if message is None:
        raise ValueError(f"no message {message_id} in chat {chat.id}")
    return message


def user_json(user: FakeUser) -> dict[str, Any]:
    """A user as the control API describes it."""
    return {**user.to_api(), "started": user.started, "blocked": user.blocked}


def group_json(group: FakeGroup) -> dict[str, Any]:
    """A group as the control API describes it."""
    return {
        "id": group.id,
        "type": group.type,
        "title": group.title,
        "forum": group.forum,
        "username": group.username,
    }


async def add_user(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    keys = ("username", "language_code", "last_name")
    return user_json(server.add_user(args["first_name"], **{k: args[k] for k in keys if k in args}))


async def add_group(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    admins, members = (
        [_user(server, {"id": i}, "id") for i in args.get(k, [])] for k in ("admins", "members")
    )
    owner = _user(server, args, "owner") if args.get("owner") else None
    flags: dict[str, Any] = {
        k: args[k] for k in ("forum", "username", "bot_admin", "announce", "basic") if k in args
    }
    group = server.add_group(args["title"], owner=owner, admins=admins, members=members, **flags)
    return group_json(group)


async def add_topic(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    creator = _user(server, args) if args.get("user_id") else None
    topic = _group(server, args).add_topic(args["name"], creator=creator)
    return {"thread_id": topic.thread_id, "name": topic.name, "chat_id": topic.chat.id}


async def close_topic(server: FakeTelegram, args: dict[str, Any]) -> bool:
    _group(server, args).topics[int(args["thread_id"])].closed = bool(args.get("closed", True))
    return True


async def add_member(server: FakeTelegram, args: dict[str, Any]) -> bool:
    group = _group(server, args)
    group.add_member(
        _user(server, args),
        status=args.get("status", "member"),
        announce=args.get("announce", True),
    )
    return True


async def remove_member(server: FakeTelegram, args: dict[str, Any]) -> bool:
    _group(server, args).remove_member(_user(server, args), announce=args.get("announce", True))
    return True


async def remove_bot(server: FakeTelegram, args: dict[str, Any]) -> bool:
    by = _user(server, args) if args.get("user_id") else None
    _group(server, args).remove_bot(by=by)
    return True


async def add_bot(server: FakeTelegram, args: dict[str, Any]) -> bool:
    by = _user(server, args) if args.get("user_id") else None
    _group(server, args).add_bot(by=by, admin=bool(args.get("admin", False)))
    return True


async def migrate_group(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    """Upgrade a basic group to a supergroup; answers the new chat."""
    by = _user(server, args) if args.get("user_id") else None
    return group_json(_group(server, args).migrate(by=by))


async def send(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    chat = _chat(server, args)
    reply_to = _message(chat, args["reply_to"]) if args.get("reply_to") else None
    topic = int(args["thread_id"]) if args.get("thread_id") else None
    return _user(server, args).send(chat, args["text"], topic=topic, reply_to=reply_to).snapshot()


async def send_private(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    user = _user(server, args)
    reply_to = _message(user.private_chat, args["reply_to"]) if args.get("reply_to") else None
    return user.send_private(args["text"], reply_to=reply_to).snapshot()


async def start_bot(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    return _user(server, args).start_bot(args.get("payload")).snapshot()


async def block_bot(server: FakeTelegram, args: dict[str, Any]) -> bool:
    _user(server, args).block_bot()
    return True


async def unblock_bot(server: FakeTelegram, args: dict[str, Any]) -> bool:
    _user(server, args).unblock_bot()
    return True


async def edit(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    message = _message(_chat(server, args), args["message_id"])
    return _user(server, args).edit(message, args["text"]).snapshot()


async def press(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    message = _message(_chat(server, args), args["message_id"])
    answer = await _user(server, args).press(
        message,
        args.get("text"),
        callback_data=args.get("callback_data"),
        timeout=float(args.get("timeout", 5.0)),
    )
    return dataclasses.asdict(answer)


async def messages(server: FakeTelegram, args: dict[str, Any]) -> list[dict[str, Any]]:
    topic = int(args["thread_id"]) if args.get("thread_id") else None
    return [m.snapshot() for m in _chat(server, args).messages(topic=topic)]


async def private_messages(server: FakeTelegram, args: dict[str, Any]) -> list[dict[str, Any]]:
    return [m.snapshot() for m in _user(server, args).private_messages()]


async def user(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    return user_json(_user(server, args))


async def calls(server: FakeTelegram, args: dict[str, Any]) -> list[dict[str, Any]]:
    method = args.get("method")
    since = float(args.get("since", 0))
    chosen = server.calls_to(method) if method else server.calls
    return [c.to_json() for c in chosen if c.at > since]


async def send_rate(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    """The most posts and edits in any ``window`` seconds (default 1) since ``since``."""
    most, start = server.send_rate(float(args.get("window", 1.0)), float(args.get("since", 0)))
    return {"most": most, "window_start": start}


async def wait_call(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    """The first successful call of ``method`` (default sendMessage) logged after ``after``
    (epoch seconds), for ``chat_id`` if given, whose ``text`` matches the regex ``pattern``
    if given; waits up to ``timeout`` seconds without polling (woken by each new call)."""
    method = str(args.get("method", "sendMessage")).lower()
    chat = int(args["chat_id"]) if args.get("chat_id") is not None else None
    pattern = re.compile(args["pattern"]) if args.get("pattern") else None
    after = float(args.get("after", 0))
    deadline = time.monotonic() + float(args.get("timeout", 5.0))
    calls = server.calls
    seen = len(calls)
    while seen > 0 and calls[seen - 1].at > after:
        seen -= 1
    while True:
        for call in calls[seen:]:
            if call.ok and call.method.lower() == method and call.at > after:
                if chat is not None and call.params.get("chat_id") != chat:
                    continue
                if pattern and not pattern.search(str(call.params.get("text", ""))):
                    continue
                return call.to_json()
        seen = len(calls)
        left = deadline - time.monotonic()
        if left <= 0:
            raise ValueError(f"no {method} call matching {args} within the time-out")
        change: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        server.call_waiters.setdefault(chat, set()).add(change)
        try:
            await asyncio.wait([change], timeout=left)
        finally:
            change.cancel()
            server.call_waiters.get(chat, set()).discard(change)


async def wait_change(server: FakeTelegram, args: dict[str, Any]) -> int:
    """The count of Bot API calls so far, once one concerning a chat of ``chats`` (any chat
    if none given) has come since the count ``since``, or ``timeout`` seconds have passed; at
    once without ``since``. A client waits here for the bot instead of polling."""
    keys: list[int | None] = [int(c) for c in args.get("chats") or ()] or [None]
    since = args.get("since")
    deadline = time.monotonic() + float(args.get("timeout", 5.0))
    loop = asyncio.get_running_loop()
    while since is not None and max(server.changed_at.get(k, 0) for k in keys) <= int(since):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        changes = {key: loop.create_future() for key in keys}
        for key, change in changes.items():
            server.call_waiters.setdefault(key, set()).add(change)
        try:
            await asyncio.wait(changes.values(), timeout=left, return_when=FIRST_COMPLETED)
        finally:
            for key, change in changes.items():
                change.cancel()
                server.call_waiters.get(key, set()).discard(change)
    return server.changes


async def updates(server: FakeTelegram, args: dict[str, Any]) -> list[dict[str, Any]]:
    return server.updates


async def commands(server: FakeTelegram, args: dict[str, Any]) -> list[dict[str, Any]]:
    return server.commands(args.get("scope"), args.get("language_code", ""))


async def fail_next(server: FakeTelegram, args: dict[str, Any]) -> bool:
    keys = ("retry_after", "times", "description", "chat_id")
    server.fail_next(
        args["method"], int(args.get("error_code", 429)), **{k: args[k] for k in keys if k in args}
    )
    return True


async def delay_next(server: FakeTelegram, args: dict[str, Any]) -> bool:
    keys = ("times", "chat_id", "skip")
    server.delay_next(
        args["method"], float(args["seconds"]), **{k: args[k] for k in keys if k in args}
    )
    return True


async def health(server: FakeTelegram, args: dict[str, Any]) -> dict[str, Any]:
    return {"port": server.port, "base_url": server.base_url, "bot": server.bot.to_api()}


async def webhook_deliveries(server: FakeTelegram, args: dict[str, Any]) -> list[dict[str, Any]]:
    """Every POST of an update to the webhook: update id, HTTP status or error."""
    return [
        {"update_id": d.update_id, "status": d.status, "error": d.error, "at": d.at}
        for d in server.webhook.deliveries
    ]


# Every control operation, by its function's name.
OPS: Mapping[str, Op] = MappingProxyType(
    {
        op.__name__: op
        for op in (
            add_user,
            add_group,
            add_topic,
            close_topic,
            add_member,
            remove_member,
            remove_bot,
            add_bot,
            migrate_group,
            send,
            send_private,
            start_bot,
            block_bot,
            unblock_bot,
            edit,
            press,
            messages,
            private_messages,
            user,
            calls,
            send_rate,
            wait_call,
            wait_change,
            updates,
            commands,
            fail_next,
            delay_next,
            health,
            webhook_deliveries,
        )
    }
)
