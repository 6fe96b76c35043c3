"""The planning of one command's messages in a game of a given edition: every event's
planner (the edition's own, or the shared one), then, at the table, the turn's card and
prompt, and a forum game's index. `Presentations.plan_messages` (the Planner the store
calls) finds the game's edition and runs it here."""

from __future__ import annotations

from bot.announce.card_lines import CLASSIC_LINES
from bot.announce.index import plan_index
from bot.announce.plan import Plan
from bot.announce.registry import SHARED_HANDLERS
from bot.announce.turn_card import LineOf, plan_card
from bot.editions.base import Edition
from engine import events as ev
from storage.messages_owed import OutboxItem, PlanContext


def card_lines(edition: Edition) -> dict[type[ev.Event], LineOf]:
    """What each event tells on a turn's card in the edition (the classic's lines, and the
    edition's own or its own wording of them)."""
    return {**CLASSIC_LINES, **edition.lines}


def plan_in(edition: Edition, ctx: PlanContext) -> list[OutboxItem]:
    """The command's events one by one (with the engine's states around each), collecting
    each one's messages, in a game of `edition`."""
    plan = Plan(ctx, edition)
    own = edition.planners
    for offset, (event, before, after) in enumerate(ctx.decision.steps()):
        handler = own.get(type(event)) or SHARED_HANDLERS[type(event)]
        handler(plan, ctx.first_seq + offset, event, before, after)
    if edition.prompt is not None:  # at the table: the turn's card, the player's prompt
        plan_card(plan, card_lines(edition), edition.card_buttons, edition.card_clock)
        edition.prompt.after(plan)
    plan_index(plan)  # a forum game's index: posted at the start, edited when it changed
    return plan.items
