"""Suggestions and accusations: typed in the group, or composed with buttons in private."""

from __future__ import annotations

from typing import Any

from telegram import MessageEntity, Update
from telegram.constants import MessageEntityType
from telegram.error import TelegramError

from bot import callbacks as cb
from bot.announce.plan import Buttons
from bot.context import CustomContext
from bot.handlers.common import (
    Where,
    answer_toast,
    error_args,
    error_key,
    game_label,
    refuse,
    remember,
    require_game_here,
    say,
    where,
)
from bot.handlers.composer import (
    accusation_step,
    chosen_cards,
    chosen_target,
    screen,
    suggestion_step,
)
from bot.parsing import ParseError, parse_suggestion
from bot.payload import User, labels_of, upgrade, users_in
from bot.render.keyboards import keyboard
from bot.render.reader import Person, Reader
from engine import commands as cmd
from engine.cards import CATEGORY_ORDER
from engine.errors import RuleError
from engine.queries import accusation_refusal, suggestion_refusal
from engine.state import Game, Phase
from locales import supported


async def suggest(update: Update, context: CustomContext) -> None:
    """/suggest: typed in a group ("@player A; B; C"), or the composer in private."""
    w = where(update)
    if w is None or w.message is None:
        return
    await remember(context, w.user)
    if w.private:
        await open_composer(context, w, cb.SUGGEST)
        return
    ref = await require_game_here(context, w)
    if ref is None:
        return
    svc = context.services
    # The state this process knows reads the typed names (the command's transaction checks
    # them on the current state); a refusal is made only on the current state.
    game = await svc.store.recent_state(ref.id)
    refusal = suggestion_refusal(game)  # before typed names are read against the cards
    if refusal is not None:
        game = await svc.store.load(ref.id)
        refusal = suggestion_refusal(game)
    if refusal is not None:
        await refuse(context, w, refusal)
        return
    text, target_id = _after_command(w)
    in_play = tuple(c for category in CATEGORY_ORDER for c in game.in_play(category))
    try:
        language = await svc.directory.chat_language(w.chat.id)
        typed = parse_suggestion(text, game.pack, in_play, language)
        if target_id is None:
            if not typed.target:
                raise ParseError("parse.usage")
            target_id = await svc.directory.user_by_username(typed.target)
            if target_id is None:
                raise ParseError("parse.unknown_player", username=typed.target)
    except ParseError as error:
        await say(context, w, error.key, dict(error.values), labels=labels_of(game.pack))
        return
    suspect, weapon, place = typed.cards
    command = cmd.MakeSuggestion(
        actor=w.user.id, target=target_id, suspect=suspect, weapon=weapon, place=place
    )
    try:
        await context.run(ref.id, command)
    except RuleError as error:
        await refuse(context, w, error, tz=game.settings.timezone, labels=labels_of(game.pack))


def _after_command(w: Where) -> tuple[str, int | None]:
    """The text after "/suggest", and the target when a text mention (no username) names it."""
    message = w.message
    assert message is not None
    text = message.text or ""
    entities = message.entities or ()
    start = 0
    target: int | None = None
    for entity in entities:
        if entity.type == MessageEntityType.BOT_COMMAND and entity.offset == 0:
            start = entity.offset + entity.length
        elif entity.type == MessageEntityType.TEXT_MENTION and entity.user is not None:
            target = entity.user.id
            start = max(start, _utf16_end(text, entity))
    return _utf16_slice(text, start), target


def _utf16_end(text: str, entity: MessageEntity) -> int:
    return entity.offset + entity.length


def _utf16_slice(text: str, start: int) -> str:
    """Telegram counts offsets in UTF-16 code units."""
    encoded = text.encode("utf-16-le")
    return encoded[start * 2 :].decode("utf-16-le")


async def accuse(update: Update, context: CustomContext) -> None:
    """/accuse: only in private. In a group it is refused and the text is not repeated."""
    w = where(update)
    if w is None or w.message is None:
        return
    await remember(context, w.user)
    svc = context.services
    if not w.private:
        deleted = True
        try:
            await w.message.delete()  # keep a careless accusation out of the thread
        except TelegramError:
            deleted = False
        await say(
            context,
            w,
            "error.accuse_in_private" if deleted else "error.accuse_in_private_kept",
            {"player": User(w.user.id)},
            reply=not deleted,
            buttons=[[{"t": "button.open_private", "url": svc.deep_link("accuse")}]],
        )
        return
    await open_composer(context, w, cb.ACCUSE)


