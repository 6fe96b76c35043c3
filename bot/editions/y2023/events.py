"""The 2023 edition's events at the table: who starts (and, with two players, the rooms
that hold a card), a look at a placed card, the clue cards and what they make players show.

Secrecy: the group learns which rooms hold a card, never which card; a look at a placed
card, and a card shown because of a clue card, go to that one player alone. A card a clue
card reveals to everyone is told to everyone."""

from __future__ import annotations

from bot.announce.plan import Handler, Plan, seat_args, user_at
from bot.delivery.payload import Card, Cards, User
from engine.events import Event
from engine.state import Game
from engine.y2023 import events as yev
from engine.y2023.cards import CLUES, ClueKind
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
    """The group learns that they looked; the card goes to them alone."""
    plan.group(
        plan.key(seq, "peek"), "y2023.peeked", {**seat_args(after, e.seat), "room": Card(e.room)}
    )
    plan.private(
        plan.key(seq, "peekdm"),
        user_at(after, e.seat),
        "dm.y2023_peeked",
        {"room": Card(e.room), "card": Card(e.card)},
    )


def clue_card_drawn(
    plan: Plan, seq: int, e: yev.ClueCardDrawn, before: Game | None, after: Game
) -> None:
    """The clue card, read aloud."""
    clue = CLUES[e.clue]
    args = seat_args(after, e.seat)
    if clue.kind is ClueKind.REVEAL:
        assert clue.card is not None
        plan.group(plan.key(seq, "clue"), "y2023.clue_reveal", {**args, "card": Card(clue.card)})
    else:
        plan.group(plan.key(seq, "clue"), "y2023.clue_left_shows", args)


def clue_revealed(
    plan: Plan, seq: int, e: yev.ClueRevealed, before: Game | None, after: Game
) -> None:
    """The holder shows the card to everyone (then takes it back)."""
    if e.seat is None:
        plan.group(plan.key(seq, "reveal"), "y2023.revealed_nobody", {"card": Card(e.card)})
        return
    args = {**seat_args(after, e.seat), "card": Card(e.card)}
    plan.group(plan.key(seq, "reveal"), "y2023.revealed", args)


def clue_card_shown(
    plan: Plan, seq: int, e: yev.ClueCardShown, before: Game | None, after: Game
) -> None:
    """The group learns who showed whom; the card goes to the reader alone."""
    names = {"player": User(user_at(after, e.seat)), "reader": User(user_at(after, e.to))}
    if e.card is None:
        plan.group(plan.key(seq, "clueshown"), "y2023.clue_shown_none", names)
        return
    plan.group(plan.key(seq, "clueshown"), "y2023.clue_shown", names)
    plan.private(
        plan.key(seq, "clueshowndm"),
        user_at(after, e.to),
        "dm.y2023_clue_shown",
        {"player": names["player"], "card": Card(e.card)},
    )


Y2023_HANDLERS: dict[type[Event], Handler] = {
    yev.EditionSetUp: edition_set_up,
    yev.PlacedCardSeen: placed_card_seen,
    yev.ClueCardDrawn: clue_card_drawn,
    yev.ClueRevealed: clue_revealed,
    yev.ClueCardShown: clue_card_shown,
}
