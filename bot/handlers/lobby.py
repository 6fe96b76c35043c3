"""The lobby: /newgame, the Join / Leave / Start buttons, a 2023 lobby's character
buttons, /startgame."""

from __future__ import annotations

from typing import Any

from telegram import Update

from bot import callbacks as cb
from bot.context import CustomContext
from bot.handlers.common import (
    Where,
    answer_toast,
    error_args,
    error_key,
    game_here,
    game_update,
    group_update,
    is_admin,
    refuse,
    remember,
    require_game_here,
    say,
    where,
)
from bot.parsing import ParseError, match_card
from bot.payload import Card, labels_of
from engine import commands as cmd
from engine.cards import Category
from engine.computer import Level
from engine.errors import RuleError
from engine.formats import new_game as next_game
from engine.formats import spec_for
from engine.state import Phase


async def new_game(update: Update, context: CustomContext) -> None:
    """/newgame in a group or topic: opens a lobby with the chat's default settings."""
    w = await group_update(update, context)
    if w is None:
        return
    svc = context.services
    defaults = await svc.store.chats.get(w.chat.id)
    opening = next_game(defaults.settings, defaults.pack, svc.registry.specs)
    pack = opening.pack
    role = None
    words = list(context.args or ())
    settings = opening.settings
    edition = svc.presentations.by_word(words[0]) if words else None
    if edition is not None:  # /newgame classic [suspect]
        words.pop(0)
        try:
            settings = settings.changed(format=edition.key)
            spec_for(settings, svc.registry.specs)
        except RuleError as error:
            await refuse(context, w, error)
            return
    typed = " ".join(words)
    if typed and svc.registry.specs[settings.format].chooses_roles(settings):
        try:
            language = await context.services.directory.chat_language(w.chat.id)
            role = match_card(pack, pack.suspects, Category.SUSPECT, typed, language)
        except ParseError as error:
            await say(context, w, error.key, dict(error.values), labels=labels_of(pack))
            return
    command = cmd.OpenLobby(
        actor=w.user.id,
        seed=svc.seeds(),
        settings=settings,
        role=role,
        pack=opening.own_pack,
    )
    try:
        await context.create(w.chat.id, w.topic_id, command)
    except RuleError as error:
        await refuse(context, w, error)
        return
    if opening.fell_back:
        await say(context, w, "lobby.pack_missing")


async def start_game(update: Update, context: CustomContext) -> None:
    """/startgame: deal the cards and open day 1 (the lobby's host or a chat admin)."""
    w = where(update)
    if w is None or w.private:
        return
    ref = await require_game_here(context, w)
    if ref is None:
        return
    try:
        await _start(context, w, ref.id)
    except RuleError as error:
        await refuse(context, w, error)


async def _start(context: CustomContext, w: Where, game_id: int) -> None:
    admin = await is_admin(context, w.chat.id, w.user.id)
    await context.run(game_id, cmd.StartGame(actor=w.user.id, actor_is_admin=admin))


async def lobby_button(update: Update, context: CustomContext) -> None:
    """Join, Leave and Start presses on the lobby post."""
    query = update.callback_query
    if query is None:
        return
    w = where(update)
    data = cb.parse(query.data)
    if w is None or data is None:
        await answer_toast(context, update, "toast.stale")
        return
    await remember(context, w.user)
    ref = await game_here(context, w)
    if ref is None or ref.id != data.game:
        await answer_toast(context, update, "toast.stale")
        return
    if data.kind == cb.CHARACTER:
        await _character(update, context, w, data)
        return
    if data.kind == cb.DETECTIVE:
        await _detective(update, context, w, data)
        return
    try:
        if data.kind == cb.JOIN:
            await context.run(data.game, cmd.JoinLobby(actor=w.user.id))
        elif data.kind == cb.LEAVE:
            await context.run(data.game, cmd.LeaveLobby(actor=w.user.id))
        else:
            await _start(context, w, data.game)
    except RuleError as error:
        await answer_toast(context, update, error_key(error), error_args(error))
        return
    if data.kind == cb.JOIN:
        await _answer_join(context, update, w, data.game, f"toast.{data.kind}")
        return
    await answer_toast(context, update, f"toast.{data.kind}")


