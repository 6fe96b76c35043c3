"""Presses of the Liars Edition's own buttons besides its turn prompt's (`prompt.py`): Liar!
in the group, and a card to put face up or to pass in private. Thin: the engine decides who
may press what; anything else gets a toast and changes nothing."""

from __future__ import annotations

from telegram import Update

from bot import callbacks as cb
from bot.announce.toasts import press_toast
from bot.context import CustomContext
from bot.editions.liars.events import EXPOSE, LIAR, PASS
from bot.handlers.common import answer_toast, game_press, refuse_press
from bot.payload import labels_of
from engine import commands as cmd
from engine.errors import RuleError
from engine.format import format_of
from engine.liars import commands as lcmd
from engine.table.queries import table_of


def _own_private_chat(update: Update) -> bool:
    query = update.callback_query
    if query is None or query.message is None:
        return False
    return query.message.chat.id == query.from_user.id


async def liars_button(update: Update, context: CustomContext) -> None:
    """Liar! (group), a card face up or a card to pass (private)."""
    press = await game_press(update, context)
    if press is None:
        return
    w, data, game = press.w, press.data, press.game
    expected = 1 if data.kind == LIAR else 2
    turn = str(table_of(game).turn) if format_of(game).plays_turns(game) else None
    if len(data.args) != expected or data.args[0] != turn:
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
        outcome = await context.run(data.game, command)
        key, args = press_toast(outcome.events, outcome.state)  # what the press did
        await answer_toast(context, update, key, args, labels=labels_of(game.pack))
    except RuleError as error:
        await refuse_press(context, update, error, game)
    except (cb.Malformed, IndexError, ValueError):
        await answer_toast(context, update, "toast.stale", alert=True)


KINDS = (LIAR, EXPOSE, PASS)  # the button kinds `liars_button` answers
