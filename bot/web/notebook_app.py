"""The detective's notebook as a Telegram Mini App, on the bot's HTTP server in webhook mode.

- GET /notebook/?game=ID: the page (HTML, a small script and a style sheet, no build step);
- GET /notebook/api/sheet?game=ID: the player's notebook in their words (notebook_words);
- POST /notebook/api/mark {game, card, owner, mark, note}: one of their own marks.

Who asks is known only from the `initData` Telegram signed for the page, sent as the header
`Authorization: tma <initData>` (bot.web.init_data), never from a parameter: a player's
initData opens their own notebook and nobody else's. Neither initData nor the token is
ever logged."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from types import MappingProxyType
from typing import Any, Protocol

from aiohttp import web

from bot.directory import Directory
from bot.notebook.keeper import Notebooks
from bot.payload import labels_of
from bot.render.reader import Reader
from bot.render.wording import place_name
from bot.web.init_data import MAX_AGE, InitDataError, validate
from bot.web.notebook_words import cell_of, page_of
from engine.errors import RuleError
from engine.state import Game, Phase
from locales import t
from storage.notebooks import MARKS, MAX_NOTE, OwnMark
from storage.service import Store

log = logging.getLogger(__name__)

PREFIX = "/notebook"
# The page's files: name under /notebook/ -> (file in bot/web/static, type).
STATIC = MappingProxyType(
    {
        "": ("notebook.html", "text/html"),
        "app.js": ("notebook.js", "text/javascript"),
        "app.css": ("notebook.css", "text/css"),
    }
)
PAGE_HEADERS = MappingProxyType(
    {
        "Content-Security-Policy": (
            "default-src 'self'; script-src 'self' https://telegram.org; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
            "base-uri 'none'; form-action 'none'; object-src 'none'"
        ),
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
    }
)
API_HEADERS = MappingProxyType({"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})
MAX_ID_DIGITS = 18  # a game id fits the database's signed 64-bit integer


class NotebookPages(Protocol):
    """What the Mini App asks of the running bot (`bot.services.Services` gives it): the
    store and the clock, the people's languages and names, and the notebooks."""

    @property
    def store(self) -> Store: ...

    @property
    def directory(self) -> Directory: ...

    @property
    def notebooks(self) -> Notebooks: ...

    @property
    def default_language(self) -> str: ...

    def now(self) -> datetime: ...


@dataclass
class Asking:
    """One request: the bot's services and the asker's language, once known."""

    services: NotebookPages
    language: str


Handler = Callable[[web.Request, Asking], Awaitable[web.StreamResponse]]


class Refusal(Exception):
    """An answer other than 200: HTTP status, a code for the page, the catalog key."""

    def __init__(self, status: int, code: str, key: str, **values: Any) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.key = key
        self.values = values


@dataclass(frozen=True)
class Seated:
    """The player asking, their running game and their seat in it."""

    user_id: int
    game_id: int
    game: Game
    seat: int


