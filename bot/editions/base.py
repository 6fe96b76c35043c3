"""What an edition is on the bot side: how its game is announced, prompted, worded and
drawn. The registry (`bot.editions.registry`) finds a game's edition, and `planning` and
`messages` hand the shared code what it needs of it; an edition gives only what differs
from the defaults (the classic's where the table has one). A new edition is a module or
package under `bot/editions/` that builds an `Edition`, a line in the registry, and its
texts in the catalogs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.announce.plan import Args, BoardOf, Buttons, Handler, board_args
from bot.announce.table_prompt import TurnPrompt
from bot.announce.toasts import ToastOf
from bot.announce.turn_card import ButtonsOf, ClockOf, LineOf, no_card_buttons, no_card_clock
from bot.render.board_view import BoardView
from bot.render.wording import Composer
from engine.events import Event
from engine.state import Game


def no_lobby_rows(game_id: int, game: Game) -> Buttons:
    return []


def no_lobby_args(game: Game) -> Args:
    return {}


def nothing_seen(game: Game, seat: int) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True)
class Edition:
    """One format's presentation; `key` is the engine's format's (engine/format.py), which
    answers the rules' questions (days or turns, ...): this gives only how it is shown."""

    key: str
    words: tuple[str, ...]  # /newgame <word>: its name (and each catalog's edition.words_KEY)
    rules: str  # the catalog key of /rules in a game of this format
    rules_words: tuple[str, ...] = ()  # /rules <word> in any chat (and edition.words_KEY)
    started: str = "table.started"  # the catalog key of the start's post
    # its own events' planners, and any shared event it words its own way (planned first)
    planners: Mapping[type[Event], Handler] = field(default_factory=dict)
    prompt: TurnPrompt[Any] | None = None  # the current player's turn prompt
    # its own events' lines on a turn's card, and any shared event it words its own way
    lines: Mapping[type[Event], LineOf] = field(default_factory=dict)
    card_buttons: ButtonsOf = no_card_buttons  # the buttons of a turn's card in the group
    card_clock: ClockOf = no_card_clock  # the clock a turn's card starts when delivered
    composers: Mapping[str, Composer] = field(default_factory=dict)  # its messages' texts
    boards: Mapping[str, BoardView] = field(default_factory=dict)  # board name -> drawing
    board: BoardOf = board_args  # what a post's picture shows of its game
    lobby_args: Callable[[Game], Args] = no_lobby_args  # more for the lobby post
    lobby_rows: Callable[[int, Game], Buttons] = no_lobby_rows  # more lobby buttons
    also_seen: Callable[[Game, int], tuple[str, ...]] = nothing_seen  # /hand's extra cards
    toasts: Mapping[type[Event], ToastOf] = field(default_factory=dict)  # its presses'
