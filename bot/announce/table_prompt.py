"""The current player's turn prompt in the group (buttons only they may use), the
refuter's private prompt, and the board a post carries for its picture.

Button data (at most 64 bytes) names the game and the turn: `t:<game>:<turn>:<action>…`
(r roll, p passage, y stay, m<i> move into room i, w<i> towards room i, s[:i[:j]] the
suggestion composer, e end the turn, a accuse); `v:<game>:<suggestion>:<card index>` shows
a card; `b:<game>` is "I am back". Every press goes through the engine, which refuses what
is not the presser's to do."""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Buttons, Plan, user_at
from bot.delivery.payload import Card, Span, User
from engine import events as ev
from engine.board import BOARDS
from engine.board.model import Place, Square
from engine.cards import Category
from engine.state import Game
from engine.table.queries import TurnOptions, refutation_choices, turn_options
from engine.table.state import Step

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Events after which the current player has something new to do: a fresh prompt.
_PROMPTING = (
    ev.TurnStarted,
    ev.DiceRolled,
    ev.TokenMoved,
    ev.StayedToSuggest,
    ev.ClueCardDrawn,
    ev.CardShown,
    ev.NobodyRefuted,
    ev.GameResumed,
    ev.SeatReplaced,
)


def square_label(square: Square | list[int]) -> str:
    """A square as printed on the board's edges ("H18")."""
    return f"{COLUMNS[square[0]]}{square[1] + 1}"


def board_of(game: Game) -> dict[str, Any]:
    """What a post's picture shows: the board, every token's place, every weapon's room."""
    table = game.table
    assert table is not None
    board: dict[str, Any] = {
        "name": table.board,
        "tokens": [[s, list(p) if isinstance(p, tuple) else p] for s, p in table.tokens],
        "weapons": [[w, r] for w, r in table.weapons],
        "images": game.settings.images,
    }
    if table.liars is not None:  # the Liars Edition's Interrogation Room
        board["face_up"] = list(table.liars.face_up)
    return board


def place_of(raw: Any) -> Place:
    """A place from a stored board (a square comes back as a list)."""
    return raw if isinstance(raw, str) else (int(raw[0]), int(raw[1]))


def suggestion_key(game_id: int, number: int) -> str:
    return f"g{game_id}:ts{number}"


def prompt_key(game_id: int, number: int, user: int) -> str:
    """The refuter's private prompt for a table suggestion."""
    return f"g{game_id}:tprompt{number}:u{user}"


def _button(text: dict[str, Any], data: cb.Callback) -> dict[str, Any]:
    return {**text, "data": data.encode()}


def turn_data(game_id: int, turn: int, *action: str) -> cb.Callback:
    return cb.Callback(cb.TURN, game_id, (str(turn), *action))


def turn_buttons(game_id: int, game: Game, options: TurnOptions) -> Buttons:
    """The buttons of a turn's prompt: exactly what the engine lets the player do now."""
    assert game.table is not None
    turn = game.table.turn
    rooms = BOARDS[game.table.board].rooms
    rows: Buttons = []
    first: list[dict[str, Any]] = []
    if options.can_roll:
        first.append(_button({"t": "button.roll"}, turn_data(game_id, turn, "r")))
    if options.can_draw_clue:
        rows.append([_button({"t": "button.draw_clue"}, turn_data(game_id, turn, "c"))])
    if options.passage is not None:
        text = {"t": "button.passage", "room": options.passage}
        first.append(_button(text, turn_data(game_id, turn, "p")))
    if options.can_stay:
        first.append(_button({"t": "button.stay"}, turn_data(game_id, turn, "y")))
    if first:
        rows.append(first)
    for room in options.rooms:
        data = turn_data(game_id, turn, f"m{rooms.index(room)}")
        rows.append([_button({"t": "button.enter", "room": room}, data)])
    for room, _ in options.towards:
        data = turn_data(game_id, turn, f"w{rooms.index(room)}")
        rows.append([_button({"t": "button.towards", "room": room}, data)])
    last: list[dict[str, Any]] = []
    if options.suggest_in is not None:
        last.append(_button({"t": "button.suggest"}, turn_data(game_id, turn, "s")))
    if options.can_end_turn:
        last.append(_button({"t": "button.end_turn"}, turn_data(game_id, turn, "e")))
    if options.can_accuse:
        last.append(_button({"t": "button.accuse"}, turn_data(game_id, turn, "a")))
    if last:
        rows.append(last)
    return rows


