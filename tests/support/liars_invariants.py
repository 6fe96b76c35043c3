"""Invariants every reachable state of a Liars Edition game must satisfy."""

from __future__ import annotations

from functools import cache

from engine import events as ev
from engine.liars import events as lev
from engine.liars.cards import LIARS_PACK, RING, START_ROOMS, investigation_deck
from engine.liars.state import OTHERS_ANSWER, Stage, liars_of, liars_part
from engine.state import Game, Phase
from engine.table.state import Step, TurnEnd

EVIDENCE = frozenset(LIARS_PACK.all_cards)


@cache
def _order(deck: tuple[str, ...]) -> dict[str, int]:
    """Each card's place in the deck (the order hands are sorted in)."""
    return {card: i for i, card in enumerate(deck)}


@cache
def _sorted_deck(move: int, pass_: int, peek: int, lies: int) -> list[str]:
    """The investigation deck of these counts, sorted (compared, never changed)."""
    return sorted(investigation_deck(move, pass_, peek, lies))


def check_liars_invariants(game: Game) -> None:
    """Every evidence card once (hands, envelope, face up, on its way left); investigation
    cards conserved; tokens and weapons in the ring's rooms; the play consistent."""
    table = game.table
    if table is None:
        assert game.phase is not Phase.RUNNING
        return
    liars = liars_of(table)
    assert liars is not None
    assert game.envelope is not None
    assert set(game.deck) == EVIDENCE and len(game.deck) == 21
    places = [card for p in game.players for card in p.hand]
    places += list(game.envelope) + list(liars.face_up) + [card for _, card in liars.passes]
    # (sorted lists compared: the same as comparing the multisets)
    assert sorted(places) == sorted(game.deck), "an evidence card lost or twice"
    order = _order(game.deck)
    for player in game.players:
        assert list(player.hand) == sorted(player.hand, key=order.__getitem__), "hand unsorted"
    s = game.settings
    counts = (s.truth_move_cards, s.truth_pass_cards, s.truth_peek_cards, s.lie_cards)
    held = [card for card in liars.held if card]
    assert sorted([*held, *liars.draw, *liars.discard]) == _sorted_deck(*counts)
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
            if play.by_gm:  # read for a reader out of time: the turn ends once settled
                assert play.stage in OTHERS_ANSWER, "a timed-out turn goes on after its card"
        for player in game.players:
            if player.accused and game.winner != player.seat:
                assert player.seat != table.current


def check_turn_ends(before: Game, events: list[ev.Event]) -> None:
    """Every turn a player ends or runs out of played its investigation card, unless the
    hand held no evidence card: ended by the player, the card was played before; timed
    out, played before or read by the GM now."""
    table = before.table
    assert table is not None and liars_of(table) is not None
    read_now = {e.turn for e in events if isinstance(e, lev.InvestigationRead) and e.by_gm}
    for e in events:
        if not isinstance(e, ev.TurnEnded) or e.turn != table.turn:
            continue
        if e.reason not in (TurnEnd.ENDED, TurnEnd.TIMED_OUT):
            continue
        played = liars_part(table).play_in(e.turn) is not None or e.turn in read_now
        owed = bool(before.players[e.seat].hand) and liars_part(table).held[e.seat] != ""
        assert played or not owed, f"turn {e.turn} ended ({e.reason}) without its card"
        if e.reason is TurnEnd.ENDED:
            assert e.turn not in read_now
