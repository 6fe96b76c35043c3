"""Private composers with buttons: a suggestion (target, suspect, weapon, place, confirm)
and an accusation (suspect, weapon, place, explicit confirmation).

The whole choice so far travels in the callback data (seat and card indexes), so a
composer survives restarts and needs no server-side conversation state.
"""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Buttons, button, triple
from bot.editions.messages import Compose
from bot.payload import Cards, User
from bot.render.keyboards import buttons_markup
from bot.render.reader import Reader
from engine.cards import CATEGORY_ORDER
from engine.state import Game, Player


def _cancel(game_id: int) -> list[dict[str, str]]:
    return [button({"t": "button.cancel"}, cb.Callback(cb.CANCEL, game_id))]


def chosen_cards(game: Game, indexes: list[str]) -> list[str]:
    """Card ids from the indexes chosen so far (into the in-play list of each category).

    More than three, or any index out of range, is button data we never sent (Malformed).
    """
    if len(indexes) > len(CATEGORY_ORDER):
        raise cb.Malformed("too many cards")
    return [
        game.in_play(category)[cb.index(position, len(game.in_play(category)))]
        for category, position in zip(CATEGORY_ORDER, indexes, strict=False)
    ]


def chosen_target(game: Game, me: int, seat: str) -> Player:
    """The seat chosen as a suggestion's target: in range, and never one's own (Malformed)."""
    target = game.players[cb.index(seat, len(game.players))]
    if target.user == me:
        raise cb.Malformed("own seat")
    return target


def suggestion_step(
    game_id: int, game: Game, me: int, args: tuple[str, ...]
) -> tuple[str, dict[str, Any], Buttons]:
    """The next screen of the suggestion composer: (message key, its args, its buttons)."""
    if not args:
        rows = [
            [
                button(
                    {"user": str(p.user), "t": "button.player"},
                    cb.Callback(cb.SUGGEST, game_id, (str(p.seat),)),
                )
            ]
            for p in game.players
            if p.user != me
        ]
        return "composer.choose_target", {"game": game_id}, [*rows, _cancel(game_id)]
    seat, picks = args[0], list(args[1:])
    target = chosen_target(game, me, seat).user
    cards = chosen_cards(game, picks)
    base = {"game": game_id, "target": User(target), "chosen": Cards(tuple(cards))}
    if len(picks) < 3:
        category = CATEGORY_ORDER[len(picks)]
        rows = [
            [button({"card": card}, cb.Callback(cb.SUGGEST, game_id, (*args, str(i))))]
            for i, card in enumerate(game.in_play(category))
        ]
        return f"composer.choose_{category.value}", base, [*rows, _cancel(game_id)]
    me_player = game.player_of(me)
    number = str(game.made_today(me_player.seat) + 1) if me_player else "0"
    send = cb.Callback(cb.SUGGEST_SEND, game_id, (number, *args))
    confirm = button({"t": "button.confirm_suggestion"}, send)
    suspect, weapon, place = cards
    return (
        "composer.confirm_suggestion",
        {**base, **triple(suspect, weapon, place)},
        [[confirm], _cancel(game_id)],
    )


def accusation_step(
    game_id: int, game: Game, args: tuple[str, ...]
) -> tuple[str, dict[str, Any], Buttons]:
    """The next screen of the accusation composer."""
    picks = list(args)
    cards = chosen_cards(game, picks)
    if len(picks) < 3:
        category = CATEGORY_ORDER[len(picks)]
        rows = [
            [button({"card": card}, cb.Callback(cb.ACCUSE, game_id, (*args, str(i))))]
            for i, card in enumerate(game.in_play(category))
        ]
        chosen = {"game": game_id, "chosen": Cards(tuple(cards))}
        return f"accuse.choose_{category.value}", chosen, [*rows, _cancel(game_id)]
    confirm = button({"t": "button.confirm_accusation"}, cb.Callback(cb.ACCUSE_SEND, game_id, args))
    suspect, weapon, place = cards
    return (
        "accuse.confirm",
        triple(suspect, weapon, place),
        [[confirm], _cancel(game_id)],
    )


def screen(
    compose: Compose, reader: Reader, msg: str, args: dict[str, Any], buttons: Buttons
) -> tuple[str, list[list[dict[str, str]]]]:
    """Text and inline keyboard of a composer screen, in the reader's language."""
    return compose(reader, msg, args), buttons_markup(reader, buttons)
