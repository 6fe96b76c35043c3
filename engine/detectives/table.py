"""A computer detective's next move at the table, in any edition: the card it shows when
asked (the table's own step, the same in every edition), else how it plays the game's
format (engine/detectives/plays.py: the classic turn by default, an edition's own steps
where it has some), or nothing when it has no move."""

from __future__ import annotations

import random
from collections.abc import Mapping

from engine import commands as cmd
from engine.computer import Level
from engine.detectives.detective import Detective
from engine.detectives.mind import Reading
from engine.detectives.plays import PLAYS, Play, play_of
from engine.events import Event
from engine.format import format_of
from engine.state import Game
from engine.table.queries import refutation_choices, table_of
from engine.table.state import Step


def table_move(
    level: Level,
    game: Game,
    events: list[Event],
    seat: int,
    rng: random.Random,
    reading: Reading | None = None,
    plays: Mapping[str, Play] = PLAYS,
) -> cmd.Command | None:
    """The move of the detective in `seat`, from its own notebook (read on in `reading`)
    and the public state; `plays`: how it plays each format (engine/detectives/plays.py)."""
    if not format_of(game).plays_turns(game) or not game.running:
        return None
    table = table_of(game)
    player = game.players[seat]
    if not player.active or game.paused:
        return None
    detective = Detective(level, game, events, seat, rng, reading)
    if table.step is Step.REFUTING:
        pending = table.pending
        if pending is None or pending.refuter != seat:
            return None
        choices = refutation_choices(game, player.user)
        return cmd.ShowCard(actor=player.user, card=detective.refutation(choices))
    return play_of(format_of(game).key, plays)(detective)
