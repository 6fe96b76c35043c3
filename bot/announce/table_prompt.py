"""The current player's turn prompt, in their private chat (buttons only they see), what
each of its presses asks the engine, and the refuter's private prompt.

Button data (at most 64 bytes) names the game and the turn: `t:<game>:<turn>:<action>…`
(r roll, p passage, y stay, c the clue card, m<i> move into room i, w<i> towards room i,
s[:i[:j]] the suggestion composer, e end the turn, a accuse); `v:<game>:<suggestion>:<card
index>` shows a card; `b:<game>` is "I am back". Every press goes through the engine, which
refuses what is not the presser's to do. `TurnPrompt` is the classic prompt; an edition with
other choices subclasses it (`bot/editions/`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

from bot import callbacks as cb
from bot.announce.plan import Args, Buttons, Plan, button, seat_args, user_at
from bot.payload import Card, Span, User
from bot.render.board_text import square_label
from engine import commands as cmd
from engine import events as ev
from engine.cards import Category
from engine.format import format_of
from engine.state import Game
from engine.table.queries import TurnOptions, refutation_choices, table_of, turn_options
from engine.table.setup import board_of
from engine.table.state import REFUTE_CLOCK, TURN_CLOCK, Step


class Options(Protocol):
    """What every edition's turn options tell the shared prompt code."""

    @property
    def seat(self) -> int: ...

    @property
    def suggest_in(self) -> str | None: ...


OptionsT = TypeVar("OptionsT", bound=Options)

SIMPLE: Mapping[str, Callable[[int], cmd.Command]] = (
    MappingProxyType(  # presses that need only the presser
        {
            "r": lambda me: cmd.Roll(actor=me),
            "p": lambda me: cmd.TakePassage(actor=me),
            "y": lambda me: cmd.StayToSuggest(actor=me),
            "e": lambda me: cmd.EndTurn(actor=me),
            "c": lambda me: cmd.DrawClue(actor=me),
        }
    )
)


def suggestion_key(game_id: int, number: int) -> str:
    return f"g{game_id}:ts{number}"


def prompt_key(game_id: int, number: int, user: int) -> str:
    """The refuter's private prompt for a table suggestion."""
    return f"g{game_id}:tprompt{number}:u{user}"


def turn_data(game_id: int, turn: int, *action: str) -> cb.Callback:
    return cb.Callback(cb.TURN, game_id, (str(turn), *action))


def simple_press(me: int, action: str) -> cmd.Command | None:
    """A press that needs nothing but the presser (roll, passage, stay, clue card, end)."""
    kind = SIMPLE.get(action)
    return kind(me) if kind is not None else None


