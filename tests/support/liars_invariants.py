"""Invariants every reachable state of a Liars Edition game must satisfy."""

from __future__ import annotations

from collections import Counter

from engine.liars.cards import LIARS_PACK, RING, START_ROOMS, investigation_deck
from engine.liars.state import Stage
from engine.state import Game, Phase
from engine.table.state import Step


def check_liars_invariants(game: Game) -> None:
    """Every evidence card once (hands, envelope, face up, on its way left); investigation
    cards conserved; tokens and weapons in the ring's rooms; the play consistent."""
    table = game.table
    if table is None:
        assert game.phase is not Phase.RUNNING
        return
    liars = table.liars
    assert liars is not None
    assert game.envelope is not None
    assert set(game.deck) == set(LIARS_PACK.all_cards) and len(game.deck) == 21
    places = [card for p in game.players for card in p.hand]
    places += list(game.envelope) + list(liars.face_up) + [card for _, card in liars.passes]
    assert Counter(places) == Counter(game.deck), "an evidence card lost or twice"
    for player in game.players:
        assert list(player.hand) == sorted(player.hand, key=game.deck.index), "hand unsorted"
    s = game.settings
    counts = (s.truth_move_cards, s.truth_pass_cards, s.truth_peek_cards, s.lie_cards)
    held = [card for card in liars.held if card]
    assert Counter([*held, *liars.draw, *liars.discard]) == Counter(investigation_deck(*counts))
    assert sorted(s for s, _ in table.tokens) == sorted(START_ROOMS)
    for _, place in table.tokens:
        assert place in RING, f"token outside the ring's rooms: {place}"
    for _, room in table.weapons:
        assert room in RING
    winners = [a for a in game.accusations if a.correct]
    assert len(winners) <= 1
    play = liars.play_in(table.turn)
    if liars.passes:
        assert play is not None and play.stage is Stage.PASSING, "a pass left behind"
    if game.phase is Phase.RUNNING:
        current = game.players[table.current]
        assert current.active and not current.accused
        if play is not None:
            assert play.seat == table.current
            if play.stage in (Stage.WINDOW, Stage.EXPOSE, Stage.PASSING):
                assert play.due is not None
            if play.stage is Stage.EXPOSE:
                assert play.card == "lie" and game.players[play.seat].hand
            assert table.step in (Step.SUGGESTED, Step.MOVED, Step.REFUTING)
        for player in game.players:
            if player.accused and game.winner != player.seat:
                assert player.seat != table.current
