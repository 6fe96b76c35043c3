"""Invariants every reachable state must satisfy."""

from __future__ import annotations

from engine.state import Answer, Game, Phase, Suggestion


def check_invariants(game: Game, before: Game | None = None) -> None:
    """Raise AssertionError naming the first broken invariant. Given the state `before` the
    last step, a suggestion that is the very same object as before, its target's hand too,
    is not checked again (its checks would read exactly what they read then)."""
    if game.phase is Phase.LOBBY:
        assert len({e.user for e in game.lobby}) == len(game.lobby), "someone joined twice"
        return
    assert game.envelope is not None
    dealt = [card for p in game.players for card in p.hand] + list(game.envelope)
    assert sorted(dealt) == sorted(game.deck), "cards not conserved"  # as multisets
    assert len(set(dealt)) == len(dealt), "a card twice"
    sizes = [len(p.hand) for p in game.players]
    assert max(sizes) - min(sizes) <= 1, "uneven deal"
    assert len({p.user for p in game.players}) == len(game.players), "one person, two seats"
    for player in game.players:
        left = game.quota_left(player)
        assert 0 <= left <= game.settings.suggestions_per_day, "quota out of range"
        assert player.pending_penalty >= 0 and player.penalty_today >= 0
        assert not player.eliminated or player.accused, "eliminated without accusing"
    for s in _changed_suggestions(game, before):
        assert s.suggester != s.target, "suggestion to oneself"
        if s.answer is Answer.REFUTED:
            assert s.card in s.cards and s.card in game.players[s.target].hand, "bad refutation"
        if s.answer is Answer.NOT_REFUTED:
            assert not set(s.cards) & set(game.players[s.target].hand), "false no-refutation"
        if s.answer is Answer.PENDING:
            assert not s.refunded
    if game.day_open:
        for player in game.players:
            counted = game.counted_today(player.seat)
            assert counted <= max(game.quota_today(player), 0) or counted == 0
    seats = [a.seat for a in game.accusations]
    assert len(seats) == len(set(seats)), "two accusations by one player"
    if game.phase is Phase.ENDED and game.winner is not None:
        won = [a for a in game.accusations if a.seat == game.winner]
        assert won and won[0].cards == game.envelope, "winner without the right accusation"
    if game.phase is Phase.RUNNING and not game.paused:
        assert game.day_open or game.window_open, "a running game waits for nothing"


def _changed_suggestions(game: Game, before: Game | None) -> list[Suggestion]:
    if before is None:
        return list(game.suggestions)
    old = before.suggestions
    seats = zip(before.players, game.players, strict=False)
    if len(before.players) == len(game.players) and all(a.hand is b.hand for a, b in seats):
        # every hand as before: only a suggestion that is not the very same object changed
        if old is game.suggestions:
            return []
        changed = [s for s, was in zip(game.suggestions, old, strict=False) if s is not was]
        return changed + list(game.suggestions[len(old) :])
    return [
        s
        for i, s in enumerate(game.suggestions)
        if i >= len(old)
        or old[i] is not s
        or before.players[s.target].hand is not game.players[s.target].hand
    ]
