"""The Liars Edition's turn prompt in the group: buttons only the current player may use,
exactly the engine's options (before rolling: roll and accuse; after it: the rooms around
the ring, the passage and stay; then suggest, read the investigation card as one of its
actions, the free move, whose cards to peek at, end — once the card is played).

Button data `t:<game>:<turn>:<action>` as the classic's (r, p, y, s…, e, a), with
m<i> move to ring room i, i<k> read action k (move, pass, peek), f<i> the free move to
ring room i, k<seat> peek at a seat."""

from __future__ import annotations

from typing import Any

from bot.announce.plan import Buttons, Plan
from bot.announce.table_prompt import _button, turn_data
from bot.delivery.payload import Card, Span, User
from engine import events as ev
from engine.liars import events as lev
from engine.liars.cards import RING, Action
from engine.liars.queries import LiarsOptions, liars_options
from engine.liars.state import Stage
from engine.liars.turns import others_answering
from engine.state import Game
from engine.table.state import Step

ACTIONS: tuple[Action, ...] = tuple(Action)
_PROMPTING = (
    ev.TurnStarted,
    ev.DiceRolled,
    ev.TokenMoved,
    ev.StayedToSuggest,
    ev.CardShown,
    ev.NobodyRefuted,
    ev.GameResumed,
    ev.SeatReplaced,
    lev.ActionBegun,
    lev.CardExposed,
    lev.CardsPassed,
    lev.Peeked,
)


def liars_buttons(game_id: int, game: Game, o: LiarsOptions) -> Buttons:
    """The prompt's buttons: exactly what the engine lets the player do now."""
    assert game.table is not None
    turn = game.table.turn
    rows: Buttons = []
    if o.can_roll:
        rows.append([_button({"t": "button.roll"}, turn_data(game_id, turn, "r"))])
    for room in o.rooms:
        data = turn_data(game_id, turn, f"m{RING.index(room)}")
        rows.append([_button({"t": "button.enter", "room": room}, data)])
    instead: list[dict[str, Any]] = []  # after the roll, instead of moving by it
    if o.passage is not None:
        instead.append(
            _button({"t": "button.passage", "room": o.passage}, turn_data(game_id, turn, "p"))
        )
    if o.can_stay:
        instead.append(_button({"t": "button.stay_here"}, turn_data(game_id, turn, "y")))
    if instead:
        rows.append(instead)
    for room in o.move_anywhere:
        data = turn_data(game_id, turn, f"f{RING.index(room)}")
        rows.append([_button({"t": "button.enter", "room": room}, data)])
    for seat in o.peek_at:
        data = turn_data(game_id, turn, f"k{seat}")
        rows.append([_button({"user": game.players[seat].user}, data)])
    for action in o.reads:
        data = turn_data(game_id, turn, f"i{ACTIONS.index(action)}")
        rows.append([_button({"t": f"button.read_{action.value}"}, data)])
    last: list[dict[str, Any]] = []
    if o.suggest_in is not None:
        last.append(_button({"t": "button.suggest"}, turn_data(game_id, turn, "s")))
    if o.can_end_turn:
        last.append(_button({"t": "button.end_turn"}, turn_data(game_id, turn, "e")))
    if o.can_accuse:
        last.append(_button({"t": "button.accuse"}, turn_data(game_id, turn, "a")))
    if last:
        rows.append(last)
    return rows


def liars_prompt_args(game: Game, o: LiarsOptions) -> tuple[str, dict[str, Any]]:
    """The prompt's message key and arguments for the current step."""
    table = game.table
    assert table is not None
    player = game.players[o.seat]
    args: dict[str, Any] = {
        "player": User(player.user),
        "suspect": Card(player.role),
        "turn": table.turn,
        "turn_time": Span.of(game.settings.turn_time),
        "where": Card(str(table.place_of(player.role))),
    }
    if o.step is Step.ROLL:
        return "liars.prompt_roll", args
    if o.step is Step.MOVE:
        args["total"] = sum(table.dice)
        if o.passage is not None:
            return "liars.prompt_move_passage", {**args, "passage": Card(o.passage)}
        return "liars.prompt_move", args
    if o.stage is Stage.FREE_MOVE:
        return "liars.prompt_anywhere", args
    if o.stage is Stage.PEEK:
        return "liars.prompt_peek", args
    skip = "_skip" if o.skips_card else ""  # no evidence in hand: the turn says so
    if o.suggest_in is not None:
        key = "liars.prompt_suggest_read" if o.reads else f"liars.prompt_suggest{skip}"
        return key, args
    if o.reads:
        return "liars.prompt_read", args
    return f"liars.prompt_after{skip}", args


def liars_prompt_after(plan: Plan) -> None:
    """After a command that leaves the current player something to do: a fresh prompt."""
    game = plan.ctx.after
    table = game.table
    if table is None or not game.running or game.paused or table.step is Step.REFUTING:
        return
    if table.due is None or others_answering(game):
        return
    if not any(isinstance(e, _PROMPTING) for e in plan.ctx.events):
        return
    player = game.players[table.current]
    options = liars_options(game, player.user)
    msg, args = liars_prompt_args(game, options)
    last = plan.ctx.first_seq + len(plan.ctx.events) - 1
    buttons = liars_buttons(plan.ctx.game_id, game, options)
    plan.group(plan.key(last, "prompt"), msg, args, buttons=buttons)
