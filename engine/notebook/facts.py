"""What a player knows, as facts about who holds which card.

A `Holding` is one cell of the notebook: "this owner holds this card". Owners are the
seats (0, 1, ...), the envelope (`ENVELOPE`), the cards lying face up for everyone
(`FACE_UP`, e.g. the Liars Edition's Interrogation Room) and the cards lying face down in
rooms (`ROOMS`, the 2023 edition's two-player game). A `Clause` says at least one of
its literals is true; a `Fact` is one observation (its `Source`, for the reason shown to
the player) with the clauses it proves. A `Case` is the whole puzzle one player faces:
the cards by category, how many cards each owner holds, and their facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.cards import CardId
from engine.ids import Seat

Owner = int
ENVELOPE: Owner = -1  # one card of each category
FACE_UP: Owner = -2  # cards turned face up for everyone to see
ROOMS: Owner = -3  # cards lying face down in rooms, each seen only by who looked


@dataclass(frozen=True, order=True)
class Holding:
    """One notebook cell: `owner` holds `card`."""

    card: CardId
    owner: Owner


@dataclass(frozen=True, order=True)
class Literal:
    """A holding that is true (`holds`) or false (not `holds`)."""

    holding: Holding
    holds: bool = True


@dataclass(frozen=True)
class Clause:
    """At least one of the literals is true (one literal: a plain fact)."""

    literals: tuple[Literal, ...]


class SourceKind(StrEnum):
    """Where a fact came from; the reader's catalog words each kind (`notebook.why.*`)."""

    HAND = "hand"  # the player's own cards
    SHOWN = "shown"  # a card shown to the player (by `seat`, for `cards`)
    SHOWN_BY_GM = "shown_by_gm"  # the GM showed it for a silent `seat`
    GM_ORDER = "gm_order"  # the GM's fixed order for a silent `seat` proves what it lacks
    NOT_REFUTED = "not_refuted"  # `seat` could not refute `cards`
    REFUTED = "refuted"  # `seat` showed someone a card for `cards`
    WRONG_ACCUSATION = "wrong_accusation"  # `seat` accused `cards` and was wrong
    FACE_UP = "face_up"  # `cards` lie face up
    PASSED_TO_YOU = "passed_to_you"  # `seat` passed `cards` to the player
    PASSED_BY_YOU = "passed_by_you"  # the player passed `cards` to `seat`
    PASSED = "passed"  # everyone passed a card to their left (facts carried over)
    PEEKED = "peeked"  # the player saw `cards` in `seat`'s hand
    TRUTH_SHOWN = "truth_shown"  # `seat` called Liar! on the player's truth, showed `cards`
    CLUE_SHOWN = "clue_shown"  # `seat` showed the player `cards` for a clue card
    REVEALED = "revealed"  # `cards` of `seat` were shown to everyone
    SEEN_IN_ROOM = "seen_in_room"  # `cards` lie in a room, seen by the player
    DEAL = "deal"  # how the cards were dealt (hand sizes, the envelope's three)


@dataclass(frozen=True)
class Source:
    """One observation, for the reason a deduction gives: what, by whom, when.

    `when` is the day (forum) or the turn (table) it happened; `seat` the player it is
    about; `cards` the cards it names (a suggestion's three, a card shown...).
    """

    kind: SourceKind
    when: int = 0
    seat: Seat | None = None
    cards: tuple[CardId, ...] = ()


@dataclass(frozen=True)
class Fact:
    """An observation and what it proves."""

    source: Source
    clauses: tuple[Clause, ...]


@dataclass(frozen=True)
class Case:
    """The puzzle one player faces: every card's owner is unknown but for their facts.

    `categories`: the cards in play, one tuple per category (suspects, weapons, places);
    `sizes`: how many cards each owner holds (seats, FACE_UP and ROOMS where there are such
    cards; the envelope holds one of each category); `facts`: the player's observations,
    oldest first.
    """

    categories: tuple[tuple[CardId, ...], ...]
    sizes: tuple[tuple[Owner, int], ...]
    facts: tuple[Fact, ...] = field(default=())

    @property
    def cards(self) -> tuple[CardId, ...]:
        return tuple(c for category in self.categories for c in category)

    @property
    def owners(self) -> tuple[Owner, ...]:
        """Every owner a card may have: the seats, FACE_UP and ROOMS if any, the envelope."""
        return (*(owner for owner, _ in self.sizes), ENVELOPE)

    def size_of(self, owner: Owner) -> int:
        if owner == ENVELOPE:
            return len(self.categories)
        return dict(self.sizes).get(owner, 0)


def holds(card: CardId, owner: Owner) -> Clause:
    """The plain fact "owner holds card"."""
    return Clause((Literal(Holding(card, owner)),))


def lacks(card: CardId, owner: Owner) -> Clause:
    """The plain fact "owner does not hold card"."""
    return Clause((Literal(Holding(card, owner), holds=False),))


def one_of(owner: Owner, cards: tuple[CardId, ...]) -> Clause:
    """Owner holds at least one of the cards."""
    return Clause(tuple(Literal(Holding(card, owner)) for card in cards))


def not_all(owner: Owner, cards: tuple[CardId, ...]) -> Clause:
    """Owner does not hold all of the cards (a wrong accusation: not all in the envelope)."""
    return Clause(tuple(Literal(Holding(card, owner), holds=False) for card in cards))
