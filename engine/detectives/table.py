"""A computer detective's next move in a classic table game: the card it shows when asked,
its turn (roll, walk towards the room it most wants to ask about, suggest there, accuse
when its level allows, end the turn), or nothing when it is not its move."""

from __future__ import annotations

import random

from engine import commands as cmd
from engine import events as ev
from engine.board.model import Place
from engine.cards import CATEGORY_ORDER
from engine.detectives.accusing import accusation
from engine.detectives.levels import Level
from engine.detectives.mind import Mind, mind_of
from engine.events import Event
from engine.notebook.facts import ENVELOPE
from engine.settings import GameFormat
from engine.state import Game
from engine.table.queries import TurnOptions, refutation_choices, turn_options
from engine.table.state import Step


def table_move(
    level: Level, game: Game, events: list[Event], seat: int, rng: random.Random
) -> cmd.Command | None:
    """The move of the detective in `seat` (classic games only: None in another edition)."""
    table = game.table
    if table is None or game.settings.format != GameFormat.CLASSIC or not game.running:
        return None
    player = game.players[seat]
    if not player.active or game.paused:
        return None
    if table.step is Step.REFUTING:
        pending = table.pending
        if pending is None or pending.refuter != seat:
            return None
        choices = refutation_choices(game, player.user)
        return cmd.ShowCard(actor=player.user, card=_shown(level, events, seat, choices, rng))
    if table.current != seat:
        return None
    options = turn_options(game, player.user)
    mind = mind_of(events, seat, level)
    if options.can_accuse:
        accused = accusation(level, mind, game)
        if accused is not None:
            suspect, weapon, place = accused
            return cmd.Accuse(actor=player.user, suspect=suspect, weapon=weapon, place=place)
    if options.can_roll:
        here = table.place_of(player.role)
        if options.can_stay and isinstance(here, str) and _worth(mind, here, level) > 0:
            return cmd.StayToSuggest(actor=player.user)
        return cmd.Roll(actor=player.user)
    if options.step is Step.MOVE and (options.rooms or options.squares):
        return cmd.Move(actor=player.user, to=_destination(level, mind, options, rng))
    if options.suggest_in is not None:
        suspect, weapon = _suggestion(level, mind, game, rng)
        return cmd.Suggest(actor=player.user, suspect=suspect, weapon=weapon)
    return cmd.EndTurn(actor=player.user) if options.can_end_turn else None


def _shown(
    level: Level, events: list[Event], seat: int, choices: tuple[str, ...], rng: random.Random
) -> str:
    """Novice: any; sleuth: the first; inspector: the one it has shown most before."""
    if level is Level.NOVICE:
        return rng.choice(choices)
    if level is Level.SLEUTH:
        return choices[0]
    shown: dict[str, int] = {}
    for e in events:
        if isinstance(e, ev.CardShown) and e.seat == seat:
            shown[e.card] = shown.get(e.card, 0) + 1
    return min(choices, key=lambda c: (-shown.get(c, 0), choices.index(c)))


def _worth(mind: Mind, room: str, level: Level) -> float:
    """How much asking about a room may teach: nothing once its owner is known (a novice
    asks anywhere)."""
    if level is Level.NOVICE:
        return 1.0
    if mind.owner(room) is not None:
        return 0.0
    return 0.5 + mind.chance(room, ENVELOPE)


def _destination(level: Level, mind: Mind, options: TurnOptions, rng: random.Random) -> Place:
    """A room in reach worth asking about, else a step towards the best room out of reach,
    else any square."""
    anywhere: list[Place] = [*options.rooms, *options.squares]
    if level is Level.NOVICE:
        return rng.choice(anywhere)
    worth = {room: _worth(mind, room, level) for room in options.rooms}
    if worth and max(worth.values()) > 0:
        return max(options.rooms, key=lambda r: (worth[r], rng.random()))
    if options.towards:
        best = max(options.towards, key=lambda rs: (_worth(mind, rs[0], level), rng.random()))
        return best[1]
    return rng.choice(anywhere)


def _suggestion(level: Level, mind: Mind, game: Game, rng: random.Random) -> tuple[str, str]:
    """A suspect and a weapon: random (novice), or those whose owner the detective knows
    least, likeliest in the envelope first (sleuth and inspector)."""
    suspects, weapons = (game.in_play(category) for category in CATEGORY_ORDER[:2])
    if level is Level.NOVICE:
        return rng.choice(suspects), rng.choice(weapons)

    def pick(cards: tuple[str, ...]) -> str:
        unknown = [c for c in cards if mind.owner(c) is None]
        own = [c for c in cards if mind.owner(c) == mind.seat]
        pool = unknown or own or list(cards)
        return max(pool, key=lambda c: (mind.chance(c, ENVELOPE), rng.random()))

    return pick(suspects), pick(weapons)
