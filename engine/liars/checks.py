"""What the Liars Edition's rules ask of the state: this turn's investigation card, who
owes it, who may call Liar!, who may be peeked at or pass, and the edition's random draws."""

from __future__ import annotations

import random

from engine.liars.errors import NotYourChoice
from engine.liars.state import Play, Stage, liars_of, liars_part
from engine.rules import require_player
from engine.state import Game, Player
from engine.table.state import Step


def liars_rng(game: Game, turn: int, what: str) -> random.Random:
    """Random draws of the edition, replayable from the game's seed."""
    return random.Random(f"liars:{game.seed}:{turn}:{what}")


def current_play(game: Game) -> Play | None:
    """This turn's investigation card, once read."""
    table = game.table
    liars = liars_of(table)
    if table is None or liars is None:
        return None
    return liars.play_in(table.turn)


def owes_card(game: Game, player: Player) -> bool:
    """Their turn, the card not played yet, holding it and at least one evidence card:
    the card must be played before the turn ends."""
    table = game.table
    assert table is not None
    return (
        table.current == player.seat
        and current_play(game) is None
        and liars_part(game.table).held[player.seat] != ""
        and bool(player.hand)
    )


def skips_card(game: Game, player: Player) -> bool:
    """Their turn, the card not played, and no evidence card in hand: the step is skipped
    (the investigation card is kept)."""
    table = game.table
    assert table is not None
    return table.current == player.seat and current_play(game) is None and not player.hand


def may_play(game: Game, player: Player) -> bool:
    """After moving, once a turn, holding the card and at least one evidence card."""
    table = game.table
    assert table is not None
    return table.step in (Step.MOVED, Step.SUGGESTED) and owes_card(game, player)


def may_call(game: Game, player: Player) -> bool:
    """Another player still in the game, while the window is open and nobody has called."""
    play = current_play(game)
    return (
        play is not None
        and play.stage is Stage.WINDOW
        and play.challenger is None
        and player.seat != play.seat
        and game.can_accuse(player)
    )


def absent(game: Game, seat: int) -> bool:
    table = game.table
    assert table is not None
    return not game.players[seat].active or table.seats[seat].away


def peek_targets(game: Game) -> tuple[int, ...]:
    """The players whose cards the reader may look at: the others holding evidence."""
    play = current_play(game)
    return tuple(p.seat for p in game.players if p.hand and (play is None or p.seat != play.seat))


def pass_choices(game: Game, user: int) -> tuple[str, ...]:
    """The cards `user` may pass now (their hand), or NotYourChoice."""
    player = require_player(game, user)
    play = current_play(game)
    chosen = {seat for seat, _ in liars_part(game.table).passes}
    if (
        play is None
        or play.stage is not Stage.PASSING
        or player.seat not in play.passers
        or player.seat in chosen
    ):
        raise NotYourChoice()
    return player.hand