class TurnPrompt(Generic[OptionsT]):
    """A table edition's turn prompt: the options it offers, their message and buttons,
    when a fresh one is posted, and what each of its presses asks the engine."""

    def options(self, game: Game, user: int) -> OptionsT:
        """What `user` may do now (a RuleError if it is not their turn)."""
        raise NotImplementedError

    def args(self, game: Game, options: OptionsT) -> tuple[str, Args]:
        """The prompt's message key and arguments for the current step."""
        raise NotImplementedError

    def buttons(self, game_id: int, game: Game, options: OptionsT) -> Buttons:
        """The prompt's buttons: exactly what the engine lets the player do now."""
        raise NotImplementedError

    def press(self, game: Game, me: int, action: str) -> cmd.Command | None:
        """The command of a press on this prompt (None: none of its buttons)."""
        raise NotImplementedError

    def waiting(self, game: Game) -> bool:
        """Whether the current player waits on the others (no prompt meanwhile)."""
        return False

    def current(self, game_id: int, game: Game, me: int) -> tuple[str, Args, Buttons]:
        """The prompt as it stands for `me`."""
        options = self.options(game, me)
        msg, args = self.args(game, options)
        return msg, args, self.buttons(game_id, game, options)

    def after(self, plan: Plan) -> None:
        """The current player's prompt, in their private chat (their own budget of messages,
        not the group's): one message a turn, posted when the turn starts (or the seat changes
        hands), edited in place as the turn goes on (the next step's buttons, or what they
        wait for), and closed, its buttons gone, when the turn is over."""
        ctx = plan.ctx
        before, game = ctx.before, ctx.after
        if game.paused or (before is not None and before.paused):
            return  # a pause changes nothing in it (its presses are refused meanwhile)
        last = ctx.first_seq + len(ctx.events) - 1
        old = self.shown(ctx.game_id, before) if before is not None else None
        now = self.shown(ctx.game_id, game)
        if old is not None and (now is None or now.key != old.key):
            over = {"turn": old.turn}
            plan.edit(plan.key(last, "tpover"), old.key, "table.prompt_over", over, user=old.user)
        if now is None:
            return
        fresh = any(isinstance(e, ev.TurnStarted | ev.SeatReplaced) for e in ctx.events)
        if fresh or old is None or old.key != now.key:
            begun = any(isinstance(e, ev.TurnStarted) for e in ctx.events)
            clock = (TURN_CLOCK, now.turn) if begun else None  # the turn's time runs from it
            plan.private(now.key, now.user, now.msg, now.args, buttons=now.buttons, clock=clock)
        elif now != old:
            key = plan.key(last, "tprompt")
            plan.edit(key, now.key, now.msg, now.args, user=now.user, buttons=now.buttons)

    def shown(self, game_id: int, game: Game) -> Shown | None:
        """The prompt as the current player's private chat shows it now (None: no turn is
        being played, or the game is paused)."""
        if not format_of(game).plays_turns(game) or not game.running or game.paused:
            return None
        table = table_of(game)
        if table.due is None:
            return None
        user = game.players[table.current].user
        key = turn_prompt_key(game_id, table.turn, user)
        if table.step is Step.REFUTING or self.waiting(game):
            args = seat_args(game, table.current)
            return Shown(key, user, table.turn, "table.prompt_wait", args, [])
        msg, args, buttons = self.current(game_id, game, user)
        return Shown(key, user, table.turn, msg, args, buttons)


@dataclass(frozen=True)
class Shown:
    """A turn prompt as shown: its message's key, whose it is, the turn, its text and buttons."""

    key: str
    user: int
    turn: int
    msg: str
    args: Args
    buttons: Buttons


def turn_prompt_key(game_id: int, turn: int, user: int) -> str:
    """The current player's private prompt of one turn (edited in place as the turn goes)."""
    return f"g{game_id}:tp{turn}:u{user}"


