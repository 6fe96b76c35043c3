"""The classic format at the table: the deal, each turn's roll, move, passage, suggestion,
who could not refute and who showed, accusations, timers and players away.

Secrecy: the group never learns a card shown or an accusation's cards (the end reveals
them); the shown card goes to the suggester alone, the refuter's choices to the refuter."""

from __future__ import annotations

from typing import Any

from bot.announce import table_prompt
from bot.announce.plan import Plan, seat_args, triple, user_at
from bot.delivery.payload import Card, Moment, Span, User
from bot.render.board_text import square_label
from engine import events as ev
from engine.state import Game
from engine.table.edition import table_edition
from engine.table.state import MoveKind, TurnEnd


def _suspect_seat(game: Game, suspect: str) -> int | None:
    return next((p.seat for p in game.players if p.role == suspect), None)


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


def turn_started(plan: Plan, seq: int, e: ev.TurnStarted, before: Game | None, after: Game) -> None:
    """Told by the turn's prompt (`TurnPrompt.after`)."""


def turn_skipped(plan: Plan, seq: int, e: ev.TurnSkipped, before: Game | None, after: Game) -> None:
    plan.group(plan.key(seq, "skip"), "table.turn_skipped_away", seat_args(after, e.seat))


def dice_rolled(plan: Plan, seq: int, e: ev.DiceRolled, before: Game | None, after: Game) -> None:
    dice = " + ".join(str(d) for d in e.dice)
    args = {**seat_args(after, e.seat), "dice": dice, "total": sum(e.dice)}
    plan.group(
        plan.key(seq, "roll"), "table.rolled" if len(e.dice) == 1 else "table.rolled_many", args
    )


def token_moved(plan: Plan, seq: int, e: ev.TokenMoved, before: Game | None, after: Game) -> None:
    """A walk or a passage: the post with the board's picture; a suggestion's move is told
    by the suggestion; a wrong accuser's by the accusation."""
    seat = _suspect_seat(after, e.suspect)
    who = seat_args(after, seat) if seat is not None else {"suspect": Card(e.suspect)}
    if e.kind is MoveKind.SUGGESTION:
        return
    if e.kind is MoveKind.OUT:
        plan.group(plan.key(seq, "out"), "table.moved_out", {**who, "room": Card(str(e.to))})
        return
    if isinstance(e.to, str):
        key = "table.passage" if e.kind is MoveKind.PASSAGE else "table.moved_room"
        args: dict[str, Any] = {**who, "room": Card(e.to)}
    else:
        key = "table.moved_square"
        args = {**who, "square": square_label(e.to)}
    plan.group(plan.key(seq, "move"), key, args, board=plan.board(after))


def stayed(plan: Plan, seq: int, e: ev.StayedToSuggest, before: Game | None, after: Game) -> None:
    assert after.table is not None
    room = after.table.place_of(after.players[e.seat].role)
    plan.group(
        plan.key(seq, "stay"), "table.stayed", {**seat_args(after, e.seat), "room": Card(str(room))}
    )


def weapon_moved(plan: Plan, seq: int, e: ev.WeaponMoved, before: Game | None, after: Game) -> None:
    """Told by the suggestion that moved it."""


def suggestion_made(
    plan: Plan, seq: int, e: ev.TableSuggestionMade, before: Game | None, after: Game
) -> None:
    """The suggestion (its cards are public); the named token and weapon come into the room:
    the picture after they moved."""
    final = plan.ctx.after
    args = {
        **seat_args(after, e.suggester),
        **triple(e.suspect, e.weapon, e.room),
        "brought": _suspect_seat(after, e.suspect) not in (None, e.suggester),
    }
    args["player"] = User(user_at(after, e.suggester))
    board = plan.board(final) if final.table is not None else None
    plan.group(
        table_prompt.suggestion_key(plan.ctx.game_id, e.suggestion),
        "table.suggestion",
        args,
        board=board,
    )


def could_not_refute(
    plan: Plan, seq: int, e: ev.CouldNotRefute, before: Game | None, after: Game
) -> None:
    plan.group(
        plan.key(seq, "pass"), "table.could_not_refute", {"player": User(user_at(after, e.seat))}
    )


def refuter_asked(
    plan: Plan, seq: int, e: ev.RefuterAsked, before: Game | None, after: Game
) -> None:
    """The group learns who is choosing; the refuter gets exactly their matching cards."""
    refuter = user_at(after, e.seat)
    plan.group(
        plan.key(seq, "asked"),
        "table.refuter_asked",
        {"player": User(refuter), "refute_time": Span.of(after.settings.refute_time)},
    )
    final = plan.ctx.after.table
    pending = final.pending if final is not None else None
    if pending is None or pending.number != e.suggestion or pending.refuter != e.seat:
        return  # answered in the same command (the GM, for a player away)
    if after.table is not None and after.table.seats[e.seat].away:
        return
    table_prompt.refuter_prompt(plan, after, e.suggestion, e.seat)


