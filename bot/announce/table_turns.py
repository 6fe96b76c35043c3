"""The classic format at the table, what each event tells in private and the posts of their
own (the board set up, a player marked away); what a turn tells the group is its card
(`bot.announce.turn_card`, the lines in `bot.announce.card_lines`).

Secrecy: the group never learns a card shown or an accusation's cards (the end reveals
them); the shown card goes to the suggester alone, the refuter's choices to the refuter."""

from __future__ import annotations

from bot.announce import table_prompt
from bot.announce.plan import Plan, seat_args, triple, user_at
from bot.payload import Card, Moment, Span, User
from engine import events as ev
from engine.format import format_of
from engine.state import Game
from engine.table.edition import table_edition
from engine.table.queries import pending_suggestion, table_of
from engine.table.state import TurnEnd


def dice_count(game: Game) -> int:
    """How many dice a turn rolls (the edition's rule, read from the engine)."""
    return table_edition(game).dice(game)


def board_set_up(plan: Plan, seq: int, e: ev.BoardSetUp, before: Game | None, after: Game) -> None:
    """The board's first picture: every token on its start, the weapons in their rooms."""
    announce_board(plan, seq, after, "table.board")


def announce_board(plan: Plan, seq: int, after: Game, msg: str) -> None:
    """The board's first picture with `msg`, the edition's words: the dice a turn rolls and
    the turn's time."""
    plan.group(
        plan.key(seq, "board"),
        msg,
        {"dice": dice_count(after), "turn_time": Span.of(after.settings.turn_time)},
        board=plan.board(after),
    )


def told_on_card(plan: Plan, seq: int, e: ev.Event, before: Game | None, after: Game) -> None:
    """Told on the turn's card alone (`bot.announce.card_lines`), or by the prompt."""


def refuter_asked(
    plan: Plan, seq: int, e: ev.RefuterAsked, before: Game | None, after: Game
) -> None:
    """The refuter gets exactly their matching cards (the card tells who is choosing)."""
    pending = pending_suggestion(plan.ctx.after)
    if pending is None or pending.number != e.suggestion or pending.refuter != e.seat:
        return  # answered in the same command (the GM, for a player away)
    if format_of(after).plays_turns(after) and table_of(after).seats[e.seat].away:
        return
    table_prompt.refuter_prompt(plan, after, e.suggestion, e.seat)


def card_shown(plan: Plan, seq: int, e: ev.CardShown, before: Game | None, after: Game) -> None:
    """The card to the suggester alone (the turn's card tells who showed, never which)."""
    s = next(x for x in table_of(after).suggestions if x.number == e.suggestion)
    suggester, refuter = user_at(after, s.suggester), user_at(after, e.seat)
    names = {"player": User(refuter), "suggester": User(suggester)}
    plan.private(
        plan.key(seq, "card"),
        suggester,
        "dm.table_card_shown_gm" if e.by_gm else "dm.table_card_shown",
        {"player": User(refuter), "shown": Card(e.card)},
    )
    prompted = table_prompt.prompt_key(plan.ctx.game_id, e.suggestion, refuter)
    if e.by_gm:
        plan.private(
            plan.key(seq, "gm"), refuter, "dm.table_gm_showed", {**names, "shown": Card(e.card)}
        )
    if not _asked_now(plan, e.suggestion, e.seat):
        plan.edit(
            plan.key(seq, "closed"),
            prompted,
            "dm.table_prompt_closed",
            {**names, "shown": Card(e.card), "by_gm": e.by_gm},
            user=refuter,
        )


def _asked_now(plan: Plan, suggestion: int, seat: int) -> bool:
    """The refuter was asked within this command (no prompt was sent to close)."""
    return any(
        isinstance(x, ev.RefuterAsked) and x.suggestion == suggestion and x.seat == seat
        for x in plan.ctx.events
    )


def accused(plan: Plan, seq: int, e: ev.AccusedAtTable, before: Game | None, after: Game) -> None:
    """The accuser gets their own accusation back; the turn's card tells the group who
    accused and whether it was right, not the cards (the end post shows them). No post of
    its own: a right one is followed by the end post, a wrong one by the next turn's card."""
    who = seat_args(after, e.seat)
    plan.private(
        plan.key(seq, "receipt"),
        who["player"].id,
        "dm.table_accused_right" if e.correct else "dm.table_accused_wrong",
        triple(e.suspect, e.weapon, e.place),
    )


def turn_ended(plan: Plan, seq: int, e: ev.TurnEnded, before: Game | None, after: Game) -> None:
    """A turn that timed out is told to its player (the card tells the group)."""
    if e.reason is TurnEnd.TIMED_OUT:
        plan.private(
            plan.key(seq, "timeoutdm"), user_at(after, e.seat), "dm.table_turn_timed_out", {}
        )


def player_away(plan: Plan, seq: int, e: ev.PlayerAway, before: Game | None, after: Game) -> None:
    """Away after missed turns, or by their own word until a moment (no reason given): a post
    of its own, with the "I am back" button (the card has no buttons of the player's)."""
    if e.until is not None:
        args = {**seat_args(after, e.seat), "until": Moment.of(e.until)}
        msg = "table.player_away_until"
    else:
        args = {**seat_args(after, e.seat), "missed": after.settings.away_after}
        msg = "table.player_away"
    plan.group(
        plan.key(seq, "away"), msg, args, buttons=table_prompt.back_buttons(plan.ctx.game_id)
    )
    if e.until is not None:  # their own word, in private: answered there too
        until = {"until": Moment.of(e.until)}
        plan.private(plan.key(seq, "awaydm"), user_at(after, e.seat), "dm.table_away_set", until)


def player_returned(
    plan: Plan, seq: int, e: ev.PlayerReturned, before: Game | None, after: Game
) -> None:
    """Told on the turn's card; a /back typed in private is answered there too (the table's
    button has its toast, and acting is its own answer)."""
    if e.came_back:
        plan.private(plan.key(seq, "backdm"), user_at(after, e.seat), "dm.table_back", {})


def seat_handed_over(plan: Plan, seq: int, e: ev.SeatReplaced, after: Game) -> None:
    """A newcomer in a classic seat: the card the seat is asked for now (the old prompt is
    closed), and what the seat has learned from its suggestions."""
    pending = pending_suggestion(after)
    if pending is not None and pending.refuter == e.seat:
        names = {"suggester": User(user_at(after, pending.suggester)), "new": User(e.new_user)}
        old = table_prompt.prompt_key(plan.ctx.game_id, pending.number, e.old_user)
        plan.edit(plan.key(seq, "tmoved"), old, "dm.table_prompt_moved", names, user=e.old_user)
        table_prompt.refuter_prompt(plan, after, pending.number, e.seat)
    learned = [
        {"number": s.number, "player": User(user_at(after, s.refuter)), "shown": Card(s.card)}
        for s in table_of(after).suggestions
        if s.suggester == e.seat and s.card is not None and s.refuter is not None
    ]
    plan.private(
        plan.key(seq, "history"), e.new_user, "dm.table_seat_history", {"learned": learned}
    )
