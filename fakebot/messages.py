"""Messages of the simulated world and their Bot API representation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .text import entity_text

Buttons = list[list[tuple[str, str | None]]]

# The fake world's modules import one way: messages, chats, users, world.  A message names
# its chat and sender, a chat and a user their world, by what they ask of them (Protocols).


class Person(Protocol):
    """A Telegram user as messages, chats and updates see one (a ``FakeUser``, the bot too)."""

    @property
    def id(self) -> int: ...
    @property
    def first_name(self) -> str: ...
    @property
    def is_bot(self) -> bool: ...
    def to_api(self) -> dict[str, Any]:
        """The Bot API ``User`` object."""
        ...


class MessageChat(Protocol):
    """The chat a message is in, as the message sees it (a ``FakeChat``)."""

    @property
    def id(self) -> int: ...
    @property
    def type(self) -> str: ...
    def message(self, message_id: int) -> FakeMessage | None:
        """The (not deleted) message with this id."""
        ...

    def to_api(self) -> dict[str, Any]:
        """The Bot API ``Chat`` object."""
        ...


@dataclass(frozen=True)
class MessageVersion:
    """An earlier version of an edited message."""

    text: str
    html: str
    entities: list[dict[str, Any]]
    reply_markup: dict[str, Any] | None
    date: int


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a button press (``answered`` is False after a timeout)."""

    answered: bool
    text: str | None = None
    show_alert: bool = False
    url: str | None = None


@dataclass(eq=False)
class FakeMessage:
    """A message in a chat, sent by a user or by the bot; edits are applied in place."""

    chat: MessageChat
    message_id: int
    from_user: Person | None
    date: int
    text: str = ""
    html: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)
    reply_to: FakeMessage | None = None
    thread_id: int | None = None
    reply_markup: dict[str, Any] | None = None
    service: dict[str, Any] = field(default_factory=dict)
    quote: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    edits: list[MessageVersion] = field(default_factory=list)
    edit_date: int | None = None
    deleted: bool = False
    photo: list[dict[str, Any]] | None = None  # a photo's sizes; `text` is then its caption
    photo_bytes: bytes = b""  # what was uploaded (tests look at it)

    def __repr__(self) -> str:
        who = self.from_user.first_name if self.from_user else "-"
        return f"<FakeMessage {self.chat.id}/{self.message_id} {who}: {self.text[:40]!r}>"

    # -- what tests look at -----------------------------------------------------------------
    def spans(self, kind: str) -> list[str]:
        """Substrings covered by entities of ``kind`` (bold, italic, code, ...)."""
        return [entity_text(self.text, e) for e in self.entities if e["type"] == kind]

    @property
    def bold(self) -> list[str]:
        """The bold substrings, in order."""
        return self.spans("bold")

    @property
    def buttons(self) -> Buttons:
        """Inline keyboard rows as (text, callback_data, url or a Mini App's url)."""
        markup = self.reply_markup or {}
        return [
            [(b["text"], b.get("callback_data", b.get("url", _web_app_url(b)))) for b in row]
            for row in markup.get("inline_keyboard", [])
        ]

    @property
    def is_from_bot(self) -> bool:
        """True if the bot sent this message."""
        return self.from_user is not None and self.from_user.is_bot

    def find_button(
        self, text: str | None = None, callback_data: str | None = None
    ) -> dict[str, Any]:
        """The inline button with this text or callback_data (ValueError if there is none)."""
        for row in (self.reply_markup or {}).get("inline_keyboard", []):
            for button in row:
                if (text is None or button["text"] == text) and (
                    callback_data is None or button.get("callback_data") == callback_data
                ):
                    found: dict[str, Any] = button
                    return found
        raise ValueError(
            f"no button {text or callback_data!r} on {self!r}; buttons: {self.buttons}"
        )

    # -- changes ----------------------------------------------------------------------------
    def apply_edit(
        self,
        text: str,
        html: str,
        entities: list[dict[str, Any]],
        markup: dict[str, Any] | None,
        date: int,
    ) -> None:
        """Replace the content, keeping the previous version in ``edits``."""
        self.edits.append(
            MessageVersion(self.text, self.html, self.entities, self.reply_markup, date)
        )
        self.text, self.html, self.entities, self.reply_markup = text, html, entities, markup
        self.edit_date = date

    # -- Bot API ----------------------------------------------------------------------------
    def topic_root(self) -> FakeMessage | None:
        """The forum_topic_created message of this message's topic (Telegram's implicit reply)."""
        if self.thread_id is None or self.thread_id == self.message_id:
            return None
        return self.chat.message(self.thread_id)

    def to_api(self, nested: bool = False) -> dict[str, Any]:
        """The Bot API ``Message`` object."""
        data: dict[str, Any] = {"message_id": self.message_id}
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
        if self.from_user is not None:
            data["from"] = self.from_user.to_api()
        data["date"] = self.date
        data["chat"] = self.chat.to_api()
        if self.thread_id is not None and getattr(self.chat, "forum", False):
            data["is_topic_message"] = True
        reply = self.reply_to or self.topic_root()
        if reply is not None and not nested:
            data["reply_to_message"] = reply.to_api(nested=True)
        if self.quote is not None:
            data["quote"] = self.quote
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.options.get("protect_content"):
            data["has_protected_content"] = True
        if self.photo is not None:
            data["photo"] = self.photo
            if self.text:
                data["caption"] = self.text
            if self.entities:
                data["caption_entities"] = self.entities
        else:
            if self.text:
                data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.options.get("link_preview_options") and any(
            e["type"] == "url" for e in self.entities
        ):
            data["link_preview_options"] = self.options["link_preview_options"]
        data.update(self.service)
        if (
            self.reply_markup
            and "inline_keyboard" in self.reply_markup
            and self.reply_markup["inline_keyboard"]
        ):
            data["reply_markup"] = self.reply_markup
        return data

    def snapshot(self, nested: bool = False) -> dict[str, Any]:
        """A JSON-friendly description for the control API."""
        reply = None if nested or self.reply_to is None else self.reply_to.snapshot(nested=True)
        return {
            "message_id": self.message_id,
            "chat_id": self.chat.id,
            "from_user_id": self.from_user.id if self.from_user else None,
            "text": self.text,
            "html": self.html,
            "entities": self.entities,
            "bold": self.bold,
            "buttons": [[list(b) for b in row] for row in self.buttons],
            "reply_to": reply,
            "thread_id": self.thread_id,
            "edits": [{"text": v.text, "html": v.html, "date": v.date} for v in self.edits],
            "deleted": self.deleted,
            "service": self.service,
            "date": self.date,
        }


def _web_app_url(button: dict[str, Any]) -> str | None:
    web_app = button.get("web_app")
    return str(web_app["url"]) if isinstance(web_app, dict) else None
