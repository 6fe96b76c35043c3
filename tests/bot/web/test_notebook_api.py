"""The notebook Mini App's API: only a player Telegram signed for gets a notebook, and only
their own; their marks are saved and read back; a bad mark is refused and writes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from engine import commands as cmd
from engine.notebook.facts import ENVELOPE
from engine.settings import NotebookHelp
from storage.notebooks import OwnMark
from tests.support.notebook_app import NotebookTable, notebook_table, notebook_web_app
from tests.support.stored_games import NOW, planner

Client = TestClient[web.Request, web.Application]


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[NotebookTable]:
    async with notebook_table(tmp_path) as made:
        yield made


@pytest.fixture
async def client(table: NotebookTable) -> AsyncIterator[Client]:
    async with TestClient(TestServer(notebook_web_app(lambda: table.services))) as made:
        yield made


def _auth(init_data: str) -> dict[str, str]:
    return {"Authorization": f"tma {init_data}"}


async def _sheet(client: Client, table: NotebookTable, user_id: int) -> dict[str, Any]:
    answer = await client.get(
        f"/notebook/api/sheet?game={table.game_id}", headers=_auth(table.init_data(user_id))
    )
    assert answer.status == 200, await answer.text()
    assert answer.headers["Cache-Control"] == "no-store"
    body: dict[str, Any] = await answer.json()
    return body


def _cells(page: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    return {
        (row["card"], cell["owner"]): cell
        for section in page["sections"]
        for row in section["rows"]
        for cell in row["cells"]
    }


def _held(page: dict[str, Any]) -> dict[int, set[str]]:
    held: dict[int, set[str]] = {}
    for (card, owner), cell in _cells(page).items():
        if cell["state"] == "has":
            held.setdefault(owner, set()).add(card)
    return held


@pytest.mark.parametrize(
    "auth",
    [
        None,
        "Bearer x",
        "tma ",
        "tma forged",
        "forged:token",
        "expired",
        "future",
    ],
)
async def test_no_notebook_without_telegrams_signature(
    client: Client, table: NotebookTable, auth: str | None
) -> None:
    headers = {} if auth is None else {"Authorization": auth}
    if auth == "tma forged":
        signed = table.init_data(1)
        headers = _auth(signed.replace("%22id%22%3A1", "%22id%22%3A2"))  # Bob, Alice's hash
    elif auth == "forged:token":
        headers = _auth(table.init_data(1, token="123456:another-bot"))
    elif auth == "expired":
        headers = _auth(table.init_data(1, age=24 * 3600 + 1))
    elif auth == "future":
        headers = _auth(table.init_data(1, age=-600))
    answer = await client.get(f"/notebook/api/sheet?game={table.game_id}", headers=headers)
    assert answer.status == 401
    body = await answer.json()
    assert body["error"] == "unauthorized" and body["message"]
    post = await client.post("/notebook/api/mark", json={"game": table.game_id}, headers=headers)
    assert post.status == 401


async def test_each_player_gets_their_own_notebook_only(
    client: Client, table: NotebookTable
) -> None:
    for user_id, other in ((1, 2), (2, 1)):
        page = await _sheet(client, table, user_id)
        you = next(c for c in page["columns"] if c["you"])
        assert you["owner"] == table.seat(user_id) and you["name"] == "you"
        names = [c["name"] for c in page["columns"]]
        assert "Bob" in names if user_id == 1 else "Alice" in names
        # What is known to be held: the reader's own hand, in their own column, and nothing
        # of anyone else's (the deal showed them no other card).
        assert _held(page) == {table.seat(user_id): set(table.hand(user_id))}
        assert not set(table.hand(other)) & set().union(*_held(page).values())
        rows = {r["card"]: r for s in page["sections"] for r in s["rows"]}
        assert {c for c, r in rows.items() if r["hand"]} == set(table.hand(user_id))
        assert page["title"].startswith("📓") and "<" not in page["title"]
        assert page["words"]["marks"]["yes"] == "yes" and page["legend"]


async def test_a_parameter_never_chooses_whose_notebook(
    client: Client, table: NotebookTable
) -> None:
    alice = table.init_data(1)
    url = f"/notebook/api/sheet?game={table.game_id}&user=2&seat={table.seat(2)}"
    answer = await client.get(url, headers=_auth(alice))
    page = await answer.json()
    assert _held(page) == {table.seat(1): set(table.hand(1))}
    card = table.hand(2)[0]
    body = {"game": table.game_id, "card": card, "owner": ENVELOPE, "mark": "no", "user": 2}
    assert (await client.post("/notebook/api/mark", json=body, headers=_auth(alice))).status == 200
    assert (card, ENVELOPE) in await table.store.notebook_marks.of(table.game_id, table.seat(1))
    assert await table.store.notebook_marks.of(table.game_id, table.seat(2)) == {}


@pytest.mark.parametrize("game", ["", "abc", "-1", "0", "99999999999999999999"])
async def test_a_game_that_is_no_number_is_a_bad_request(
    client: Client, table: NotebookTable, game: str
) -> None:
    url = f"/notebook/api/sheet?game={game}"
    answer = await client.get(url, headers=_auth(table.init_data(1)))
    assert answer.status == 400 and (await answer.json())["error"] == "bad_game"


async def test_no_notebook_of_a_game_one_does_not_play(
    client: Client, table: NotebookTable
) -> None:
    for user_id, game in ((99, table.game_id), (1, table.game_id + 1000)):
        answer = await client.get(
            f"/notebook/api/sheet?game={game}", headers=_auth(table.init_data(user_id))
        )
        assert answer.status == 404 and (await answer.json())["error"] == "not_playing"
    end = cmd.EndGame(actor=1, actor_is_admin=True)
    await table.store.execute(table.game_id, end, NOW, planner)
    answer = await client.get(
        f"/notebook/api/sheet?game={table.game_id}", headers=_auth(table.init_data(1))
    )
    assert answer.status == 404


async def test_a_mark_is_saved_and_read_back(client: Client, table: NotebookTable) -> None:
    card = table.hand(2)[0]  # Bob's card: open in Alice's notebook
    bob = table.seat(2)
    assert _cells(await _sheet(client, table, 1))[(card, bob)]["state"] == "open"
    body = {"game": table.game_id, "card": card, "owner": bob, "mark": "maybe", "note": " hall? "}
    answer = await client.post("/notebook/api/mark", json=body, headers=_auth(table.init_data(1)))
    assert answer.status == 200
    cell = (await answer.json())["cell"]
    said = (cell["card"], cell["owner"], cell["mark"], cell["note"])
    assert said == (card, bob, "maybe", "hall?")
    assert cell["state"] == "open"
    page = await _sheet(client, table, 1)
    assert _cells(page)[(card, bob)]["mark"] == "maybe"
    assert _cells(page)[(card, bob)]["note"] == "hall?"
    stored = await table.store.notebook_marks.of(table.game_id, table.seat(1))
    assert stored == {(card, bob): OwnMark("maybe", "hall?")}
    assert all(c["mark"] is None for c in _cells(await _sheet(client, table, 2)).values())
    clear = {**body, "mark": None, "note": None}
    answer = await client.post("/notebook/api/mark", json=clear, headers=_auth(table.init_data(1)))
    assert answer.status == 200 and (await answer.json())["cell"]["mark"] is None
    assert await table.store.notebook_marks.of(table.game_id, table.seat(1)) == {}


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"card": "no-such-card"}, "bad_card"),
        ({"card": 7}, "bad_card"),
        ({"owner": 9}, "bad_owner"),
        ({"owner": -3}, "bad_owner"),
        ({"owner": True}, "bad_owner"),
        ({"owner": "0"}, "bad_owner"),
        ({"mark": "definitely"}, "bad_mark"),
        ({"mark": "clear"}, "bad_mark"),
        ({"note": "x" * 33}, "bad_note"),
        ({"note": "two\nlines"}, "bad_note"),
        ({"note": 5}, "bad_note"),
        ({"game": "x"}, "bad_game"),
        ({"game": None}, "bad_game"),
    ],
)
async def test_a_bad_mark_is_refused_and_nothing_changes(
    client: Client, table: NotebookTable, change: dict[str, Any], error: str
) -> None:
    card, bob = table.hand(2)[0], table.seat(2)
    await table.store.notebook_marks.put(table.game_id, table.seat(1), card, bob, OwnMark("no"))
    before = await table.store.notebook_marks.of(table.game_id, table.seat(1))
    body = {"game": table.game_id, "card": card, "owner": bob, "mark": "yes", "note": None}
    answer = await client.post(
        "/notebook/api/mark", json={**body, **change}, headers=_auth(table.init_data(1))
    )
    assert answer.status == 400
    refusal = await answer.json()
    assert refusal["error"] == error and refusal["message"]
    assert await table.store.notebook_marks.of(table.game_id, table.seat(1)) == before


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b""])
async def test_a_body_that_is_no_json_object_is_refused(
    client: Client, table: NotebookTable, body: bytes
) -> None:
    answer = await client.post(
        "/notebook/api/mark",
        data=body,
        headers={**_auth(table.init_data(1)), "Content-Type": "application/json"},
    )
    assert answer.status == 400 and (await answer.json())["error"] == "bad_request"


async def test_the_page_and_its_files(client: Client) -> None:
    page = await client.get("/notebook/?game=5")
    assert page.status == 200 and page.content_type == "text/html"
    text = await page.text()
    assert 'src="app.js"' in text and "telegram-web-app.js" in text
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    for name, kind in (("app.js", "text/javascript"), ("app.css", "text/css")):
        answer = await client.get(f"/notebook/{name}")
        assert answer.status == 200 and answer.content_type == kind
    moved = await client.get("/notebook?game=5", allow_redirects=False)
    assert moved.status == 302 and moved.headers["Location"] == "/notebook/?game=5"


async def test_nothing_is_answered_before_the_bot_has_started() -> None:
    async with TestClient(TestServer(notebook_web_app(lambda: None))) as client:
        answer = await client.get("/notebook/api/sheet?game=1")
        assert answer.status == 503


async def test_the_odds_show_in_open_cells(tmp_path: Path) -> None:
    async with (
        notebook_table(tmp_path, level=NotebookHelp.ODDS) as table,
        TestClient(TestServer(notebook_web_app(lambda: table.services))) as client,
    ):
        page = await _sheet(client, table, 1)
        cells = _cells(page)
        open_cells = [c for c in cells.values() if c["state"] == "open"]
        assert open_cells and all(0 < c["percent"] < 100 for c in open_cells)
        assert all(c["percent"] is None for c in cells.values() if c["state"] != "open")
        assert "odds" in [entry["kind"] for entry in page["legend"]]


async def test_with_the_notebook_off_only_the_hand_is_known(tmp_path: Path) -> None:
    async with (
        notebook_table(tmp_path, level=NotebookHelp.OFF) as table,
        TestClient(TestServer(notebook_web_app(lambda: table.services))) as client,
    ):
        page = await _sheet(client, table, 1)
        assert page["level"] == "off"
        assert _held(page) == {table.seat(1): set(table.hand(1))}
        assert all(c["state"] in ("has", "open") for c in _cells(page).values())