def card_shown(plan: Plan, seq: int, e: ev.CardShown, before: Game | None, after: Game) -> None:
    """Who showed (never which card) to the group; the card to the suggester alone."""
    assert after.table is not None
    s = next(x for x in after.table.suggestions if x.number == e.suggestion)
    suggester, refuter = user_at(after, s.suggester), user_at(after, e.seat)
    names = {"player": User(refuter), "suggester": User(suggester)}
    key = "table.card_shown_gm" if e.by_gm else "table.card_shown"
    plan.group(plan.key(seq, "shown"), key, names)
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


def nobody_refuted(
    plan: Plan, seq: int, e: ev.NobodyRefuted, before: Game | None, after: Game
) -> None:
    plan.group(plan.key(seq, "none"), "table.nobody_refuted", {})


def accused(plan: Plan, seq: int, e: ev.AccusedAtTable, before: Game | None, after: Game) -> None:
    """The group learns who accused and whether it was right, not the cards (until the end);
    the accuser gets their own accusation back."""
    who = seat_args(after, e.seat)
    if e.correct:
        plan.group(plan.key(seq, "accused"), "table.accused_right", who)
    else:
        plan.group(plan.key(seq, "accused"), "table.accused_wrong", who)
    plan.private(
        plan.key(seq, "receipt"),
        who["player"].id,
        "dm.table_accused_right" if e.correct else "dm.table_accused_wrong",
        triple(e.suspect, e.weapon, e.place),
    )


def turn_ended(plan: Plan, seq: int, e: ev.TurnEnded, before: Game | None, after: Game) -> None:
    """A turn that timed out is told; an ended one by the next turn's prompt."""
    if e.reason is TurnEnd.TIMED_OUT:
        plan.group(plan.key(seq, "timeout"), "table.turn_timed_out", seat_args(after, e.seat))
        plan.private(
            plan.key(seq, "timeoutdm"), user_at(after, e.seat), "dm.table_turn_timed_out", {}
        )


def player_away(plan: Plan, seq: int, e: ev.PlayerAway, before: Game | None, after: Game) -> None:
    """Away after missed turns, or by their own word until a moment (no reason given)."""
    if e.until is not None:
        args = {**seat_args(after, e.seat), "until": Moment.of(e.until)}
        msg = "table.player_away_until"
    else:
        args = {**seat_args(after, e.seat), "missed": after.settings.away_after}
        msg = "table.player_away"
    plan.group(
        plan.key(seq, "away"), msg, args, buttons=table_prompt.back_buttons(plan.ctx.game_id)
    )


def player_returned(
    plan: Plan, seq: int, e: ev.PlayerReturned, before: Game | None, after: Game
) -> None:
    plan.group(plan.key(seq, "back"), "table.player_returned", seat_args(after, e.seat))


def turn_timer_renewed(
    plan: Plan, seq: int, e: ev.TurnTimerRenewed, before: Game | None, after: Game
) -> None:
    """The bot was down when the turn's time ran out: the turn goes on with a fresh timer."""
    args = {**seat_args(after, e.seat), "due_at": Moment.of(e.due)}
    plan.group(plan.key(seq, "renewed"), "table.turn_renewed", args)


def refute_timer_renewed(
    plan: Plan, seq: int, e: ev.RefuteTimerRenewed, before: Game | None, after: Game
) -> None:
    """The bot was down when the refuter's time ran out: they get a fresh timer."""
    args = {"player": User(user_at(after, e.seat)), "due_at": Moment.of(e.due)}
    plan.group(plan.key(seq, "renewed"), "table.refute_renewed", args)


def seat_handed_over(plan: Plan, seq: int, e: ev.SeatReplaced, after: Game) -> None:
    """A newcomer in a classic seat: the card the seat is asked for now (the old prompt is
    closed), and what the seat has learned from its suggestions."""
    table = after.table
    assert table is not None
    pending = table.pending
    if pending is not None and pending.refuter == e.seat:
        names = {"suggester": User(user_at(after, pending.suggester)), "new": User(e.new_user)}
        old = table_prompt.prompt_key(plan.ctx.game_id, pending.number, e.old_user)
        plan.edit(plan.key(seq, "tmoved"), old, "dm.table_prompt_moved", names, user=e.old_user)
        table_prompt.refuter_prompt(plan, after, pending.number, e.seat)
    learned = [
        {"number": s.number, "player": User(user_at(after, s.refuter)), "shown": Card(s.card)}
        for s in table.suggestions
        if s.suggester == e.seat and s.card is not None and s.refuter is not None
    ]
    plan.private(
        plan.key(seq, "history"), e.new_user, "dm.table_seat_history", {"learned": learned}
    )
