"""The running games a person plays in, for the private commands that act on them
(/notebook, /mark, /away, /back, /standing): all of them, one by number, or the only one."""

from __future__ import annotations

from dataclasses import dataclass

from bot.context import CustomContext
from bot.handlers.common import Where, game_label, say
from engine.state import Game, Phase


@dataclass(frozen=True)
class Seated:
    """A running game the person plays in, and their seat."""

    game_id: int
    game: Game
    seat: int


async def running_seats(context: CustomContext, user_id: int) -> list[Seated]:
    """Every running game the person holds a seat in."""
    svc = context.services
    found = []
    for ref in await svc.store.games_of_person(user_id):
        game = await svc.store.load(ref.id)
        player = game.player_of(user_id)
        if game.phase is Phase.RUNNING and player is not None:
            found.append(Seated(ref.id, game, player.seat))
    return found


async def seat_in(context: CustomContext, user_id: int, game_id: int) -> Seated | None:
    """The person's seat in one running game, if they hold one."""
    return next((s for s in await running_seats(context, user_id) if s.game_id == game_id), None)


async def chosen_game(
    context: CustomContext,
    w: Where,
    args: list[str],
    command: str,
    no_game: str = "error.no_running_game",
) -> Seated | None:
    """The game a private `command` is about: the one named by number, or the only one (else
    the person is told which games to choose from, each by number and chat, or that they
    play in none, in the words of the catalog key `no_game`)."""
    games = await running_seats(context, w.user.id)
    named = [a for a in args if a.isdigit()]
    if named:
        games = [s for s in games if s.game_id == int(named[0])]
    if not games:
        await say(context, w, no_game)
        return None
    if len(games) > 1:
        each = [
            {"game": s.game_id, "game_label": await game_label(context, s.game_id)} for s in games
        ]
        choice = {"first": games[0].game_id, "games": each, "command": command}
        await say(context, w, "notebook.pick_game", choice)
        return None
    return games[0]
