"""The Planner the store calls inside a command's transaction: every event's planner (the
shared ones and each edition's own), run on a plan that carries the game's edition; then,
at the table, the turn's card and prompt, and a forum game's index. It lives above the
editions because it joins the shared planners and theirs."""

from __future__ import annotations

from bot.announce.card_lines import CLASSIC_LINES
from bot.announce.index import plan_index
from bot.announce.plan import Handler, Plan
from bot.announce.registry import SHARED_HANDLERS
from bot.announce.turn_card import LineOf, plan_card
from bot.editions.registry import EDITIONS, edition_of
from engine import events as ev
from engine.state import Game
from storage.messages_owed import OutboxItem, PlanContext

# Every event's planner: the shared ones, and each edition's for its own events.
EVENT_HANDLERS: dict[type[ev.Event], Handler] = {
    **{t: h for e in EDITIONS for t, h in e.planners.items()},
    **SHARED_HANDLERS,
}


def card_lines_of(game: Game) -> dict[type[ev.Event], LineOf]:
    """What each event tells on a turn's card in the game's edition (the classic's lines,
    and the edition's own or its own wording of them)."""
    return {**CLASSIC_LINES, **edition_of(game).lines}


def plan_messages(ctx: PlanContext) -> list[OutboxItem]:
    """The command's events one by one (with the engine's states around each), collecting
    each one's messages."""
    edition = edition_of(ctx.after)
    plan = Plan(ctx, edition)
    own = edition.planners
    for offset, (event, before, after) in enumerate(ctx.decision.steps()):
        handler = own.get(type(event)) or SHARED_HANDLERS[type(event)]
        handler(plan, ctx.first_seq + offset, event, before, after)
    if edition.prompt is not None:  # at the table: the turn's card, the player's prompt
        plan_card(
            plan, {**CLASSIC_LINES, **edition.lines}, edition.card_buttons, edition.card_clock
        )
        edition.prompt.after(plan)
    plan_index(plan)  # a forum game's index: posted at the start, edited when it changed
    return plan.items
