"""The 2023 edition's events at the table: who starts (and, with two players, the rooms
that hold a card), a look at a placed card, the clue cards and what they make players show.

Secrecy: the group learns which rooms hold a card, never which card; a look at a placed
card, and a card shown because of a clue card, go to that one player alone. A card a clue
card reveals to everyone is told to everyone."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.announce.plan import Handler, Plan, seat_args, user_at
from bot.announce.table_turns import told_on_card
from bot.payload import Card, Cards, User
from engine.events import Event
from engine.state import Game
from engine.y2023 import events as yev
from engine.y2023.setup import first_player


def edition_set_up(
    plan: Plan, seq: int, e: yev.EditionSetUp, before: Game | None, after: Game
) -> None:
    """Who starts; the rooms that hold a face-down card (the two-player game); the face-up
    cards of a game stored before the deal followed the rulebook."""
    first, roll = first_player(e.first_rolls, len(after.players))
    args = {**seat_args(after, first), "roll": roll}
    if e.placed:
        rooms = Cards(tuple(room for room, _ in e.placed))
        plan.group(plan.key(seq, "y23placed"), "y2023.placed", {"rooms": rooms})
    plan.group(plan.key(seq, "y23setup"), "y2023.setup", args)
    if e.face_up:
        plan.group(plan.key(seq, "y23faceup"), "y2023.face_up", {"cards": Cards(e.face_up)})


def placed_card_seen(
    plan: Plan, seq: int, e: yev.PlacedCardSeen, before: Game | None, after: Game
) -> None:
    """The card to the one who looked, alone (the turn's card tells that they looked)."""
    plan.private(
        plan.key(seq, "peekdm"),
        user_at(after, e.seat),
        "dm.y2023_peeked",
        {"room": Card(e.room), "card": Card(e.card)},
    )


def clue_card_shown(
    plan: Plan, seq: int, e: yev.ClueCardShown, before: Game | None, after: Game
) -> None:
    """The card to the reader alone (the turn's card tells who showed whom)."""
    if e.card is None:
        return
    plan.private(
        plan.key(seq, "clueshowndm"),
        user_at(after, e.to),
        "dm.y2023_clue_shown",
        {"player": User(user_at(after, e.seat)), "card": Card(e.card)},
    )


Y2023_HANDLERS: Mapping[type[Event], Handler] = MappingProxyType(
    {
        yev.EditionSetUp: edition_set_up,
        yev.PlacedCardSeen: placed_card_seen,
        yev.ClueCardDrawn: told_on_card,
        yev.ClueRevealed: told_on_card,
        yev.ClueCardShown: clue_card_shown,
    }
)
