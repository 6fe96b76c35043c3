"""A computer detective's next move in a forum game: an answer it owes, its accusation,
or one of today's suggestions (None: nothing to do until something changes)."""

from __future__ import annotations

import math
import random
from datetime import datetime
from itertools import product

from engine import commands as cmd
from engine import events as ev
from engine.cards import CATEGORY_ORDER
from engine.computer import Level
from engine.detectives.accusing import accusation
from engine.detectives.mind import Mind, Reading, mind_of
from engine.events import Event
from engine.rules import matching
from engine.state import Game, Suggestion


def forum_move(
    level: Level,
    game: Game,
    events: list[Event],
    seat: int,
    rng: random.Random,
    now: datetime,
    reading: Reading | None = None,
) -> cmd.Command | None:
    """The move of the detective in `seat`, from its own notebook (read on in `reading`)
    and the public state."""
    player = game.players[seat]
    if not player.active or not game.running or game.paused:
        return None
    owed = game.answers_owed_by(seat)
    if owed:
        return _answer(level, game, events, owed[0], rng)
    mind = mind_of(events, seat, level, reading)
    if game.can_accuse(player):
        accused = accusation(level, mind, game)
        if accused is not None:
            suspect, weapon, place = accused
            return cmd.Accuse(actor=player.user, suspect=suspect, weapon=weapon, place=place)
    ends = game.day_ends_at
    if game.quota_left(player) > 0 and ends is not None and now < ends:
        return _suggestion(level, mind, game, seat, rng)
    return None


def _answer(
    level: Level, game: Game, events: list[Event], s: Suggestion, rng: random.Random
) -> cmd.Command:
    """A matching card (which one by level), or "no refutation"."""
    user = game.players[s.target].user
    matches = matching(game.players[s.target].hand, s.cards)
    if not matches:
        return cmd.DeclareNoRefutation(actor=user, suggestion=s.id)
    if level is Level.NOVICE:
        card = rng.choice(matches)
    elif level is Level.SLEUTH:
        card = matches[0]
    else:
        card = _least_revealing(game, events, s, matches)
    return cmd.Refute(actor=user, suggestion=s.id, card=card)


def _least_revealing(
    game: Game, events: list[Event], s: Suggestion, matches: tuple[str, ...]
) -> str:
    """The card this suggester has already been shown by this seat, else the one this seat
    has shown most (to anyone), else the first: nothing new, or as little as may be."""
    shown_to: set[str] = set()
    shown: dict[str, int] = {}
    for e in events:
        if isinstance(e, ev.SuggestionRefuted):
            earlier = game.suggestion(e.suggestion)
            if earlier is not None and earlier.target == s.target:
                shown[e.card] = shown.get(e.card, 0) + 1
                if earlier.suggester == s.suggester:
                    shown_to.add(e.card)
    return min(matches, key=lambda c: (c not in shown_to, -shown.get(c, 0), matches.index(c)))


def _targets(game: Game, seat: int) -> list[int]:
    """The seats the detective may still ask today."""
    limit = game.settings.max_per_target_per_day
    received = game.settings.max_received_per_day
    return [
        p.seat
        for p in game.players
        if p.seat != seat
        and game.sent_today(seat, p.seat) < limit
        and (received is None or game.received_today(p.seat) < received)
    ]


def _suggestion(
    level: Level, mind: Mind, game: Game, seat: int, rng: random.Random
) -> cmd.Command | None:
    targets = _targets(game, seat)
    if not targets:
        return None
    in_play = [game.in_play(category) for category in CATEGORY_ORDER]
    if level is Level.NOVICE:
        target = rng.choice(targets)
        cards = tuple(rng.choice(cards) for cards in in_play)
    elif level is Level.SLEUTH:
        target = rng.choice(targets)
        cards = tuple(_unknown_first(mind, cards, rng) for cards in in_play)
    else:
        before: set[tuple[int, tuple[str, ...]]] = {
            (x.target, x.cards) for x in game.suggestions if x.suggester == seat
        }
        target, cards = _most_informative(mind, targets, in_play, before, rng)
    suspect, weapon, place = cards
    user = game.players[seat].user
    asked = game.players[target].user
    return cmd.MakeSuggestion(actor=user, target=asked, suspect=suspect, weapon=weapon, place=place)


def _unknown_first(mind: Mind, cards: tuple[str, ...], rng: random.Random) -> str:
    """A card whose owner the detective does not know yet, else one of its own (asking
    about it learns about the others)."""
    unknown = [c for c in cards if mind.owner(c) is None]
    own = [c for c in cards if mind.owner(c) == mind.seat]
    return rng.choice(unknown or own or list(cards))


def _most_informative(
    mind: Mind,
    targets: list[int],
    in_play: list[tuple[str, ...]],
    asked: set[tuple[int, tuple[str, ...]]],
    rng: random.Random,
) -> tuple[int, tuple[str, ...]]:
    """The target and cards whose answer the detective can least foretell (the entropy of
    "none of them", or which card is shown, from each cell's exact odds, the target taken
    to choose evenly among the cards it holds); never what it has asked that target before
    (an answer still owed would tell it nothing new)."""
    best: tuple[float, float, int, tuple[str, ...]] | None = None
    for target in targets:
        chance = {c: mind.chance(c, target) for cards in in_play for c in cards}
        for cards in product(*in_play):
            if (target, cards) in asked:
                continue
            held = [chance[c] for c in cards]
            none = math.prod(1.0 - p for p in held)
            total = sum(held)
            outcomes = [none] + ([(1.0 - none) * p / total for p in held] if total else [])
            entropy = -sum(p * math.log2(p) for p in outcomes if p > 0)
            key = (entropy, rng.random(), target, cards)
            if best is None or key[:2] > best[:2]:
                best = key
    if best is None:  # it has asked each of them everything: ask again
        return _most_informative(mind, targets, in_play, set(), rng)
    return best[2], best[3]
