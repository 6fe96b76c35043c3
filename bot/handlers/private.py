"""The private chat: /start (deep links), hands, games, composers and answer buttons."""

from __future__ import annotations

from telegram import Update

from bot import callbacks as cb
from bot.announce.suggestions import answer_buttons
from bot.announce.views import answer_prompt_args, hand_args
from bot.context import CustomContext
from bot.handlers.common import (
    answer_toast,
    error_args,
    error_key,
    private_update,
    remember,
    say,
    where,
)
from bot.handlers.moves import open_composer
from bot.handlers.preferences import WELCOME, language_rows
from bot.payload import Card, Payload, labels_of
from bot.settings_text import OFF_WORDS, ON_WORDS
from engine import commands as cmd
from engine.errors import RuleError
from engine.queries import player_view
from engine.state import Game, Phase, Suggestion
from locales import known
from storage.messages_owed import OutboxItem


async def start(update: Update, context: CustomContext) -> None:
    """/start: the person can now receive direct messages; what waited for them goes out.
    Whose Telegram language we have no catalog for is offered ours as buttons."""
    w = where(update)
    if w is None:
        return
    await remember(context, w.user)
    if not w.private:
        await say(context, w, "help.group")
        return
    svc = context.services
    await svc.store.people.set_dm_ok(w.user.id, True)
    person = await svc.store.people.get(w.user.id)
    speaks = known(w.user.language_code) or (person is not None and person.language is not None)
    # A language we have no catalog for: the person may choose one of ours at once.
    buttons = None if speaks else language_rows(cb.PERSON_LANGUAGE, WELCOME)
    welcome = OutboxItem(  # before the hand and prompts it introduces
        f"u{w.update_id}:start.welcome",
        w.chat.id,
        user_id=w.user.id,
        payload=Payload("start.welcome", {}, buttons=buttons).to_row(),
    )
    await svc.store.outbox.release_waiting(w.user.id, svc.now(), first=welcome)
    svc.outbox_ready.set()
    payload = context.args[0] if context.args else ""
    if payload == "accuse":  # from the group's "accusations are private" answer
        await open_composer(context, w, "c")
    elif payload == "hand":
        await hand(update, context)


async def my_games(update: Update, context: CustomContext) -> None:
    """/games (in private): the person's games, with day and role."""
    w = await private_update(update, context, "games")
    if w is None:
        return
    svc = context.services
    lines = []
    for ref in await svc.store.games_of_person(w.user.id):
        game = await svc.store.load(ref.id)
        player = game.player_of(w.user.id)
        lines.append(
            {
                "labels": labels_of(game.pack) or {},
                "game": ref.id,
                "game_label": await svc.store.chats.label(ref.chat_id, ref.topic_id),
                "phase": game.phase.value,
                "day": game.day,
                "role": Card(player.role) if player else None,
            }
        )
    await say(context, w, "games.list", {"games": lines}, reply=w.private)


async def hand(update: Update, context: CustomContext) -> None:
    """/hand in private: hand, role, quota and answers owed, for every running game."""
    w = await private_update(update, context, "hand")
    if w is None:
        return
    svc = context.services
    views = []
    owed_prompts: list[tuple[int, str, Game, Suggestion]] = []
    for ref in await svc.store.games_of_person(w.user.id):
        game = await svc.store.load(ref.id)
        if game.phase is not Phase.RUNNING or game.player_of(w.user.id) is None:
            continue
        view = player_view(game, w.user.id)
        label = await svc.store.chats.label(ref.chat_id, ref.topic_id)
        owed_prompts.extend((ref.id, label, game, s) for s in view.owes)
        seen = svc.presentations.edition_of(game).also_seen(game, view.seat)
        hand = hand_args(game, view, seen, svc.now())
        views.append({"game": ref.id, "game_label": label, **hand})
    await say(context, w, "hand.list", {"views": views}, reply=False, buttons=_notebooks(views))
    for game_id, label, game, owed in owed_prompts:  # the answers still owed, buttons again
        args, choices = answer_prompt_args(game, owed)
        await say(
            context,
            w,
            "dm.answer_prompt",
            {"game": game_id, "game_label": label, **args},
            reply=False,
            tag=f":{game_id}:{owed.id}",
            buttons=answer_buttons(game_id, owed.id, choices),
            tz=game.settings.timezone,
            labels=labels_of(game.pack),
        )


def _notebooks(views: list[dict[str, object]]) -> list[list[dict[str, object]]]:
    """A notebook button under the hands, one per game (named when there are several)."""
    games = [int(str(v["game"])) for v in views]
    if len(games) == 1:
        return [[{"t": "button.notebook", "data": cb.Callback(cb.NOTEBOOK, games[0]).encode()}]]
    return [
        [
            {
                "t": "button.notebook_game",
                "args": {"game": game},
                "data": cb.Callback(cb.NOTEBOOK, game).encode(),
            }
        ]
        for game in games
    ]


async def answer_button(update: Update, context: CustomContext) -> None:
    """A target's press on a card (refute) or on "No refutation" in their answer prompt."""
    query = update.callback_query
    if query is None:
        return
    w = where(update)
    data = cb.parse(query.data)
    expected = {cb.REFUTE: 2, cb.NO_REFUTATION: 1}
    if w is None or data is None or len(data.args) != expected.get(data.kind):
        await answer_toast(context, update, "toast.stale")
        return
    if not _own_private_chat(update):
        await answer_toast(context, update, "toast.not_yours", alert=True)
        return
    try:
        suggestion = cb.number(data.args[0])
    except cb.Malformed:
        await answer_toast(context, update, "toast.stale")
        return
    if data.kind == cb.REFUTE:
        command: cmd.Command = cmd.Refute(actor=w.user.id, suggestion=suggestion, card=data.args[1])
    else:
        command = cmd.DeclareNoRefutation(actor=w.user.id, suggestion=suggestion)
    try:
        await context.run(data.game, command)
    except RuleError as error:
        await answer_toast(context, update, error_key(error), error_args(error), alert=True)
        return
    await answer_toast(context, update, "toast.answered")


def _own_private_chat(update: Update) -> bool:
    """Buttons of a private chat are for the person whose chat it is."""
    query = update.callback_query
    if query is None or query.message is None:
        return False
    return query.message.chat.id == query.from_user.id


async def reminders(update: Update, context: CustomContext) -> None:
    """/reminders on|off: private reminders before a day ends."""
    w = where(update)
    if w is None:
        return
    await remember(context, w.user)
    words = context.args or []
    choice = words[0].casefold() if words else ""
    if choice not in ON_WORDS | OFF_WORDS:
        await say(context, w, "reminders.usage")
        return
    on = choice in ON_WORDS
    await context.services.store.people.set_reminders(w.user.id, on)
    await say(context, w, "reminders.on" if on else "reminders.off")