def composer_buttons(game_id: int, game: Game, picks: tuple[str, ...]) -> Buttons:
    """The suggestion composer in the prompt: a suspect, then a weapon (the room is given)."""
    assert game.table is not None
    turn = game.table.turn
    category = Category.SUSPECT if not picks else Category.WEAPON
    rows: Buttons = [
        [_button({"card": card}, turn_data(game_id, turn, "s", *picks, str(i)))]
        for i, card in enumerate(game.in_play(category))
    ]
    rows.append([_button({"t": "button.back"}, turn_data(game_id, turn, "back"))])
    return rows


def prompt_args(game: Game, options: TurnOptions) -> tuple[str, dict[str, Any]]:
    """The prompt's message key and arguments for the current step."""
    table = game.table
    assert table is not None
    player = game.players[options.seat]
    here = table.place_of(player.role)
    args: dict[str, Any] = {
        "player": User(player.user),
        "suspect": Card(player.role),
        "turn": table.turn,
        "turn_time": Span.of(game.settings.turn_time),
        "where": Card(here) if isinstance(here, str) else None,
        "square": square_label(here) if not isinstance(here, str) else "",
    }
    if options.step is Step.MOVE:
        args["total"] = sum(table.dice)
        if options.can_draw_clue:
            return "y2023.prompt_glass", args
        if not (options.rooms or options.towards or options.can_stay or options.passage):
            return "table.prompt_stuck", args
        return "table.prompt_move", args
    if options.step is Step.MOVED and options.suggest_in is not None:
        return "table.prompt_suggest", {**args, "room": Card(options.suggest_in)}
    if options.step in (Step.MOVED, Step.SUGGESTED):
        return "table.prompt_after", args
    key = "table.prompt_roll_room" if isinstance(here, str) else "table.prompt_roll"
    if not options.can_accuse and options.can_roll:  # the 2023 edition: accuse from a room
        key = "y2023.prompt_roll"
    return key, args


def prompt_after(plan: Plan) -> None:
    """After a command that leaves the current player something to do: a fresh prompt."""
    game = plan.ctx.after
    table = game.table
    if game.settings.liars:
        from bot.announce.liars_prompt import liars_prompt_after  # it builds on this module

        liars_prompt_after(plan)
        return
    if table is None or not game.running or game.paused or table.step is Step.REFUTING:
        return
    if table.due is None or not any(isinstance(e, _PROMPTING) for e in plan.ctx.events):
        return
    player = game.players[table.current]
    options = turn_options(game, player.user)
    msg, args = prompt_args(game, options)
    last = plan.ctx.first_seq + len(plan.ctx.events) - 1
    plan.group(
        plan.key(last, "prompt"), msg, args, buttons=turn_buttons(plan.ctx.game_id, game, options)
    )


def refuter_prompt(plan: Plan, game: Game, number: int, seat: int) -> None:
    """The refuter's private prompt: exactly their matching cards as buttons."""
    user = user_at(game, seat)
    choices = refutation_choices(game, user)
    assert game.table is not None
    s = next(x for x in game.table.suggestions if x.number == number)
    rows: Buttons = [
        [
            _button(
                {"card": card},
                cb.Callback(cb.SHOW, plan.ctx.game_id, (str(number), str(game.deck.index(card)))),
            )
        ]
        for card in choices
    ]
    plan.private(
        prompt_key(plan.ctx.game_id, number, user),
        user,
        "dm.table_refute",
        {
            "suggester": User(user_at(game, s.suggester)),
            "suspect": Card(s.suspect),
            "weapon": Card(s.weapon),
            "place": Card(s.room),
            "refute_time": Span.of(game.settings.refute_time),
        },
        buttons=rows,
    )


def back_buttons(game_id: int) -> Buttons:
    return [[_button({"t": "button.back_to_table"}, cb.Callback(cb.BACK, game_id))]]
