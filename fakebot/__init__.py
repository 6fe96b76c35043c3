"""A fake Telegram Bot API server for end-to-end tests of the bot (see ``server.py``).

In-process::

    async with FakeTelegram(token="123:ABC") as server:
        app = Application.builder().token("123:ABC").base_url(server.base_url).build()
        alice = server.add_user("Alice", username="alice")
        group = server.add_group("Cluedo club", admins=[alice])
        alice.send(group, "/newgame")

In another process: ``python -m fakebot --port 0 --port-file F`` and
:class:`FakeTelegramClient`.

Its own tests are in ``tests/fakebot/``.
"""

from .chats import FakeChat, FakeGroup, FakeTopic
from .client import FakeTelegramClient
from .messages import CallbackAnswer, FakeMessage, MessageVersion
from .remote import RemoteGroup, RemoteMessage, RemoteTopic, RemoteUser
from .server import ApiCall, FakeTelegram
from .spec import ApiError, Spec, load_spec
from .text import Formatted, format_text
from .users import FakePrivateChat, FakeUser
from .world import World

__all__ = [
    "ApiCall",
    "ApiError",
    "CallbackAnswer",
    "FakeChat",
    "FakeGroup",
    "FakeMessage",
    "FakePrivateChat",
    "FakeTelegram",
    "FakeTelegramClient",
    "FakeTopic",
    "FakeUser",
    "Formatted",
    "MessageVersion",
    "RemoteGroup",
    "RemoteMessage",
    "RemoteTopic",
    "RemoteUser",
    "Spec",
    "World",
    "format_text",
    "load_spec",
]