async def open_composer(context: CustomContext, w: Where, kind: str) -> None:
    """Start a composer: pick the game first if the person plays in several."""
    svc = context.services
    running = []
    for ref in await svc.store.games_of_person(w.user.id):
        game = await svc.store.load(ref.id)
        if game.phase is Phase.RUNNING and game.player_of(w.user.id) is not None:
            running.append((ref.id, game))
    if not running:
        await say(context, w, "error.no_running_game")
        return
    if kind in (cb.ACCUSE, cb.SUGGEST):  # refused before choosing anything, by the engine's rule
        refusals = [
            accusation_refusal(game, w.user.id) if kind == cb.ACCUSE else suggestion_refusal(game)
            for _, game in running
        ]
        allowed = [pair for pair, no in zip(running, refusals, strict=True) if no is None]
        if not allowed:  # each game's refusal, naming its game
            for (gid, game), refusal in zip(running, refusals, strict=True):
                assert refusal is not None
                await refuse(context, w, refusal, tz=game.settings.timezone, game=gid)
            return
        running = allowed
    if len(running) > 1:
        rows = []
        for gid, _ in running:
            label = await game_label(context, gid)
            text = {"text": label} if label else {"t": "button.game", "args": {"game": gid}}
            rows.append([{**text, "data": cb.Callback(kind, gid).encode()}])
        await say(context, w, "composer.choose_game", buttons=rows)
        return
    game_id, game = running[0]
    msg, args, buttons = _step(kind, game_id, game, w.user.id, ())
    args = {**args, "game": game_id, "game_label": await game_label(context, game_id)}
    await say(context, w, msg, args, buttons=buttons, labels=labels_of(game.pack))


def _step(
    kind: str, game_id: int, game: Game, me: int, args: tuple[str, ...]
) -> tuple[str, dict[str, Any], Buttons]:
    if kind in (cb.SUGGEST, cb.SUGGEST_SEND):
        return suggestion_step(game_id, game, me, args)
    return accusation_step(game_id, game, args)


async def composer_button(update: Update, context: CustomContext) -> None:
    """A press in a composer: the next screen, a cancel, or the confirmed move."""
    query = update.callback_query
    if query is None:
        return
    w = where(update)
    data = cb.parse(query.data)
    if w is None or data is None or query.message is None:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    if query.message.chat.id != query.from_user.id:
        await answer_toast(context, update, "toast.not_yours", alert=True)
        return
    svc = context.services
    if data.kind == cb.CANCEL:
        await _edit(context, update, "composer.cancelled", {}, [])
        return
    try:
        game = await svc.store.load(data.game)
    except RuleError:  # no such game
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    if game.phase is not Phase.RUNNING or game.player_of(w.user.id) is None:
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    place = {"game": data.game, "game_label": await game_label(context, data.game)}
    try:
        if data.kind in (cb.SUGGEST_SEND, cb.ACCUSE_SEND):
            await _send(context, data, game, w.user.id)
            done = (
                "composer.suggestion_sent"
                if data.kind == cb.SUGGEST_SEND
                else "composer.accusation_sent"
            )
            await _edit(context, update, done, place, [], failed_toast=done)
            return
        msg, args, buttons = _step(data.kind, data.game, game, w.user.id, data.args)
        args = {**args, **place, "labels": labels_of(game.pack) or {}}
    except RuleError as error:
        args = error_args(error)
        tz = game.settings.timezone
        labels = labels_of(game.pack)
        await answer_toast(
            context, update, error_key(error), args, alert=True, tz=tz, labels=labels
        )
        return
    except (ValueError, IndexError):
        await answer_toast(context, update, "toast.stale", alert=True)
        return
    await _edit(context, update, msg, args, buttons)


async def _send(context: CustomContext, data: cb.Callback, game: Game, me: int) -> None:
    """The confirmed move; a RuleError propagates."""
    if data.kind == cb.SUGGEST_SEND:
        if len(data.args) != 5:
            raise cb.Malformed("a suggestion needs a number, a seat and three cards")
        number, seat, *picks = data.args
        suspect, weapon, place = chosen_cards(game, picks)
        command: cmd.Command = cmd.MakeSuggestion(
            actor=me,
            target=chosen_target(game, me, seat).user,
            suspect=suspect,
            weapon=weapon,
            place=place,
            number=cb.number(number),
        )
    else:
        if len(data.args) != 3:
            raise cb.Malformed("an accusation needs three cards")
        suspect, weapon, place = chosen_cards(game, list(data.args))
        command = cmd.Accuse(actor=me, suspect=suspect, weapon=weapon, place=place)
    await context.run(data.game, command)


async def _edit(
    context: CustomContext,
    update: Update,
    msg: str,
    args: dict[str, Any],
    buttons: Buttons,
    failed_toast: str = "toast.stale",
) -> None:
    """Replace the composer's text and buttons in place (else say `failed_toast`)."""
    query = update.callback_query
    assert query is not None  # only called for button presses
    svc = context.services
    language = supported(await svc.directory.person_language(query.from_user.id))
    people = await _people_named(context, args, buttons)
    reader = Reader(language, people=people, labels=args.get("labels") or {})
    text, rows = screen(svc.presentations.compose, reader, msg, args, buttons)
    markup = keyboard(rows)
    try:
        await query.edit_message_text(text, parse_mode="HTML", reply_markup=markup)
        await query.answer()
    except TelegramError:
        await answer_toast(context, update, failed_toast)


async def _people_named(
    context: CustomContext, args: dict[str, Any], buttons: Buttons
) -> dict[int, Person]:
    """The names a composer screen shows (targets as buttons, the chosen target)."""
    svc = context.services
    ids = {int(b["user"]) for row in buttons for b in row if "user" in b}
    ids |= users_in(upgrade(args))
    return await svc.directory.persons(ids)
