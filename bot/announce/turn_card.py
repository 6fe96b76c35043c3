"""The turn's card: one group post per table turn, the board's picture with the turn told in
its caption (a text with the board in words when pictures are off). It is posted when the
turn starts and edited when something public happens in it, so the thread reads one post
per turn and spends one call of the group's budget on each public step; the edits of one
card waiting for a slot go out as one (storage coalesces them), and its picture is sent
again only when the board changed (bot.delivery.sender).

The card is drawn from the turn's events (`Game.turn_log`): each event's line comes from
the game's edition (`Edition.lines`, the classic's in `card_lines`). Drawn the same way
before and after a command, it is edited only when it changed; so a line that waits for
what follows (the roll, told with the move) costs no call of its own, and the end of a
turn that its player ended costs none either (the next turn's card tells it). A turn
played with a suggestion: the post, the move, the suggestion with who could not refute,
who showed a card: four calls."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.announce.plan import Args, Buttons, Clock, Plan, seat_args
from bot.payload import Span
from engine import events as ev
from engine.computer import detective_level
from engine.events import Event
from engine.evolve import evolve
from engine.format import format_of
from engine.state import Game
from engine.table.queries import table_of
from engine.table.state import Step

CARD = "table.card"  # the card's catalog key (its composer: bot.editions.messages.turn_card)
Line = dict[str, Any]  # {"kind": a catalog key, "args": its arguments}
LineOf = Callable[[Any, Game, tuple[Event, ...]], Line | None]
"""One event's line on its turn's card: (the event, the game now, the turn's events);
None for an event the card does not tell."""
ButtonsOf = Callable[[int, Game], Buttons]
ClockOf = Callable[[Game], Clock | None]
"""The clock a card shows while it runs (its time counts from the card's delivery)."""


def line(kind: str, args: Args | None = None) -> Line:
    return {"kind": kind, "args": args or {}}


def card_key(game_id: int, turn: int) -> str:
    """The outbox key of a turn's card (its edits target it)."""
    return f"g{game_id}:card{turn}"


def card_turn(game: Game | None) -> int | None:
    """The turn whose events `game` holds (None before the first turn, or off the table)."""
    if game is None or not format_of(game).plays_turns(game) or not game.turn_log:
        return None
    first = game.turn_log[0]
    return first.turn if isinstance(first, ev.TurnStarted) else None


def card_args(game: Game, lines_of: Mapping[type[Event], LineOf]) -> Args | None:
    """The card of the turn `game` holds: who plays it, a line for each public event, and
    while the player is to act, where their buttons are."""
    log = game.turn_log
    if card_turn(game) is None:
        return None
    start = log[0]
    assert isinstance(start, ev.TurnStarted)
    lines = []
    for event in log[1:]:
        told = lines_of.get(type(event))
        shown = told(event, game, log) if told is not None else None
        if shown is not None:
            lines.append(shown)
    return {
        "turn": start.turn,
        **seat_args(game, start.seat),
        "lines": lines,
        "status": _status(game, start, bool(lines)),
    }


def _status(game: Game, start: ev.TurnStarted, told: bool) -> Line | None:
    """The card's pointer while its player is to act and nothing is told yet: where their
    buttons are (the first step told takes its place, in the same edit)."""
    if told:
        return None
    table = table_of(game)
    over = any(isinstance(e, ev.TurnEnded) for e in game.turn_log)
    live = game.running and not game.paused and table.turn == start.turn and table.due is not None
    live = live and not over
    if not live or table.step is Step.REFUTING or table.seats[start.seat].away:
        return None
    player = seat_args(game, start.seat)
    if detective_level(player["player"].id) is not None:
        return line("table.card_thinking", player)
    return line("table.card_playing", {**player, "turn_time": Span.of(game.settings.turn_time)})


def plan_card(
    plan: Plan,
    lines_of: Mapping[type[Event], LineOf],
    buttons_of: ButtonsOf,
    clock_of: ClockOf,
) -> None:
    """Post the card of a turn begun in this command; edit the card of a turn it changed
    (the turn it ended, in its final form, and the turn going on)."""
    ctx = plan.ctx
    ends: list[Game] = [
        before
        for event, before, _ in ctx.decision.steps()
        if isinstance(event, ev.TurnStarted) and before is not None
    ]
    ends.append(ctx.after)
    begun = {e.turn for e in ctx.events if isinstance(e, ev.TurnStarted)}
    was = card_args(ctx.before, lines_of) if ctx.before is not None else None
    last = ctx.first_seq + len(ctx.events) - 1
    for state in ends:
        card = card_args(state, lines_of)
        if card is None:
            continue
        turn = card["turn"]
        buttons = buttons_of(ctx.game_id, state)
        board = plan.board(state)
        clock = clock_of(state)
        if turn in begun:
            key = card_key(ctx.game_id, turn)
            plan.group(key, CARD, card, buttons=buttons, board=board, clock=clock)
            continue
        before = ctx.before
        assert before is not None
        same = was == card and plan.board(before) == board
        if not same or buttons_of(ctx.game_id, before) != buttons:
            key = plan.key(last, f"card{turn}")
            target = card_key(ctx.game_id, turn)
            plan.edit(key, target, CARD, card, buttons=buttons, board=board, clock=clock)


def no_card_buttons(game_id: int, game: Game) -> Buttons:
    """A card has no buttons (the Liars Edition's has Liar! while its window is open)."""
    return []


def no_card_clock(game: Game) -> Clock | None:
    """A card starts no clock (the Liars Edition's starts the Liar! window's)."""
    return None


def turn_cards(events: Iterable[Event], lines_of: Mapping[type[Event], LineOf]) -> list[Args]:
    """Every turn's card of a game in its last form, from its record (`/log` at the table)."""
    cards: list[Args] = []
    state: Game | None = None
    for event in events:
        if isinstance(event, ev.TurnStarted) and state is not None:
            done = card_args(state, lines_of)
            if done is not None:
                cards.append(done)
        state = evolve(state, event)
    last = card_args(state, lines_of) if state is not None else None
    return [*cards, last] if last is not None else cards
