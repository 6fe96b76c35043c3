"""The Liars Edition's turn prompt in the group: buttons only the current player may use,
exactly the engine's options (before rolling: roll and accuse; after it: the rooms around
the ring, the passage and stay; then suggest, read the investigation card as one of its
actions, the free move, whose cards to peek at, end — once the card is played).

Button data `t:<game>:<turn>:<action>` as the classic's (r, p, y, s…, e, a), with
m<i> move to ring room i, i<k> read action k (move, pass, peek), f<i> the free move to
ring room i, k<seat> peek at a seat."""

from __future__ import annotations

from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Args, Buttons, button, seat_args
from bot.announce.table_prompt import TurnPrompt, last_row, simple_press, turn_data
from bot.payload import Card, Span
from engine import commands as cmd
from engine.liars import commands as lcmd
from engine.liars.cards import RING, Action
from engine.liars.queries import LiarsOptions, liars_options
from engine.liars.state import Stage
from engine.liars.turns import others_answering
from engine.state import Game
from engine.table.state import Step

ACTIONS: tuple[Action, ...] = tuple(Action)


class LiarsPrompt(TurnPrompt[LiarsOptions]):
    """The prompt of a turn around the ring, with the investigation card's actions."""

    def options(self, game: Game, user: int) -> LiarsOptions:
        return liars_options(game, user)

    def waiting(self, game: Game) -> bool:
        return others_answering(game)

    def buttons(self, game_id: int, game: Game, o: LiarsOptions) -> Buttons:
        assert game.table is not None
        turn = game.table.turn
        rows: Buttons = []
        if o.can_roll:
            rows.append([button({"t": "button.roll"}, turn_data(game_id, turn, "r"))])
        for room in o.rooms:
            data = turn_data(game_id, turn, f"m{RING.index(room)}")
            rows.append([button({"t": "button.enter", "room": room}, data)])
        instead: list[dict[str, Any]] = []  # after the roll, instead of moving by it
        if o.passage is not None:
            instead.append(
                button({"t": "button.passage", "room": o.passage}, turn_data(game_id, turn, "p"))
            )
        if o.can_stay:
            instead.append(button({"t": "button.stay_here"}, turn_data(game_id, turn, "y")))
        if instead:
            rows.append(instead)
        for room in o.move_anywhere:
            data = turn_data(game_id, turn, f"f{RING.index(room)}")
            rows.append([button({"t": "button.enter", "room": room}, data)])
        for seat in o.peek_at:
            data = turn_data(game_id, turn, f"k{seat}")
            rows.append([button({"user": game.players[seat].user}, data)])
        for action in o.reads:
            data = turn_data(game_id, turn, f"i{ACTIONS.index(action)}")
            rows.append([button({"t": f"button.read_{action.value}"}, data)])
        rows.extend(last_row(game_id, turn, o.suggest_in, o))
        return rows

    def args(self, game: Game, o: LiarsOptions) -> tuple[str, Args]:
        table = game.table
        assert table is not None
        player = game.players[o.seat]
        args: dict[str, Any] = {
            **seat_args(game, o.seat),
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

    def press(self, game: Game, me: int, action: str) -> cmd.Command | None:
        """Into ring room i (m<i>), the free move (f<i>), the card read as action k (i<k>),
        a peek at a seat (k<seat>); else the classic's roll, passage, stay, end."""
        kind, rest = action[:1], action[1:]
        if kind == "m":
            return cmd.Move(actor=me, to=RING[cb.index(rest, len(RING))])
        if kind == "f":
            return lcmd.MoveAnywhere(actor=me, room=RING[cb.index(rest, len(RING))])
        if kind == "i":
            played = ACTIONS[cb.index(rest, len(ACTIONS))].value
            return lcmd.PlayInvestigation(actor=me, action=played)
        if kind == "k":
            return lcmd.PeekAt(actor=me, seat=cb.index(rest, len(game.players)))
        return simple_press(me, action)