async def _answer_join(
    context: CustomContext,
    update: Update,
    w: Where,
    game_id: int,
    key: str,
    args: dict[str, Any] | None = None,
    labels: dict[str, str] | None = None,
) -> None:
    """A press that joined the lobby: a link to the private chat while the bot may not
    write there yet (the hand goes there), else the toast."""
    svc = context.services
    if not await svc.directory.dm_ok(w.user.id):
        query = update.callback_query
        assert query is not None
        await query.answer(url=svc.deep_link(f"g{game_id}"))
        return
    await answer_toast(context, update, key, args, labels=labels)


async def _character(update: Update, context: CustomContext, w: Where, data: cb.Callback) -> None:
    """A character button of a 2023 lobby: the engine decides (first come, first served)."""
    svc = context.services
    try:
        game = await svc.store.load(data.game)
        if len(data.args) != 1:
            raise cb.Malformed("a character needs an index")
        role = game.pack.suspects[cb.index(data.args[0], len(game.pack.suspects))]
    except (RuleError, cb.Malformed):
        await answer_toast(context, update, "toast.stale")
        return
    labels = labels_of(game.pack)
    joining = not game.in_lobby(w.user.id)
    try:
        await context.run(data.game, cmd.ChooseRole(actor=w.user.id, role=role))
    except RuleError as error:
        await answer_toast(context, update, error_key(error), error_args(error), labels=labels)
        return
    chosen = {"card": Card(role)}
    if joining:
        await _answer_join(context, update, w, data.game, "toast.role_chosen", chosen, labels)
        return
    await answer_toast(context, update, "toast.role_chosen", chosen, labels=labels)


async def _detective(update: Update, context: CustomContext, w: Where, data: cb.Callback) -> None:
    """A computer detective of the pressed level sits down, or the last one seated leaves:
    the host's or an admin's press (the engine says whose)."""
    try:
        command = await _detective_command(context, w, data)
    except (RuleError, cb.Malformed):
        await answer_toast(context, update, "toast.stale")
        return
    try:
        await context.run(data.game, command)
    except RuleError as error:
        await answer_toast(context, update, error_key(error), error_args(error), alert=True)
        return
    key = (
        "toast.detective_out" if isinstance(command, cmd.RemoveDetective) else "toast.detective_in"
    )
    await answer_toast(context, update, key)


async def _detective_command(context: CustomContext, w: Where, data: cb.Callback) -> cmd.Command:
    admin = await is_admin(context, w.chat.id, w.user.id)
    if data.args == ("-",):  # the one seated last (the engine knows which)
        return cmd.RemoveDetective(actor=w.user.id, actor_is_admin=admin)
    if len(data.args) != 1 or data.args[0] not in set(Level):
        raise cb.Malformed("a detective needs its level")
    return cmd.AddDetective(actor=w.user.id, actor_is_admin=admin, level=Level(data.args[0]))


async def join_with_role(update: Update, context: CustomContext) -> None:
    """/join [suspect]: join the lobby, with a chosen role when the game's roles are chosen."""
    here = await game_update(update, context)
    if here is None or here.w.message is None:
        return
    w, game = here.w, here.game
    typed = " ".join(context.args or ())
    role = None
    if typed:
        try:
            language = await context.services.directory.chat_language(w.chat.id)
            role = match_card(game.pack, game.pack.suspects, Category.SUSPECT, typed, language)
        except ParseError as error:
            await say(context, w, error.key, dict(error.values), labels=labels_of(game.pack))
            return
    try:
        await context.run(here.game_id, cmd.JoinLobby(actor=w.user.id, role=role))
    except RuleError as error:
        await refuse(context, w, error, labels=labels_of(game.pack))


async def leave(update: Update, context: CustomContext) -> None:
    """/leave: leave the lobby, or leave a running game (your cards stay; the GM answers)."""
    here = await game_update(update, context)
    if here is None:
        return
    w, game = here.w, here.game
    command: cmd.Command = (
        cmd.LeaveLobby(actor=w.user.id)
        if game.phase is Phase.LOBBY
        else cmd.LeaveGame(actor=w.user.id)
    )
    try:
        await context.run(here.game_id, command)
    except RuleError as error:
        await refuse(context, w, error)
