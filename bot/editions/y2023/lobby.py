"""The 2023 edition's lobby post: each player chooses a character on it (first come, first
served; a taken one is shown locked and pressing it is refused by the engine)."""

from __future__ import annotations

from bot import callbacks as cb
from bot.announce.plan import Args, Buttons
from bot.payload import User
from engine.state import Game
from engine.y2023.cards import Y2023_PLAYERS


def character_args(game: Game) -> Args:
    """Who has chosen which character; whether two may play (the post says so)."""
    if not game.roles_chosen:
        return {}
    return {
        "characters": [
            {"user": User(e.user), "role": e.role} for e in game.lobby if e.role is not None
        ],
        "two_players": game.player_range[0] > Y2023_PLAYERS[0],
    }


def character_rows(game_id: int, game: Game) -> Buttons:
    """A button per character, two a row."""
    if not game.roles_chosen:
        return []
    taken = {e.role for e in game.lobby}
    buttons = [
        _character_button(game_id, i, suspect, suspect in taken)
        for i, suspect in enumerate(game.pack.suspects)
    ]
    return [buttons[i : i + 2] for i in range(0, len(buttons), 2)]


def _character_button(game_id: int, index: int, suspect: str, taken: bool) -> dict[str, str]:
    data = cb.Callback(cb.CHARACTER, game_id, (str(index),)).encode()
    if taken:
        return {"t": "button.character_taken", "room": suspect, "data": data}
    return {"card": suspect, "data": data}
