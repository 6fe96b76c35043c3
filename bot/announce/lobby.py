"""The lobby's post (kept up to date, with what the edition adds: the 2023 edition's
character buttons), settings changes, and the start: roster, cards, hands."""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Args, Buttons, Plan, Presentation
from bot.payload import Card, Cards, Span, User, Users, cards_listing
from bot.settings_controls import shown
from engine import REGISTRY
from engine import events as ev
from engine.computer import Level, detective_level
from engine.format import format_of
from engine.state import Game


def lobby_key(game_id: int) -> str:
    return f"g{game_id}:lobby"


def lobby_args(edition: Presentation, game: Game) -> Args:
    """The lobby post's arguments, with what the game's edition adds (its characters)."""
    return {
        "creator": User(game.creator),
        "host": User(game.lobby_host or game.creator),  # an empty lobby: whoever joins next
        "players": Users(tuple(e.user for e in game.lobby)),
        "minimum": game.player_range[0],
        "notebook": game.settings.notebook.value,  # everyone plays under the same help
        **edition.lobby_args(game),
    }


def lobby_buttons(edition: Presentation, game_id: int, game: Game) -> Buttons:
    """Join / Leave, Start; then the edition's own (a 2023 lobby's character buttons)."""
    rows: Buttons = [
        [
            {"t": "button.join", "data": cb.Callback(cb.JOIN, game_id).encode()},
            {"t": "button.leave", "data": cb.Callback(cb.LEAVE, game_id).encode()},
        ],
        [{"t": "button.start", "data": cb.Callback(cb.START, game_id).encode()}],
        _detective_row(game_id, game),
    ]
    return rows + edition.lobby_rows(game_id, game)


def _detective_row(game_id: int, game: Game) -> list[dict[str, str]]:
    """A computer detective of each level to add; and, once one sits, one to take out."""
    row = [
        {
            "t": f"button.detective_{level}",
            "data": cb.Callback(cb.DETECTIVE, game_id, (level,)).encode(),
        }
        for level in Level
    ]
    if any(detective_level(e.user) is not None for e in game.lobby):
        row.append(
            {
                "t": "button.detective_out",
                "data": cb.Callback(cb.DETECTIVE, game_id, ("-",)).encode(),
            }
        )
    return row


def roster(game: Game) -> list[dict[str, Any]]:
    return [{"user": User(p.user), "role": p.role} for p in game.players]


def lobby_opened(plan: Plan, seq: int, e: ev.LobbyOpened, before: Game | None, after: Game) -> None:
    key = lobby_key(plan.ctx.game_id)
    lobby = lobby_args(plan.edition, plan.ctx.after)
    buttons = lobby_buttons(plan.edition, plan.ctx.game_id, plan.ctx.after)
    plan.group(key, "lobby.opened", lobby, buttons=buttons)


def lobby_changed(plan: Plan, seq: int, e: ev.Event, before: Game | None, after: Game) -> None:
    if plan.ctx.before is None:
        return  # the lobby's first post already shows it
    plan.edit(
        plan.key(seq, "lobby"),
        lobby_key(plan.ctx.game_id),
        "lobby.opened",
        lobby_args(plan.edition, after),
        buttons=lobby_buttons(plan.edition, plan.ctx.game_id, after),
    )


def settings_changed(
    plan: Plan, seq: int, e: ev.SettingsChanged, before: Game | None, after: Game
) -> None:
    played = format_of(after)  # the game's own format, besides the shipped ones
    specs = {**REGISTRY.specs, played.key: played.spec}
    values = {name: shown(e.settings, name, specs) for name in e.changed}
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
    if not format_of(after).has_days:
        _table_started(plan, seq, e, after, plan.edition.started)
    else:
        _forum_started(plan, seq, after)
    for deal in e.seats:
        plan.private(
            plan.key(seq, f"hand{deal.user}"),
            deal.user,
            "dm.hand",
            {"hand": Cards(deal.hand), "role": Card(deal.role)},
        )


def _table_started(plan: Plan, seq: int, e: ev.GameStarted, after: Game, msg: str) -> None:
    """At the table: who plays which suspect, in turn order; the cards (`msg`: the
    edition's opening words)."""
    plan.group(
        plan.key(seq, "start"),
        msg,
        {
            "roster": roster(after),
            "cards": cards_listing(after.in_play),
            "dice": after.settings.dice,
        },
    )


def _forum_started(plan: Plan, seq: int, after: Game) -> None:
    plan.group(
        plan.key(seq, "start"),
        "game.started",
        {
            "roster": roster(after),
            "cards": cards_listing(after.in_play),
            "per_day": after.settings.suggestions_per_day,
            "per_target": after.settings.max_per_target_per_day,
            "day_length": Span.of(after.settings.day_length),
        },
    )
