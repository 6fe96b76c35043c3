"""Presses of the Liars Edition: the turn prompt's own buttons (rooms around the ring, the
investigation card read as an action, the free move, whose cards to peek at), Liar! in the
group, and a card to put face up or to pass in private. Thin: the engine decides who may
press what; anything else gets a toast and changes nothing."""

from __future__ import annotations

from telegram import Update

from bot import callbacks as cb
from bot.announce.liars import EXPOSE, LIAR, PASS
from bot.announce.liars_prompt import ACTIONS
from bot.context import CustomContext
from bot.delivery.payload import labels_of
from bot.handlers.common import answer_toast, error_args, error_key, remember, where
from bot.handlers.toasts import press_toast
from engine import commands as cmd
from engine.errors import RuleError
from engine.liars import commands as lcmd
from engine.liars.cards import RING
from engine.state import Game


def liars_command(game: Game, me: int, action: str) -> cmd.Command | None:
    """A prompt press of this edition's own (None: not one of them)."""
    kind, rest = action[:1], action[1:]
    if kind == "m":
        return cmd.Move(actor=me, to=RING[cb.index(rest, len(RING))])
    if kind == "f":
        return lcmd.MoveAnywhere(actor=me, room=RING[cb.index(rest, len(RING))])
    if kind == "i":
        return lcmd.PlayInvestigation(actor=me, action=ACTIONS[cb.index(rest, len(ACTIONS))].value)
    if kind == "k":
        return lcmd.PeekAt(actor=me, seat=cb.index(rest, len(game.players)))
    return None


def _own_private_chat(update: Update) -> bool:
    query = update.callback_query
    if query is None or query.message is None:
        return False
    return query.message.chat.id == query.from_user.id


async def liars_button(update: Update, context: CustomContext) -> None:
    """Liar! (group), a card face up or a card to pass (private)."""
    query = update.callback_query
    w = where(update)
    data = cb.parse(query.data if query else None)
    if query is None or w is None or data is None:
        await answer_toast(context, update, "toast.stale")
        return
    await remember(context, w.user)
    try:
        game = await context.services.store.load(data.game)
    except RuleError:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    table = game.table
    expected = 1 if data.kind == LIAR else 2
    if table is None or len(data.args) != expected or data.args[0] != str(table.turn):
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    me = w.user.id
    try:
        if data.kind == LIAR:
            command: cmd.Command = lcmd.CallLiar(actor=me)
        else:
            if not _own_private_chat(update):
                await answer_toast(context, update, "toast.not_yours", alert=True)
                return
            card = game.deck[cb.index(data.args[1], len(game.deck))]
            kind = lcmd.ExposeCard if data.kind == EXPOSE else lcmd.PassCard
            command = kind(actor=me, card=card)
        outcome = await context.services.run(data.game, command)
        key, args = press_toast(outcome.events, outcome.state)  # what the press did
        await answer_toast(context, update, key, args, labels=labels_of(game.pack))
    except RuleError as error:
        await answer_toast(
            context,
            update,
            error_key(error),
            error_args(error),
            alert=True,
            tz=game.settings.timezone,
            labels=labels_of(game.pack),
        )
    except (cb.Malformed, IndexError, ValueError):
        await answer_toast(context, update, "toast.stale", alert=True)


__all__ = ["EXPOSE", "LIAR", "PASS", "liars_button", "liars_command"]
