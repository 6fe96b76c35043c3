"""The lobby's post (kept up to date; in the 2023 edition with its character buttons),
settings changes, and the start: roster, cards, hands."""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Args, Plan
from bot.delivery.payload import Card, Cards, Span, User, Users
from engine import events as ev
from engine.cards import CATEGORY_ORDER
from engine.codec import to_dict
from engine.settings import Y2023_PLAYERS, GameFormat
from engine.state import Game


def lobby_key(game_id: int) -> str:
    return f"g{game_id}:lobby"


def lobby_args(game: Game) -> Args:
    args: Args = {
        "creator": User(game.creator),
        "host": User(game.lobby_host or game.creator),  # an empty lobby: whoever joins next
        "players": Users(tuple(e.user for e in game.lobby)),
        "minimum": game.settings.player_range[0],
    }
    if choosing_characters(game):
        args["characters"] = [
            {"user": User(e.user), "role": e.role} for e in game.lobby if e.role is not None
        ]
        args["two_players"] = game.settings.player_range[0] > Y2023_PLAYERS[0]
    return args


def choosing_characters(game: Game) -> bool:
    """The 2023 edition's lobby: each player chooses a character on its post."""
    return game.settings.format is GameFormat.Y2023 and game.settings.roles_chosen


def lobby_buttons(game_id: int, game: Game) -> list[list[dict[str, str]]]:
    """Join / Leave, Start; then, in a 2023 lobby, a button per character (a taken one
    locked; pressing it is refused by the engine)."""
    rows = [
        [
            {"t": "button.join", "data": cb.Callback(cb.JOIN, game_id).encode()},
            {"t": "button.leave", "data": cb.Callback(cb.LEAVE, game_id).encode()},
        ],
        [{"t": "button.start", "data": cb.Callback(cb.START, game_id).encode()}],
    ]
    if choosing_characters(game):
        taken = {e.role for e in game.lobby}
        buttons = [
            _character_button(game_id, i, suspect, suspect in taken)
            for i, suspect in enumerate(game.pack.suspects)
        ]
        rows += [buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    return rows


def _character_button(game_id: int, index: int, suspect: str, taken: bool) -> dict[str, str]:
    data = cb.Callback(cb.CHARACTER, game_id, (str(index),)).encode()
    if taken:
        return {"t": "button.character_taken", "room": suspect, "data": data}
    return {"card": suspect, "data": data}


def roster(game: Game) -> list[dict[str, Any]]:
    return [{"user": User(p.user), "role": p.role} for p in game.players]


def cards_by_category(game: Game) -> dict[str, list[str]]:
    return {category.value: list(game.in_play(category)) for category in CATEGORY_ORDER}


def lobby_opened(plan: Plan, seq: int, e: ev.LobbyOpened, before: Game | None, after: Game) -> None:
    key = lobby_key(plan.ctx.game_id)
    lobby = lobby_args(plan.ctx.after)
    buttons = lobby_buttons(plan.ctx.game_id, plan.ctx.after)
    plan.group(key, "lobby.opened", lobby, buttons=buttons)


def lobby_changed(plan: Plan, seq: int, e: ev.Event, before: Game | None, after: Game) -> None:
    if plan.ctx.before is None:
        return  # the lobby's first post already shows it
    plan.edit(
        plan.key(seq, "lobby"),
        lobby_key(plan.ctx.game_id),
        "lobby.opened",
        lobby_args(after),
        buttons=lobby_buttons(plan.ctx.game_id, after),
    )


def settings_changed(
    plan: Plan, seq: int, e: ev.SettingsChanged, before: Game | None, after: Game
) -> None:
    encoded = to_dict(e.settings)
    values = {name: encoded[name] for name in e.changed}
    later = before is not None and before.running
    plan.group(
        plan.key(seq, "settings"), "settings.changed", {"settings": values, "from_next_day": later}
    )
    if not later:  # the lobby post shows the new minimum, or a 2023 lobby's characters
        lobby_changed(plan, seq, e, before, after)


def game_started(plan: Plan, seq: int, e: ev.GameStarted, before: Game | None, after: Game) -> None:
    game_id = plan.ctx.game_id
    plan.edit(
        plan.key(seq, "lobby"),
        lobby_key(game_id),
        "lobby.started",
        {"players": Users(tuple(d.user for d in e.seats))},
    )
    if plan.ctx.after.settings.classic:
        _table_started(plan, seq, e, after)
    else:
        _forum_started(plan, seq, after)
    for deal in e.seats:
        plan.private(
            plan.key(seq, f"hand{deal.user}"),
            deal.user,
            "dm.hand",
            {"hand": Cards(deal.hand), "role": Card(deal.role)},
        )


def _table_started(plan: Plan, seq: int, e: ev.GameStarted, after: Game) -> None:
    """The classic format: who plays which suspect, in turn order; the 21 cards."""
    plan.group(
        plan.key(seq, "start"),
        _started_key(after),
        {"roster": roster(after), "cards": cards_by_category(after), "dice": after.settings.dice},
    )


def _started_key(after: Game) -> str:
    """The opening words of a table game: the classic's or an edition's."""
    if after.settings.format == "y2023":
        return "y2023.started"
    return "liars.started" if after.settings.liars else "table.started"


def _forum_started(plan: Plan, seq: int, after: Game) -> None:
    plan.group(
        plan.key(seq, "start"),
        "game.started",
        {
            "roster": roster(after),
            "cards": cards_by_category(after),
            "per_day": after.settings.suggestions_per_day,
            "per_target": after.settings.max_per_target_per_day,
            "day_length": Span.of(after.settings.day_length),
        },
    )
