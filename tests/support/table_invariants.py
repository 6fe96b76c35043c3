"""Invariants every reachable state of a classic (table) game must satisfy."""

from __future__ import annotations

from engine.board.movement import reachable
from engine.state import Game, Phase
from engine.table.setup import board_of
from engine.table.state import Step, TableSuggestion
from engine.y2023.state import y2023_of
from tests.support.invariants import check_invariants
from tests.support.y2023_invariants import check_edition_invariants, set_aside


def check_table_invariants(game: Game, before: Game | None = None) -> None:
    """The shared invariants (cards accounted for, one winner or none), then the table's.
    Given the state `before` the last step, a suggestion that is the very same object as
    before, every hand too, is not checked again (its checks would read exactly what they
    read then)."""
    edition = game.table is not None and y2023_of(game.table) is not None
    if game.phase is Phase.RUNNING or edition:
        _shared(game)  # the forum's day and quota invariants are not the table's
    else:
        check_invariants(game)
    table = game.table
    if table is None:
        assert game.phase is Phase.LOBBY or game.phase is Phase.ENDED
        return
    board = board_of(game)
    assert len(game.deck) == 21, "the classic format plays with 21 cards"
    assert sorted(s for s, _ in table.tokens) == sorted(board.starts), "six tokens"
    if y2023_of(table) is not None:
        check_edition_invariants(game)
    squares = [p for _, p in table.tokens if isinstance(p, tuple)]
    assert len(squares) == len(set(squares)), "two tokens on one square"
    for _, place in table.tokens:
        assert place in board.rooms or place in board.corridor, f"token off the board: {place}"
    for _, room in table.weapons:
        assert room in board.rooms, "weapon outside a room"
    assert len(table.weapons) == 6
    winners = [a for a in game.accusations if a.correct]
    assert len(winners) <= 1, "two winners"
    if game.phase is Phase.RUNNING:
        current = game.players[table.current]
        assert current.active and not current.accused, "a turn for a player who is out"
        if table.step is Step.REFUTING:
            pending = table.pending
            assert pending is not None and pending.refuter is not None
            refuter = game.players[pending.refuter]
            assert set(pending.cards) & set(refuter.hand), "asked without a matching card"
        for suggestion in _changed_suggestions(game, before):
            if suggestion.card is not None:
                assert suggestion.card in suggestion.cards
                shower = game.players[suggestion.refuter or 0]
                assert suggestion.card in shower.hand, "showed a card not held"
            for seat in suggestion.passed:
                assert not set(suggestion.cards) & set(game.players[seat].hand), "false pass"
        if table.step is Step.MOVE:  # the roll was legal: one or two dice of 1..6
            assert len(table.dice) == (2 if y2023_of(table) else game.settings.dice)
            assert all(1 <= d <= 6 for d in table.dice)
            origin = table.place_of(current.role)  # a place a roll may leave from (the
            # breadth-first reach: the walks of exactly the roll are the turn's own work)
            blocked = table.occupied(but=current.role)
            reachable(board, origin, sum(table.dice), blocked, exact=False)
    for player in game.players:
        out = player.accused and game.winner != player.seat
        if out and isinstance(table.place_of(player.role), tuple):
            raise AssertionError("a wrong accuser left standing in a corridor")


def _shared(game: Game) -> None:
    """The forum invariants that hold for both formats (days and quotas are the forum's)."""
    assert game.envelope is not None
    dealt = [card for p in game.players for card in p.hand] + list(game.envelope)
    dealt += set_aside(game)  # an edition's cards in rooms and face up
    assert sorted(dealt) == sorted(game.deck), "cards not conserved"  # as multisets
    assert len(set(dealt)) == len(dealt), "a card twice"
    sizes = [len(p.hand) for p in game.players]
    assert max(sizes) - min(sizes) <= 1, "uneven deal"
    seats = [a.seat for a in game.accusations]
    assert len(seats) == len(set(seats)), "two accusations by one player"
    for player in game.players:
        assert not player.eliminated or player.accused, "eliminated without accusing"


def _changed_suggestions(game: Game, before: Game | None) -> tuple[TableSuggestion, ...]:
    """The table's suggestions, but those unchanged since `before` with every hand too."""
    table = game.table
    assert table is not None
    if before is None or before.table is None or not _same_hands(before, game):
        return table.suggestions
    old = before.table.suggestions
    if old is table.suggestions:
        return ()
    return tuple(s for i, s in enumerate(table.suggestions) if i >= len(old) or old[i] is not s)


def _same_hands(before: Game, game: Game) -> bool:
    """Every seat's hand is the very same (immutable) tuple as before."""
    seats = zip(before.players, game.players, strict=False)
    return len(before.players) == len(game.players) and all(a.hand is b.hand for a, b in seats)
