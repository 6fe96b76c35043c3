"""The plan of one command's messages: where each goes (thread, private chat, an edit) and
the keys that make planning it twice harmless; and the argument builders every planner
shares (a seat, a suggestion's three cards, a button, the board a post carries)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bot import callbacks as cb
from bot.payload import Card, Payload, User, labels_of
from engine.computer import detective_level
from engine.state import Game
from engine.table.queries import table_of
from storage.messages_owed import OutboxItem, PlanContext

Args = dict[str, Any]
Buttons = list[list[dict[str, str]]]
Clock = tuple[str, int]
"""A clock a message starts once delivered: its name and ref (engine.commands.ClockSeen)."""


BoardOf = Callable[[Game], Args]
"""What a post's picture shows of a game (its edition's `board`)."""


def board_args(game: Game) -> Args:
    """What a post's picture shows: the board, every token's place, every weapon's room."""
    table = table_of(game)
    return {
        "name": table.board,
        "tokens": [[s, list(p) if isinstance(p, tuple) else p] for s, p in table.tokens],
        "weapons": [[w, r] for w, r in table.weapons],
        "images": game.settings.images,
    }


def event_key(game_id: int, seq: int, name: str) -> str:
    """The outbox key of message `name` of the game's event number `seq`."""
    return f"g{game_id}:e{seq}:{name}"


class Presentation(Protocol):
    """What the shared planners ask of the game's edition (a `bot.editions.base.Edition`,
    which `bot.editions.planning` passes to the plan)."""

    @property
    def board(self) -> BoardOf: ...  # what a post's picture shows of the game

    @property
    def started(self) -> str: ...  # the catalog key of a table game's start post

    @property
    def lobby_args(self) -> Callable[[Game], Args]: ...  # more for the lobby post

    @property
    def lobby_rows(self) -> Callable[[int, Game], Buttons]: ...  # more lobby buttons


class Plan:
    """Collects the messages of one command; keys make re-planning harmless. `edition` is
    the game's edition's presentation (`board`: its picture of the board)."""

    def __init__(self, ctx: PlanContext, edition: Presentation) -> None:
        self.ctx = ctx
        self.edition = edition
        self.board = edition.board
        self.items: list[OutboxItem] = []

    def key(self, seq: int, name: str) -> str:
        return event_key(self.ctx.game_id, seq, name)

    def _payload(
        self, msg: str, args: Args | None, buttons: Buttons | None, **more: Any
    ) -> dict[str, Any]:
        """What every message of a game carries: its args, the zone, the pack's names."""
        return Payload(
            msg,
            {"game": self.ctx.game_id, **(args or {})},
            game=self.ctx.game_id,
            tz=self.ctx.after.settings.timezone,
            labels=labels_of(self.ctx.after.pack),
            buttons=buttons,
            **more,
        ).to_row()

    def _to(self, key: str, user: int | None, payload: dict[str, Any], **extra: Any) -> None:
        """Queue for a person's private chat, or for the thread when `user` is None. A
        computer detective has no chat: what it is told is in the game's record."""
        if user is not None and detective_level(user) is not None:
            return
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
        board: dict[str, Any] | None = None,
        pin: bool = False,
        clock: Clock | None = None,
    ) -> None:
        """A post in the game's thread; `board` (tokens and weapons) is drawn with it; `pin`:
        pinned once sent, where the bot may pin; `clock` (name, ref): the clock someone must
        act within on this post, started once it is delivered (engine.commands.ClockSeen)."""
        payload = self._payload(msg, args, buttons, board=board, pin=pin, clock=clock)
        self._to(key, None, payload, reply_to_key=reply_to)

    def private(
        self,
        key: str,
        user: int,
        msg: str,
        args: Args | None = None,
        *,
        buttons: Buttons | None = None,
        clock: Clock | None = None,
    ) -> None:
        """A message to a person's private chat; `clock` as for `group`."""
        notify = (self.ctx.chat_id, self.ctx.topic_id)  # told if it cannot be sent
        payload = self._payload(msg, self._placed(args), buttons, notify=notify, clock=clock)
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
        keep_place: bool = False,
        board: dict[str, Any] | None = None,
        clock: Clock | None = None,
        decoration: bool = False,
    ) -> None:
        """Edit an earlier message (its buttons go unless given); skipped if it was never sent.
        `board`: the picture it shows (redrawn only if that changed; see bot.delivery.sender).

        `user` names the person whose private chat holds the message; else it is the thread's.
        `keep_place`: sent after the posts queued before it, never merged into an earlier edit
        still waiting (for an edit that links to those posts). `clock` as for `group`: the
        edit applied starts it (a report of a clock already started changes nothing).
        `decoration`: only told (what
        nobody must act on, such as the index): when its chat is at its limit, the rows queued
        after it go first (storage.claims), but never another decoration row, and one still
        waiting takes in the next edit of its message: the newest content is shown last.
        """
        if user is not None:
            args = self._placed(args)
        payload = self._payload(
            msg,
            args,
            buttons,
            edit_of=target_key,
            keep_place=keep_place,
            board=board,
            clock=clock,
            decoration=decoration,
        )
        self._to(key, user, payload)

    def compose_later(self, key: str, compose: str) -> None:
        """A post in the thread whose text is worked out after the commit (its `compose` kind,
        bot/owed.py): owed from this command on, stored with it (storage.owed)."""
        payload = {"compose": compose, "game": self.ctx.game_id}
        self.items.append(OutboxItem(key, self.ctx.chat_id, self.ctx.topic_id, payload=payload))

    def _placed(self, args: Args | None) -> Args:
        """A private message says which game it is of: the chat's title and the topic's name."""
        return {**(args or {}), "game_label": self.ctx.place}


Handler = Callable[[Plan, int, Any, Game | None, Game], None]
"""Plans one event's messages: (plan, the event's number, the event, state before, after)."""


def triple(suspect: str, weapon: str, place: str) -> Args:
    """A suggestion's or an accusation's three cards, as a message names them."""
    return {"suspect": Card(suspect), "weapon": Card(weapon), "place": Card(place)}


def user_at(game: Game, seat: int) -> int:
    """The person holding a seat."""
    return game.players[seat].user


def seat_args(game: Game, seat: int) -> Args:
    """A seat as messages name it: the person and their suspect."""
    player = game.players[seat]
    return {"player": User(player.user), "suspect": Card(player.role)}


def button(text: dict[str, Any], data: cb.Callback) -> dict[str, Any]:
    """A button: its text (a catalog key, a card, a person) and the data it sends."""
    return {**text, "data": data.encode()}
