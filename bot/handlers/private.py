"""The private chat: /start (deep links), hands, games, composers and answer buttons."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot import callbacks as cb
from bot.handlers.common import (
    answer_toast,
    error_args,
    error_key,
    private_update,
    remember,
    say,
    services,
    where,
)
from bot.planner import answer_buttons
from bot.render import labels_of
from engine import commands as cmd
from engine.errors import RuleError
from engine.queries import PlayerView, answer_choices, player_view
from engine.state import Game, Phase, Suggestion
from storage.planning import OutboxItem


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: the person can now receive direct messages; what waited for them goes out."""
    w = where(update)
    if w is None:
        return
    await remember(context, w.user)
    if not w.private:
        await say(context, w, "help.group")
        return
    svc = services(context)
    await svc.store.people.set_dm_ok(w.user.id, True)
    welcome = OutboxItem(  # before the hand and prompts it introduces
        f"u{w.update_id}:start.welcome",
        w.chat.id,
        user_id=w.user.id,
        payload={"msg": "start.welcome", "args": {}},
    )
    await svc.store.release_waiting(w.user.id, svc.now(), first=welcome)
    svc.outbox_ready.set()
    payload = context.args[0] if context.args else ""
    if payload == "accuse":  # from the group's "accusations are private" answer
        from bot.handlers.moves import open_composer

        await open_composer(context, w, "c")
    elif payload == "hand":
        await hand(update, context)


async def my_games(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/games (in private): the person's games, with day and role."""
    w = await private_update(update, context, "games")
    if w is None:
        return
    svc = services(context)
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
                "role_card": player.role if player else None,
            }
        )
    await say(context, w, "games.list", {"games": lines}, reply=w.private)


def hand_args(game: Game, view: PlayerView, game_id: int, label: str) -> dict[str, Any]:
    """One game's part of /hand: the hand, role, quota, answers owed and cards shown."""
    return {
        "labels": labels_of(game.pack) or {},
        "game": game_id,
        "game_label": label,
        "hand_cards": list(view.hand),
        "role_card": view.role,
        "left": view.quota_left,
        "owes": len(view.owes),
        "owed": len(view.owed),
        "shown": [
            {
                "number": game.suggestions[i - 1].number,
                "day": game.suggestions[i - 1].day,
                "card": card,
            }
            for i, card in view.shown_to_me
        ],
    }


async def hand(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/hand in private: hand, role, quota and answers owed, for every running game."""
    w = await private_update(update, context, "hand")
    if w is None:
        return
    svc = services(context)
    views = []
    owed_prompts: list[tuple[int, str, Game, Suggestion]] = []
    for ref in await svc.store.games_of_person(w.user.id):
        game = await svc.store.load(ref.id)
        if game.phase is not Phase.RUNNING or game.player_of(w.user.id) is None:
            continue
        view = player_view(game, w.user.id)
        label = await svc.store.chats.label(ref.chat_id, ref.topic_id)
        owed_prompts.extend((ref.id, label, game, s) for s in view.owes)
        views.append(hand_args(game, view, ref.id, label))
    await say(context, w, "hand.list", {"views": views}, reply=False)
    for game_id, label, game, owed in owed_prompts:  # the answers still owed, buttons again
        choices = answer_choices(game, w.user.id, owed.id)
        args = {
            "game": game_id,
            "game_label": label,
            "number": owed.number,
            "suggester_user": game.players[owed.suggester].user,
            "suspect_card": owed.suspect,
            "weapon_card": owed.weapon,
            "place_card": owed.place,
            "holds_none": not choices,
            "due_at": owed.answer_due.isoformat(),
        }
        await say(
            context,
            w,
            "dm.answer_prompt",
            args,
            reply=False,
            tag=f":{game_id}:{owed.id}",
            buttons=answer_buttons(game_id, owed.id, choices),
            tz=game.settings.timezone,
            labels=labels_of(game.pack),
        )


async def answer_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
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
    svc = services(context)
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
        await svc.run(data.game, command)
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


async def reminders(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/reminders on|off: private reminders before a day ends."""
    w = where(update)
    if w is None:
        return
    await remember(context, w.user)
    words = ((w.message.text if w.message else "") or "").split()[1:]
    choice = words[0].lower() if words else ""
    if choice not in ("on", "off", "вкл", "выкл"):
        await say(context, w, "reminders.usage")
        return
    on = choice in ("on", "вкл")
    await services(context).store.people.set_reminders(w.user.id, on)
    await say(context, w, "reminders.on" if on else "reminders.off")
