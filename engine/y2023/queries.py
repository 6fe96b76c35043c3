"""What the bot asks of a 2023-edition game: a player's private view (every card they have
been shown, and how), the face-up cards, and the clue card on top."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import CardId
from engine.ids import Seat
from engine.state import Game
from engine.y2023.state import y2023_of


@dataclass(frozen=True)
class PrivateView:
    """One seat's knowledge: nothing here is a card the seat has not been shown."""

    hand: tuple[CardId, ...]
    face_up: tuple[CardId, ...]  # the two-player game's open cards
    revealed: tuple[CardId, ...]  # shown to everyone by clue cards
    shown: tuple[CardId, ...]  # shown to this seat in answer to its suggestions
    peeked: tuple[tuple[str, CardId], ...]  # room -> the card face down there, looked at
    clue_shown: tuple[CardId, ...]  # shown privately because of a clue card

    @property
    def cards(self) -> frozenset[CardId]:
        peeked = {card for _, card in self.peeked}
        return frozenset(
            (*self.hand, *self.face_up, *self.revealed, *self.shown, *peeked, *self.clue_shown)
        )


def private_view(game: Game, seat: Seat) -> PrivateView:
    """The seat's private view of a 2023-edition game."""
    edition = y2023_of(game.table)
    assert edition is not None and game.table is not None
    seen = {card for who, card in edition.seen if who == seat}
    peeked = tuple((room, card) for room, card in edition.placed if card in seen)
    placed = {card for _, card in edition.placed}
    shown = tuple(
        s.card for s in game.table.suggestions if s.suggester == seat and s.card is not None
    )
    return PrivateView(
        hand=game.players[seat].hand,
        face_up=edition.face_up,
        revealed=edition.revealed,
        shown=shown,
        peeked=peeked,
        clue_shown=tuple(c for who, c in edition.seen if who == seat and c not in placed),
    )
