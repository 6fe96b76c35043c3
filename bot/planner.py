"""Who is told what after a command: events become outbox messages (rendered when sent).

This is where secrecy is decided: a shown card goes only to the suggester, a hand only to
its holder, accusations and the envelope only at the end. The payload names a catalog key
and typed arguments; bot/render.py turns it into text in the reader's language.
"""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.render import labels_of
from engine.cards import CATEGORY_ORDER
from engine.state import Game
from storage.messages_owed import OutboxItem, PlanContext

Args = dict[str, Any]
Buttons = list[list[dict[str, str]]]


class Plan:
    """Collects the messages of one command; keys make re-planning harmless."""

    def __init__(self, ctx: PlanContext) -> None:
        self.ctx = ctx
        self.items: list[OutboxItem] = []

    def key(self, seq: int, name: str) -> str:
        return f"g{self.ctx.game_id}:e{seq}:{name}"

    def _payload(self, msg: str, args: Args | None, buttons: Buttons | None) -> dict[str, Any]:
        """What every message of a game carries: its args, the zone, the pack's names."""
        payload: dict[str, Any] = {
            "msg": msg,
            "args": {"game": self.ctx.game_id, **(args or {})},
            "game": self.ctx.game_id,
            "tz": self.ctx.after.settings.timezone,
        }
        labels = labels_of(self.ctx.after.pack)
        if labels:
            payload["labels"] = labels
        if buttons:
            payload["buttons"] = buttons
        return payload

    def _to(self, key: str, user: int | None, payload: dict[str, Any], **extra: Any) -> None:
        """Queue for a person's private chat, or for the thread when `user` is None."""
        if user is None:
            item = OutboxItem(key, self.ctx.chat_id, self.ctx.topic_id, payload=payload, **extra)
        else:
            item = OutboxItem(key, user, user_id=user, payload=payload, **extra)
        self.items.append(item)

    def group(
        self,
        key: str,
        msg: str,
        args: Args | None = None,
        *,
        reply_to: str | None = None,
        buttons: Buttons | None = None,
    ) -> None:
        self._to(key, None, self._payload(msg, args, buttons), reply_to_key=reply_to)

    def private(
        self,
        key: str,
        user: int,
        msg: str,
        args: Args | None = None,
        *,
        buttons: Buttons | None = None,
    ) -> None:
        payload = self._payload(msg, self._placed(args), buttons)
        payload["notify"] = [self.ctx.chat_id, self.ctx.topic_id]  # told if it cannot be sent
        self._to(key, user, payload)

    def edit(
        self,
        key: str,
        target_key: str,
        msg: str,
        args: Args | None = None,
        *,
        user: int | None = None,
        buttons: Buttons | None = None,
    ) -> None:
        """Edit an earlier message (its buttons go unless given); skipped if it was never sent.

        `user` names the person whose private chat holds the message; else it is the thread's.
        """
        if user is not None:
            args = self._placed(args)
        payload = {"op": "edit", "target": target_key, **self._payload(msg, args, buttons)}
        self._to(key, user, payload)

    def _placed(self, args: Args | None) -> Args:
        """A private message says which game it is of: the chat's title and the topic's name."""
        return {**(args or {}), "game_label": self.ctx.place}


def lobby_key(game_id: int) -> str:
    return f"g{game_id}:lobby"


def suggestion_key(game_id: int, suggestion: int) -> str:
    return f"g{game_id}:s{suggestion}"


def prompt_key(game_id: int, suggestion: int, target: int) -> str:
    """The answer prompt of a suggestion, as sent to the person holding the target seat."""
    return f"g{game_id}:prompt{suggestion}:u{target}"


def roster(game: Game) -> list[dict[str, Any]]:
    return [{"user": p.user, "role": p.role} for p in game.players]


def cards_by_category(game: Game) -> dict[str, list[str]]:
    return {category.value: list(game.in_play(category)) for category in CATEGORY_ORDER}


def lobby_args(game: Game) -> Args:
    return {
        "creator_user": game.creator,
        "host_user": game.lobby_host or game.creator,  # an empty lobby: whoever joins next
        "players_users": [e.user for e in game.lobby],
        "minimum": game.settings.min_players,
    }


def lobby_buttons(game_id: int) -> list[list[dict[str, str]]]:
    return [
        [
            {"t": "button.join", "data": cb.Callback(cb.JOIN, game_id).encode()},
            {"t": "button.leave", "data": cb.Callback(cb.LEAVE, game_id).encode()},
        ],
        [{"t": "button.start", "data": cb.Callback(cb.START, game_id).encode()}],
    ]


def answer_buttons(
    game_id: int, suggestion: int, cards: tuple[str, ...]
) -> list[list[dict[str, str]]]:
    if not cards:
        data = cb.Callback(cb.NO_REFUTATION, game_id, (str(suggestion),)).encode()
        return [[{"t": "button.no_refutation", "data": data}]]
    return [
        [{"card": card, "data": cb.Callback(cb.REFUTE, game_id, (str(suggestion), card)).encode()}]
        for card in cards
    ]
