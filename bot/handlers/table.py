"""Presses at the table (every table edition's): the turn prompt's buttons in the group
(each edition's prompt says what its presses mean), the refuter's card in private, "I am
back". Thin: every rule is the engine's; a press that is not the presser's to make, or out
of date, gets a toast and changes nothing."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.error import TelegramError

from bot import callbacks as cb
from bot.announce import table_prompt
from bot.announce.table_prompt import TurnPrompt
from bot.announce.toasts import press_toast
from bot.context import CustomContext
from bot.handlers.common import (
    Where,
    answer_toast,
    game_here,
    game_label,
    game_press,
    refuse_press,
)
from bot.handlers.composer import accusation_step
from bot.payload import Card, User, labels_of, users_in
from bot.render.keyboards import buttons_markup, keyboard
from bot.render.reader import Reader
from engine import commands as cmd
from engine.cards import Category
from engine.errors import RuleError
from engine.format import format_of
from engine.state import Game
from engine.table.queries import pending_suggestion, table_of
from locales import supported

Buttons = list[list[dict[str, Any]]]


async def table_button(update: Update, context: CustomContext) -> None:
    """Any press of the classic format's buttons."""
    press = await game_press(update, context)
    if press is None:
        return
    w, data, game = press.w, press.data, press.game
    try:
        if data.kind == cb.SHOW:
            await _show(context, update, w, data, game)
        elif data.kind == cb.BACK:
            outcome = await context.run(data.game, cmd.ReturnToTable(actor=w.user.id))
            await answer_toast(context, update, *press_toast(outcome.events, outcome.state))
        else:
            await _turn(context, update, w, data, game)
    except RuleError as error:
        await refuse_press(context, update, error, game)
    except (cb.Malformed, IndexError, ValueError, KeyError):
        await answer_toast(context, update, "toast.stale", alert=True)


async def _show(
    context: CustomContext, update: Update, w: Where, data: cb.Callback, game: Game
) -> None:
    """The refuter's choice of card (in private)."""
    if len(data.args) != 2:
        raise cb.Malformed("a card needs a suggestion and an index")
    number = cb.number(data.args[0])
    pending = pending_suggestion(game)
    if pending is None or pending.number != number:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    card = game.deck[cb.index(data.args[1], len(game.deck))]
    await context.run(data.game, cmd.ShowCard(actor=w.user.id, card=card))
    await answer_toast(context, update, "toast.answered")


async def _turn(
    context: CustomContext, update: Update, w: Where, data: cb.Callback, game: Game
) -> None:
    """A press on the turn prompt (in the current player's private chat; a prompt posted in
    the group before prompts moved there still works): only theirs, only for this turn."""
    ref = data.game if w.private else getattr(await game_here(context, w), "id", None)
    if ref != data.game or not format_of(game).plays_turns(game) or len(data.args) < 2:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    table = table_of(game)
    if data.args[0] != str(table.turn) or not game.running:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    player = game.player_of(w.user.id)
    if player is None or player.seat != table.current:
        await answer_toast(context, update, "toast.not_yours", alert=True)
        return
    action, rest = data.args[1], data.args[2:]
    me = w.user.id
    edition = context.services.presentations.edition_of(game)
    prompt = _prompt_of(context, game)
    command: cmd.Command | None = None
    if action == "s":
        command = await _compose(context, update, data.game, game, rest)
    elif action == "back" and not rest:
        msg, args, buttons = prompt.current(data.game, game, me)
        await _edit_prompt(context, update, data.game, game, msg, args, buttons)
        return
    elif action == "a" and not rest:
        await _accuse_in_private(context, update, w, data.game, game)
        return
    else:
        command = prompt.press(game, me, action) if not rest else None
        if command is None:
            raise cb.Malformed(action)
    if command is None:
        return
    outcome = await context.run(data.game, command)
    key, args = press_toast(outcome.events, outcome.state, edition.toasts)  # what it did
    await answer_toast(context, update, key, args, labels=labels_of(game.pack))


def _prompt_of(context: CustomContext, game: Game) -> TurnPrompt[Any]:
    """The game's edition's turn prompt (a table game has one)."""
    prompt = context.services.presentations.edition_of(game).prompt
    if prompt is None:
        raise cb.Malformed("no turn prompt in this game")
    return prompt


async def _compose(
    context: CustomContext, update: Update, game_id: int, game: Game, picks: tuple[str, ...]
) -> cmd.Command | None:
    """The suggestion composer in the prompt: suspect, weapon, then the suggestion."""
    suspects, weapons = game.in_play(Category.SUSPECT), game.in_play(Category.WEAPON)
    if len(picks) > 2:
        raise cb.Malformed("too many picks")
    chosen = [
        cards[cb.index(pick, len(cards))]
        for cards, pick in zip((suspects, weapons), picks, strict=False)
    ]
    table = table_of(game)
    player = game.players[table.current]
    if len(chosen) == 2:
        return cmd.Suggest(actor=player.user, suspect=chosen[0], weapon=chosen[1])
    room = table.place_of(player.role)
    if _prompt_of(context, game).options(game, player.user).suggest_in is None:
        raise cb.Malformed("no suggestion now")
    args: dict[str, Any] = {"player": User(player.user), "room": Card(str(room))}
    if chosen:
        args["suspect"] = Card(chosen[0])
    msg = "table.compose_weapon" if chosen else "table.compose_suspect"
    buttons = table_prompt.composer_buttons(game_id, game, picks)
    await _edit_prompt(context, update, game_id, game, msg, args, buttons)
    return None


async def _edit_prompt(
    context: CustomContext,
    update: Update,
    game_id: int,
    game: Game,
    msg: str,
    args: dict[str, Any],
    buttons: Buttons,
) -> None:
    """The prompt's text and buttons, replaced in place, in the reader's language (the
    presser's in private, the chat's in a group)."""
    query = update.callback_query
    assert query is not None and query.message is not None
    directory = context.services.directory
    chat = query.message.chat
    if chat.type == chat.PRIVATE:  # named like every private message of a game
        language = supported(await directory.person_language(query.from_user.id, game_id))
        args = {**args, "game_label": await game_label(context, game_id)}
    else:
        language = supported(await directory.chat_language(chat.id))
    people = await directory.persons(users_in(args))
    reader = Reader(language, game.settings.timezone, people, labels_of(game.pack) or {})
    text = context.services.presentations.compose(reader, msg, args)
    try:
        await query.edit_message_text(
            text, parse_mode="HTML", reply_markup=keyboard(buttons_markup(reader, buttons))
        )
        await query.answer()
    except TelegramError:
        await answer_toast(context, update, "toast.stale")


async def _accuse_in_private(
    context: CustomContext, update: Update, w: Where, game_id: int, game: Game
) -> None:
    """The accusation is chosen in private (the group never sees its cards before the end)."""
    svc = context.services
    msg, args, buttons = accusation_step(game_id, game, ())
    label = await game_label(context, game_id)  # named like every private message of a game
    await svc.tell(
        w.user.id,
        msg,
        {**args, "game": game_id, "game_label": label},
        user_id=w.user.id,
        buttons=buttons,
        key=f"u{w.update_id}:accuse",
        labels=labels_of(game.pack),
    )
    await answer_toast(context, update, "table.accuse_in_private")