class NotebookApp:
    """The Mini App's routes; `services` finds the running bot's Services (None while it
    starts), `token` is the bot's token initData is signed with."""

    def __init__(
        self,
        services: Callable[[], NotebookPages | None],
        token: str,
        *,
        max_age: float = MAX_AGE,
    ) -> None:
        self.services = services
        self._token = token
        self.max_age = max_age
        folder = resources.files("bot.web") / "static"
        self.files = {
            name: (folder.joinpath(file).read_bytes(), kind)
            for name, (file, kind) in STATIC.items()
        }

    def add_routes(self, router: web.UrlDispatcher) -> None:
        """GET /notebook/ and its files, GET /notebook/api/sheet, POST /notebook/api/mark."""
        router.add_get(PREFIX, self.to_page)
        for name in STATIC:
            router.add_get(f"{PREFIX}/{name}", self.static)
        router.add_get(f"{PREFIX}/api/sheet", self.answering(self.sheet))
        router.add_post(f"{PREFIX}/api/mark", self.answering(self.mark))

    async def to_page(self, request: web.Request) -> web.StreamResponse:
        """/notebook → /notebook/ (the query kept)."""
        raise web.HTTPFound(request.rel_url.with_path(f"{PREFIX}/").with_query(request.query))

    async def static(self, request: web.Request) -> web.StreamResponse:
        body, kind = self.files[request.path.removeprefix(f"{PREFIX}/")]
        headers = PAGE_HEADERS if kind == "text/html" else {"X-Content-Type-Options": "nosniff"}
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)

    def answering(self, handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        """The handler, its refusals answered as JSON {"error", "message"}."""

        async def answer(request: web.Request) -> web.StreamResponse:
            services = self.services()
            if services is None:
                return web.json_response({"error": "starting"}, status=503, headers=API_HEADERS)
            asking = Asking(services, services.default_language)
            try:
                return await handler(request, asking)
            except Refusal as refusal:
                message = t(asking.language, refusal.key, **refusal.values)
                body = {"error": refusal.code, "message": message}
                return web.json_response(body, status=refusal.status, headers=API_HEADERS)

        return answer

    async def sheet(self, request: web.Request, asking: Asking) -> web.StreamResponse:
        """The player's notebook now, every word in their language."""
        services = asking.services
        user_id = self._user_of(request, services)
        seated = await self._seated(services, user_id, request.query.get("game", ""))
        reader = await self._reader(asking, seated)
        sheet = await services.notebooks.sheet(seated.game_id, seated.seat)
        place = await _place(services, reader.language, seated.game_id)
        page = page_of(reader, sheet, seated.game_id, place)
        return web.json_response(page, headers=API_HEADERS)

    async def mark(self, request: web.Request, asking: Asking) -> web.StreamResponse:
        """Set one cell's own mark and note; the cell as it is now."""
        services = asking.services
        user_id = self._user_of(request, services)
        body = await _json_body(request)
        seated = await self._seated(services, user_id, body.get("game"))
        await self._reader(asking, seated)  # the refusals' language
        sheet = await services.notebooks.sheet(seated.game_id, seated.seat)
        card, owner, own = _cell_and_mark(sheet, body)
        await services.store.notebook_marks.put(seated.game_id, seated.seat, card, owner, own)
        sheet = await services.notebooks.sheet(seated.game_id, seated.seat)
        cell = {"card": card, **cell_of(sheet, card, owner)}
        return web.json_response({"cell": cell}, headers=API_HEADERS)

    def _user_of(self, request: web.Request, services: NotebookPages) -> int:
        """The user whose initData signs the request (401 for anything else)."""
        scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "tma":
            raise Refusal(401, "unauthorized", "notebook.app.unauthorized")
        try:
            return validate(
                init_data.strip(),
                self._token,
                now=services.now().timestamp(),
                max_age=self.max_age,
            )
        except InitDataError as error:  # says what is wrong, never the data
            log.info("notebook app: sign-in refused: %s", error)
            raise Refusal(401, "unauthorized", "notebook.app.unauthorized") from None

    async def _seated(self, services: NotebookPages, user_id: int, game: Any) -> Seated:
        """The running game named and the asker's seat in it (404 when they have none)."""
        game_id = _game_id(game)
        try:
            state = await services.store.load(game_id)
        except RuleError:
            raise Refusal(404, "not_playing", "notebook.app.not_playing") from None
        player = state.player_of(user_id)
        if state.phase is not Phase.RUNNING or player is None:
            raise Refusal(404, "not_playing", "notebook.app.not_playing")
        return Seated(user_id, game_id, state, player.seat)

    async def _reader(self, asking: Asking, seated: Seated) -> Reader:
        """The player as a reader: their language, the players' names, the pack's cards."""
        directory = asking.services.directory
        language = await directory.person_language(seated.user_id, seated.game_id)
        asking.language = language
        names = await directory.persons(p.user for p in seated.game.players)
        return Reader(language, people=names, labels=labels_of(seated.game.pack) or {})


async def _place(services: NotebookPages, language: str, game_id: int) -> str:
    """Which game, as its private messages name it: its chat and topic (escaped)."""
    ref = await services.store.game(game_id)
    label = await services.store.chats.label(ref.chat_id, ref.topic_id) if ref else ""
    return place_name(language, {"game": game_id, "game_label": label})


def _game_id(value: Any) -> int:
    """A game id from the query (text) or a JSON body (a number)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value) if len(value) <= MAX_ID_DIGITS else 0
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 2**63:
        raise Refusal(400, "bad_game", "notebook.app.bad_game")
    return value


async def _json_body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise Refusal(400, "bad_request", "notebook.app.bad_request")
    return body


def _cell_and_mark(sheet: dict[str, Any], body: dict[str, Any]) -> tuple[str, int, OwnMark]:
    """The cell and the mark a request names, each checked against the player's sheet."""
    card = body.get("card")
    if not isinstance(card, str) or not any(card in cards for cards in sheet["categories"]):
        raise Refusal(400, "bad_card", "notebook.app.bad_card")
    owner = body.get("owner")
    owners = {int(o) for o, _ in sheet["owners"]}
    if not isinstance(owner, int) or isinstance(owner, bool) or owner not in owners:
        raise Refusal(400, "bad_owner", "notebook.app.bad_owner")
    mark = body.get("mark")
    if mark is not None and mark not in MARKS:
        raise Refusal(400, "bad_mark", "notebook.app.bad_mark")
    note = body.get("note")
    if note is not None and not isinstance(note, str):
        raise Refusal(400, "bad_note", "notebook.app.bad_note", max=MAX_NOTE)
    note = (note or "").strip() or None
    if note is not None and (len(note) > MAX_NOTE or not note.isprintable()):
        raise Refusal(400, "bad_note", "notebook.app.bad_note", max=MAX_NOTE)
    return card, owner, OwnMark(mark, note)