class ClassicPrompt(TurnPrompt[TurnOptions]):
    """The classic prompt: roll (or the passage, or stay), then the rooms within the roll
    and the way towards each room out of reach; suggest, end the turn, accuse."""

    def options(self, game: Game, user: int) -> TurnOptions:
        return turn_options(game, user)

    def args(self, game: Game, options: TurnOptions) -> tuple[str, Args]:
        table = table_of(game)
        player = game.players[options.seat]
        here = table.place_of(player.role)
        args: dict[str, Any] = {
            **seat_args(game, options.seat),
            "turn": table.turn,
            "turn_time": Span.of(game.settings.turn_time),
            "where": Card(here) if isinstance(here, str) else None,
            "square": square_label(here) if not isinstance(here, str) else "",
        }
        if options.step is Step.MOVE:
            args["total"] = sum(table.dice)
            if options.can_end_turn:  # the roll left no move at all
                return "table.prompt_stuck", args
            return "table.prompt_move", args
        if options.step is Step.MOVED and options.suggest_in is not None:
            return "table.prompt_suggest", {**args, "room": Card(options.suggest_in)}
        if options.step in (Step.MOVED, Step.SUGGESTED):  # accusing only where the edition allows
            return ("table.prompt_after" if options.can_accuse else "table.prompt_end"), args
        return "table.prompt_roll_room" if isinstance(here, str) else "table.prompt_roll", args

    def buttons(self, game_id: int, game: Game, options: TurnOptions) -> Buttons:
        table = table_of(game)
        turn = table.turn
        rooms = board_of(game).rooms
        rows: Buttons = []
        first: list[dict[str, Any]] = []
        if options.can_roll:
            first.append(button({"t": "button.roll"}, turn_data(game_id, turn, "r")))
        if options.can_draw_clue:
            rows.append([button({"t": "button.draw_clue"}, turn_data(game_id, turn, "c"))])
        if options.passage is not None:
            text = {"t": "button.passage", "room": options.passage}
            first.append(button(text, turn_data(game_id, turn, "p")))
        if options.can_stay:
            first.append(button({"t": "button.stay"}, turn_data(game_id, turn, "y")))
        if first:
            rows.append(first)
        for room in options.rooms:
            data = turn_data(game_id, turn, f"m{rooms.index(room)}")
            rows.append([button({"t": "button.enter", "room": room}, data)])
        for room, _ in options.towards:
            data = turn_data(game_id, turn, f"w{rooms.index(room)}")
            rows.append([button({"t": "button.towards", "room": room}, data)])
        rows.extend(last_row(game_id, turn, options.suggest_in, options))
        return rows

    def press(self, game: Game, me: int, action: str) -> cmd.Command | None:
        """Roll, passage, stay, clue card, end; into room i (m<i>); towards room i (w<i>)."""
        rooms = board_of(game).rooms
        if action[:1] == "m":
            return cmd.Move(actor=me, to=rooms[cb.index(action[1:], len(rooms))])
        if action[:1] == "w":
            room = rooms[cb.index(action[1:], len(rooms))]
            square = dict(turn_options(game, me).towards).get(room)
            if square is None:
                raise cb.Malformed("no way towards that room now")
            return cmd.Move(actor=me, to=square)
        return simple_press(me, action)


class Ending(Protocol):
    """The options that end a prompt's buttons: end the turn, accuse."""

    @property
    def can_end_turn(self) -> bool: ...

    @property
    def can_accuse(self) -> bool: ...


def last_row(game_id: int, turn: int, suggest_in: str | None, options: Ending) -> Buttons:
    """The prompt's last row: suggest, end the turn, accuse (what of them may be done)."""
    last: list[dict[str, Any]] = []
    if suggest_in is not None:
        last.append(button({"t": "button.suggest"}, turn_data(game_id, turn, "s")))
    if options.can_end_turn:
        last.append(button({"t": "button.end_turn"}, turn_data(game_id, turn, "e")))
    if options.can_accuse:
        last.append(button({"t": "button.accuse"}, turn_data(game_id, turn, "a")))
    return [last] if last else []


def composer_buttons(game_id: int, game: Game, picks: tuple[str, ...]) -> Buttons:
    """The suggestion composer in the prompt: a suspect, then a weapon (the room is given)."""
    turn = table_of(game).turn
    category = Category.SUSPECT if not picks else Category.WEAPON
    rows: Buttons = [
        [button({"card": card}, turn_data(game_id, turn, "s", *picks, str(i)))]
        for i, card in enumerate(game.in_play(category))
    ]
    rows.append([button({"t": "button.back"}, turn_data(game_id, turn, "back"))])
    return rows


def refuter_prompt(plan: Plan, game: Game, number: int, seat: int) -> None:
    """The refuter's private prompt: exactly their matching cards as buttons."""
    user = user_at(game, seat)
    choices = refutation_choices(game, user)
    s = next(x for x in table_of(game).suggestions if x.number == number)
    rows: Buttons = [
        [
            button(
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
        clock=(REFUTE_CLOCK, number),  # the refuter's time runs from its delivery
    )


def back_buttons(game_id: int) -> Buttons:
    return [[button({"t": "button.back_to_table"}, cb.Callback(cb.BACK, game_id))]]
