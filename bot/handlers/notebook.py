"""/notebook and /mark in private, and the notebook's buttons: each player's notebook as a
picture (or text), and their own marks on it."""

from __future__ import annotations

from telegram import Update

from bot import callbacks as cb
from bot.context import CustomContext
from bot.handlers.common import Where, answer_toast, private_update, say, where
from bot.handlers.seats import Seated, chosen_game, seat_in
from bot.handlers.working import shown_working
from bot.notebook.marking import MarkError, read_mark
from bot.payload import Users, labels_of
from engine.state import Game


async def notebook(update: Update, context: CustomContext) -> None:
    """/notebook [game]: the person's notebook of their running game (which one, when they
    play in several)."""
    w = await private_update(update, context, "notebook")
    if w is None:
        return
    seated = await chosen_game(context, w, context.args or [], "notebook", "notebook.no_game")
    if seated is not None:
        await send_notebook(
            context, w, seated, as_text=bool(context.args and "text" in context.args)
        )


async def mark(update: Update, context: CustomContext) -> None:
    """/mark [game] card player yes|no|maybe|clear [note]: a mark of one's own on a cell."""
    w = await private_update(update, context, "notebook")
    if w is None:
        return
    words = list(context.args or [])
    seated = await chosen_game(
        context,
        w,
        words[:1] if words[:1] and words[0].isdigit() else [],
        "mark",
        "notebook.no_game",
    )
    if seated is None:
        return
    if words and words[0].isdigit():
        words = words[1:]
    svc = context.services
    language = await svc.directory.person_language(w.user.id, seated.game_id)
    names = await svc.directory.persons(p.user for p in seated.game.players)
    try:
        card, owner, own = read_mark(seated.game, words, language, names, seated.seat)
    except MarkError as error:
        labels = labels_of(seated.game.pack)
        await say(context, w, error.key, error.values, labels=labels, game=seated.game_id)
        return
    await svc.store.notebook_marks.put(seated.game_id, seated.seat, card, owner, own)
    cell = {"card": card, "owner": owner, "mark": own.mark, "note": own.note}
    key = "notebook.mark_cleared" if own.mark is None else "notebook.mark_saved"
    args = {"cell": cell, "owners": _owners(seated.game), "player": w.user.id}
    await say(
        context,
        w,
        key,
        {**args, "players": _players(seated.game)},
        labels=labels_of(seated.game.pack),
        game=seated.game_id,
    )


async def notebook_button(update: Update, context: CustomContext) -> None:
    """The notebook's buttons: under /hand (nb:game) and under the picture (nb:game:t)."""
    query = update.callback_query
    w = where(update)
    data = cb.parse(query.data if query else None)
    if query is None or w is None or data is None or data.args not in ((), ("t",)):
        await answer_toast(context, update, "toast.stale")
        return
    seated = await seat_in(context, w.user.id, data.game)
    if seated is None or not w.private:
        await answer_toast(context, update, "toast.stale")
        return
    await answer_toast(context, update, "toast.notebook")
    await send_notebook(context, w, seated, as_text=data.args == ("t",))


async def send_notebook(context: CustomContext, w: Where, seated: Seated, *, as_text: bool) -> None:
    """The notebook now: a picture with a button for the text, or the text."""
    game_id = seated.game_id
    working_out = context.services.notebooks.sheet(game_id, seated.seat)
    sheet = await shown_working(context, w, "typing" if as_text else "upload_photo", working_out)
    args = {"sheet": sheet, "players": _players(seated.game)}
    labels = labels_of(seated.game.pack)
    if as_text or sheet["level"] == "off":
        await say(context, w, "notebook.text", args, reply=False, labels=labels, game=game_id)
        return
    text_button = cb.Callback(cb.NOTEBOOK, seated.game_id, ("t",)).encode()
    buttons: list[list[dict[str, object]]] = [[{"t": "button.notebook_text", "data": text_button}]]
    app_url = context.services.notebook_app_url
    if app_url is not None and w.private:  # Telegram takes a Mini App button in private only
        opened = f"{app_url}?game={seated.game_id}"
        buttons.append([{"t": "button.notebook_app", "web_app": opened}])
    await say(
        context,
        w,
        "notebook.picture",
        args,
        reply=False,
        labels=labels,
        picture="notebook",
        buttons=buttons,
        game=game_id,
    )


def _owners(game: Game) -> list[list[int]]:
    return [[p.seat, p.user] for p in game.players]


def _players(game: Game) -> Users:
    return Users(tuple(p.user for p in game.players))
