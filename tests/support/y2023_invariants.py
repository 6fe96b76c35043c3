"""Invariants of a 2023-edition game: every card accounted for exactly once (hands,
envelope, and the two-player game's cards face down in rooms; none face up), and no
private view naming a card its seat was not shown (checked against the events,
independently of the state)."""

from __future__ import annotations

from collections.abc import Iterable

from engine import events as ev
from engine.cards import CardId
from engine.state import Game
from engine.y2023 import events as yev
from engine.y2023.cards import CLUES
from engine.y2023.queries import private_view
from engine.y2023.setup import placed_in_rooms
from engine.y2023.state import y2023_of, y2023_part


def set_aside(game: Game) -> list[CardId]:
    """The cards of an edition that are in no hand and not in the envelope."""
    edition = y2023_of(game.table) if game.table is not None else None
    if edition is None:
        return []
    return [card for _, card in edition.placed] + list(edition.face_up)


def check_edition_invariants(game: Game) -> None:
    table = game.table
    assert table is not None and y2023_of(table) is not None
    edition = y2023_part(table)
    placing = placed_in_rooms(len(game.players))
    assert len(edition.placed) == placing, "four cards in rooms with two players, else none"
    assert len({room for room, _ in edition.placed}) == placing, "two cards in a room"
    assert sorted(edition.clues) == sorted(CLUES), "the clue deck lost or gained a card"
    held = {card for p in game.players for card in p.hand}
    assert set(edition.revealed) <= held, "revealed a card nobody holds"
    assert not edition.face_up, "no card is face up"
    for dice in (table.dice,):
        assert len(dice) in (0, 2), "the 2023 edition rolls two dice"


def shown_by_events(events: Iterable[ev.Event], seats: int) -> list[set[CardId]]:
    """What each seat has been shown, read from the events alone."""
    shown: list[set[CardId]] = [set() for _ in range(seats)]
    suggesters: dict[int, int] = {}
    for e in events:
        if isinstance(e, ev.GameStarted):
            for seat, deal in enumerate(e.seats):
                shown[seat] |= set(deal.hand)
        elif isinstance(e, yev.EditionSetUp):
            for seen in shown:
                seen |= set(e.face_up)
        elif isinstance(e, yev.ClueRevealed) and e.seat is not None:
            for seen in shown:
                seen.add(e.card)
        elif isinstance(e, ev.TableSuggestionMade):
            suggesters[e.suggestion] = e.suggester
        elif isinstance(e, ev.CardShown):
            shown[suggesters[e.suggestion]].add(e.card)
        elif isinstance(e, yev.PlacedCardSeen):
            shown[e.seat].add(e.card)
        elif isinstance(e, yev.ClueCardShown) and e.card is not None:
            shown[e.to].add(e.card)
    return shown


def check_private_views(game: Game, events: Iterable[ev.Event]) -> None:
    """No seat's private view names a card that seat was not shown."""
    shown = shown_by_events(events, len(game.players))
    for seat in range(len(game.players)):
        view = private_view(game, seat).cards
        extra = view - shown[seat]
        assert not extra, f"seat {seat} sees {sorted(extra)} it was never shown"
