"""A computer detective's judgement at the table, in any edition: what it knows (its own
seat's notebook, worked out as deep as its level thinks), the accusation its level allows,
the card it shows, how much a room is worth asking in, what it suggests there, and the
classic turn (roll, walk towards the room it most wants to ask in, suggest, accuse, end).

A format's play (engine/detectives/plays.py) plays the turn through a `Detective`: the
classic's is `table_turn`; an edition with steps of its own (engine/liars/detective.py,
engine/y2023/detective.py) uses the same judgement for them.

By level: a novice walks and asks at random and shows any card; a sleuth asks about what
it does not know (the room whose owner it does not know, the likeliest unknown suspect and
weapon) and shows the first card; an inspector asks what its answer is expected to teach
it most about the envelope (from every cell's exact odds, over the rooms it can reach this
turn, or heads for a better one) and shows the card that reveals least.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from engine import commands as cmd
from engine import events as ev
from engine.board.model import Place
from engine.board.movement import room_distances
from engine.cards import CATEGORY_ORDER, CardId
from engine.computer import Level
from engine.detectives.accusing import accusation
from engine.detectives.mind import Mind, Reading, mind_of
from engine.events import Event
from engine.format import format_of
from engine.ids import Seat
from engine.notebook.facts import ENVELOPE, Holding
from engine.state import Game, Player
from engine.table.queries import (
    TurnOptions,
    pending_suggestion,
    seat_to_play,
    table_of,
    turn_options,
)
from engine.table.setup import board_of
from engine.table.state import Step

# An inspector stays (or takes the passage) instead of rolling when the room there is
# worth at least this share of the best room's worth: a suggestion now against a better
# one perhaps later.
STAY_SHARE = 0.75
# How much the answer's own entropy weighs beside the envelope's doubt it settles.
ANSWER_WEIGHT = 0.1


@dataclass
class Detective:
    """The computer detective in `seat` deciding now: its level, the game, the game's whole
    record (of which it reads only what its seat was told: its notebook, its own answers)
    and its randomness; `reading`, the seat's reading of the game kept by the caller
    (engine/detectives/mind.py; None: read from the deal). What it knows is worked out
    once, when first needed."""

    level: Level
    game: Game
    events: list[Event]
    seat: Seat
    rng: random.Random
    reading: Reading | None = None
    lures: dict[str, float] = field(default_factory=dict)  # see `table_turn`
    _best: dict[str, tuple[float, CardId, CardId]] = field(default_factory=dict, repr=False)

    @property
    def player(self) -> Player:
        return self.game.players[self.seat]

    @property
    def user(self) -> int:
        return self.player.user

    @cached_property
    def mind(self) -> Mind:
        return mind_of(self.events, self.seat, self.level, self.reading)

    @cached_property
    def _chances(self) -> dict[tuple[CardId, int], float]:
        """Every cell's chance, as `Mind.chance` reckons it, worked out at once."""
        mind = self.mind
        if mind.solution.odds:
            return {(h.card, h.owner): float(p) for h, p in mind.solution.odds.items()}
        chances: dict[tuple[CardId, int], float] = {}
        forced = mind.solution.forced
        for card in mind.case.cards:
            cells = {owner: forced.get(Holding(card, owner)) for owner in mind.case.owners}
            open_owners = [owner for owner, value in cells.items() if value is None]
            for owner, value in cells.items():
                if value is not None:
                    chances[card, owner] = 1.0 if value else 0.0
                else:
                    chances[card, owner] = 1.0 / len(open_owners)
        return chances

    def chance(self, card: CardId, owner: int) -> float:
        """How likely `owner` holds `card`, as this detective's level reckons it."""
        return self._chances.get((card, owner), 0.0)

    # --- accusing and showing --------------------------------------------------------
    def accusation(self) -> cmd.Accuse | None:
        """The accusation its level allows now, if any (whether one may be made now is the
        caller's to know)."""
        accused = accusation(self.level, self.mind, self.game)
        if accused is None:
            return None
        suspect, weapon, place = accused
        return cmd.Accuse(actor=self.user, suspect=suspect, weapon=weapon, place=place)

    @cached_property
    def seen_by(self) -> dict[CardId, set[Seat]]:
        """Who has been shown which of this seat's cards in answer to a suggestion."""
        made = format_of(self.game).table_suggestions(self.game)
        suggesters = {s.number: s.suggester for s in made}
        seen: dict[CardId, set[Seat]] = {}
        for e in self.events:
            if isinstance(e, ev.CardShown) and e.seat == self.seat and e.suggestion in suggesters:
                seen.setdefault(e.card, set()).add(suggesters[e.suggestion])
        return seen

    def least_revealing(
        self,
        cards: tuple[CardId, ...],
        to: Seat | None = None,
        seen: Mapping[CardId, set[Seat]] | None = None,
    ) -> CardId:
        """The card to give away by level: any (novice), the first (sleuth), or the one `to`
        has already seen from this seat, else the one most have seen (inspector)."""
        if self.level is Level.NOVICE:
            return self.rng.choice(cards)
        if self.level is Level.SLEUTH:
            return cards[0]
        known = self.seen_by if seen is None else seen
        return min(
            cards,
            key=lambda c: (to not in known.get(c, ()), -len(known.get(c, ())), cards.index(c)),
        )

    def refutation(self, choices: tuple[CardId, ...]) -> CardId:
        """The card it shows the suggester who asked."""
        pending = pending_suggestion(self.game)
        return self.least_revealing(choices, pending.suggester if pending else None)

    # --- where to ask, and what -----------------------------------------------------
    def worth(self, room: str) -> float:
        """How much asking in the room may teach: a novice asks anywhere; a sleuth where it
        does not know the room's owner; an inspector as much as its best suggestion there
        (`gain`); and what the edition's own reasons to enter it add (`lures`)."""
        if self.level is Level.NOVICE:
            return 1.0
        lure = self.lures.get(room, 0.0)
        if self.level is Level.SLEUTH:
            if self.mind.owner(room) is not None:
                return lure
            return 0.5 + self.chance(room, ENVELOPE) + lure
        return self._best_in(room)[0] + lure

    def best_room(self, rooms: Iterable[str]) -> str:
        """The room most worth asking in (a novice's: any)."""
        found = list(rooms)
        if self.level is Level.NOVICE:
            return self.rng.choice(found)
        return max(found, key=lambda r: (self.worth(r), self.rng.random()))

    def worth_staying(self, room: str, rooms: Iterable[str]) -> bool:
        """Whether to ask in `room` now rather than roll for another of `rooms`."""
        here = self.worth(room)
        if self.level is not Level.INSPECTOR:
            return here > 0
        return here > 0 and here >= STAY_SHARE * max((self.worth(r) for r in rooms), default=0)

    def suggestion(self, room: str) -> tuple[CardId, CardId]:
        """A suspect and a weapon to name in the room."""
        suspects, weapons = (self.game.in_play(category) for category in CATEGORY_ORDER[:2])
        if self.level is Level.NOVICE:
            return self.rng.choice(suspects), self.rng.choice(weapons)
        if self.level is Level.INSPECTOR:
            _, suspect, weapon = self._best_in(room)
            return suspect, weapon

        def pick(cards: tuple[CardId, ...]) -> CardId:
            unknown = [c for c in cards if self.mind.owner(c) is None]
            own = [c for c in cards if self.mind.owner(c) == self.seat]
            pool = unknown or own or list(cards)
            return max(pool, key=lambda c: (self.chance(c, ENVELOPE), self.rng.random()))

        return pick(suspects), pick(weapons)

    def _best_in(self, room: str) -> tuple[float, CardId, CardId]:
        """The most informative suggestion in a room (an inspector's), and its gain."""
        found = self._best.get(room)
        if found is None:
            suspects, weapons = (self.game.in_play(category) for category in CATEGORY_ORDER[:2])
            scored = [
                (self.gain((s, w, room)), self.rng.random(), s, w)
                for s in suspects
                for w in weapons
            ]
            gain, _, suspect, weapon = max(scored)
            found = self._best[room] = (gain, suspect, weapon)
        return found

    def gain(self, cards: tuple[CardId, ...]) -> float:
        """What the answer to a suggestion of `cards` is expected to teach this detective:
        the doubt it settles about the envelope (a card shown is not in it; none shown, the
        named cards not its own are), in bits, and a little for the answer's own entropy
        (who shows which card, or nobody). Asked left from its seat, each player is taken
        to show evenly any of the named cards it holds, each cell at its odds."""
        count = len(self.game.players)
        doubt = [_doubt(self.chance(c, ENVELOPE)) for c in cards]
        left = 1.0  # nobody asked so far could show one
        settled = 0.0
        outcomes: list[float] = []
        for k in range(1, count):
            refuter = (self.seat + k) % count
            held = [self.chance(c, refuter) for c in cards]
            none = math.prod(1.0 - p for p in held)
            total = sum(held)
            if total > 0:
                shows = left * (1.0 - none)
                for p, bits in zip(held, doubt, strict=True):
                    outcomes.append(shows * p / total)
                    settled += outcomes[-1] * bits
            left *= none
        outcomes.append(left)
        settled += left * sum(doubt)
        entropy = -sum(p * math.log2(p) for p in outcomes if p > 0)
        return settled + ANSWER_WEIGHT * entropy

    # --- the classic turn ---------------------------------------------------------------
    def table_turn(self, lures: Mapping[str, float] | None = None) -> cmd.Command | None:
        """The classic turn, on this seat's turn: accuse when its level allows (and it may
        where it stands), roll (or stay, or take the passage, where that comes instead of
        rolling), walk to the room it most wants to ask in (towards it when out of reach;
        to any room when it would accuse and may not where it stands), suggest, end.
        `lures`: what an edition adds to a room's worth for reasons of its own (the 2023
        edition's cards face down in rooms)."""
        if lures is not None:
            self.lures = dict(lures)
        if seat_to_play(self.game) != self.seat:
            return None
        options = turn_options(self.game, self.user)
        if options.step is Step.REFUTING:
            return None
        accused = self.accusation()
        if accused is not None and options.can_accuse:
            return accused
        here = table_of(self.game).place_of(self.player.role)
        if options.can_roll:
            return self._instead_of_rolling(options, here) or cmd.Roll(actor=self.user)
        if options.step is Step.MOVE:
            move = self._move(options, here, to_accuse=accused is not None)
            if move is not None:
                return move
        if options.suggest_in is not None:
            suspect, weapon = self.suggestion(options.suggest_in)
            return cmd.Suggest(actor=self.user, suspect=suspect, weapon=weapon)
        return cmd.EndTurn(actor=self.user) if options.can_end_turn else None

    def _instead_of_rolling(self, options: TurnOptions, here: Place) -> cmd.Command | None:
        """Staying to ask where it is, or the secret passage, when they come instead of the
        roll and are worth it against any room the roll might reach (a novice stays
        whenever it may, and never takes the passage)."""
        if not isinstance(here, str):
            return None
        rooms = board_of(self.game).rooms
        if options.can_stay and self.worth_staying(here, rooms):
            return cmd.StayToSuggest(actor=self.user)
        passage = options.passage
        if passage is None or self.level is Level.NOVICE:
            return None
        if self.worth_staying(passage, rooms) and self.worth(passage) > self.worth(here):
            return cmd.TakePassage(actor=self.user)
        return None

    def rooms_in_reach(
        self, rooms: Sequence[str], passage: str | None, can_stay: bool, here: Place
    ) -> dict[str, cmd.Command]:
        """Each room it may be in after this move, with the command that takes it there: a
        walk, the secret passage, or staying where it was moved to."""
        reachable: dict[str, cmd.Command] = {r: cmd.Move(actor=self.user, to=r) for r in rooms}
        if passage is not None:
            reachable.setdefault(passage, cmd.TakePassage(actor=self.user))
        if can_stay and isinstance(here, str):
            reachable[here] = cmd.StayToSuggest(actor=self.user)
        return reachable

    def _move(self, options: TurnOptions, here: Place, to_accuse: bool) -> cmd.Command | None:
        """After the roll: to a room in reach (staying and the passage among them where
        they come after the roll) worth asking in, or any room to accuse in; else a step
        towards the best room out of reach (the nearest, to accuse); else any square. A
        novice walks anywhere in reach. None: nowhere to go."""
        reachable = self.rooms_in_reach(options.rooms, options.passage, options.can_stay, here)
        anywhere: list[Place] = [*options.rooms, *options.squares]
        if to_accuse and reachable:
            return next(iter(reachable.values()))
        if self.level is Level.NOVICE and not to_accuse:
            return cmd.Move(actor=self.user, to=self.rng.choice(anywhere)) if anywhere else None
        if reachable:
            best = self.best_room(reachable)
            if self.worth_staying(best, board_of(self.game).rooms):
                return reachable[best]
        if options.towards:
            board = board_of(self.game)
            if to_accuse:
                aim = min(
                    options.towards, key=lambda rs: room_distances(board, rs[0]).get(rs[1], 99)
                )
            else:
                aim = max(options.towards, key=lambda rs: (self.worth(rs[0]), self.rng.random()))
            return cmd.Move(actor=self.user, to=aim[1])
        if anywhere:
            return cmd.Move(actor=self.user, to=self.rng.choice(anywhere))
        return next(iter(reachable.values()), None)


def _doubt(p: float) -> float:
    """The entropy, in bits, of a card being in the envelope with chance `p`."""
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log2(p) + (1.0 - p) * math.log2(1.0 - p))
