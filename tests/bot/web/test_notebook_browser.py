"""The notebook Mini App in a real browser (headless Chromium through Selenium), opened as
Telegram opens it, initData in the URL's fragment, with Telegram's own script unreachable:
the grid shows the player's hand, a tapped cell takes a mark that outlives a reload, and the
page is photographed for the players' guide (docs/notebook-miniapp.png, in docs/players.md).

Chromium is Debian's (`apt-get install chromium chromium-driver`; scripts/test installs it).
Without it the test is skipped, and fails under CI."""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from bot.web.server import HttpServer
from engine import commands as cmd
from engine.cards import CATEGORY_ORDER
from engine.settings import NotebookHelp
from storage.notebooks import OwnMark
from tests.support.notebook_app import NotebookTable, notebook_table, notebook_web_app
from tests.support.services import unreachable
from tests.support.stored_games import NOW, answer_for, planner

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - the dev extra installs it
    webdriver = None  # type: ignore[assignment]

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
SCREENSHOT = ROOT / "docs" / "notebook-miniapp.png"
CHROMIUM = ("chromium", "chromedriver")
WIDTH = 430  # a phone's width in CSS pixels
NOTE = "seen in the hall"


@dataclass(frozen=True)
class Visit:
    """What the browser is to check: the page's URL, the player's hand and column, and the
    open cell it marks."""

    url: str
    hand: tuple[str, ...]
    you: int
    card: str
    owner: int


def _browser_paths() -> tuple[str, str]:
    found = [shutil.which(name) for name in CHROMIUM]
    if webdriver is None or not all(found):
        unreachable(
            "Chromium, chromedriver or selenium is missing (apt-get install chromium "
            "chromium-driver; pip install -e '.[dev]')"
        )
    return str(found[0]), str(found[1])


async def _play_a_suggestion(table: NotebookTable) -> None:
    """Alice suggests cards of Bob's (where she can), and Bob shows her one."""
    bob_hand = table.hand(2)
    named = []
    for category in CATEGORY_ORDER:
        cards = table.game.in_play(category)
        held = [c for c in cards if c in bob_hand]
        named.append(held[0] if held else next(c for c in cards if c not in table.hand(1)))
    suspect, weapon, place = named
    made = cmd.MakeSuggestion(actor=1, target=2, suspect=suspect, weapon=weapon, place=place)
    outcome = await table.store.execute(table.game_id, made, NOW, planner)
    await table.store.execute(table.game_id, answer_for(outcome.state, 1), NOW, planner)


async def test_the_notebook_in_a_real_browser(tmp_path: Path) -> None:
    chromium, chromedriver = _browser_paths()
    async with notebook_table(tmp_path, level=NotebookHelp.ODDS, now=NOW) as table:
        await _play_a_suggestion(table)
        alice = table.seat(1)
        carol, dave = table.seat(3), table.seat(4)
        marks = table.store.notebook_marks
        await marks.put(table.game_id, alice, table.hand(3)[0], dave, OwnMark("no"))
        await marks.put(table.game_id, alice, table.hand(4)[0], dave, OwnMark("maybe", "Dave?"))
        server = HttpServer(notebook_web_app(lambda: table.services), "127.0.0.1", 0)
        await server.start()
        try:
            init_data = quote(table.init_data(1), safe="")
            url = (
                f"http://127.0.0.1:{server.port}/notebook/?game={table.game_id}"
                f"#tgWebAppData={init_data}&tgWebAppVersion=8.0&tgWebAppPlatform=android"
            )
            visit = Visit(url, tuple(table.hand(1)), alice, table.hand(3)[1], carol)
            await asyncio.to_thread(_drive, visit, chromium, chromedriver)
        finally:
            await server.stop()
        stored = await marks.of(table.game_id, alice)
        assert stored[(visit.card, carol)] == OwnMark("yes", NOTE)
    assert SCREENSHOT.stat().st_size > 10_000


def _drive(visit: Visit, chromium: str, chromedriver: str) -> None:
    options = Options()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in a container
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={WIDTH},900",
        "--force-device-scale-factor=2",
        "--lang=en-US",
        # Telegram's script cannot load: the page must do without it.
        "--host-resolver-rules=MAP telegram.org ~NOTFOUND, MAP *.telegram.org ~NOTFOUND",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    try:
        driver.get(visit.url)
        _ready(driver)
        assert driver.execute_script("return typeof window.Telegram") == "undefined"
        for card in visit.hand:
            held = _cell(driver, card, visit.you)
            assert (held.text, held.get_attribute("data-state")) == ("✓", "has")
        target = _cell(driver, visit.card, visit.owner)
        assert target.get_attribute("data-state") == "open" and target.text.endswith("%")
        target.click()
        note = driver.find_element(By.ID, "editor-note")
        WebDriverWait(driver, 10).until(lambda d: note.is_displayed())
        note.send_keys(NOTE)
        driver.find_element(By.CSS_SELECTOR, '#editor-marks button[data-mark="yes"]').click()
        WebDriverWait(driver, 10).until(lambda d: _saved(d, visit, "yes"))
        driver.refresh()
        _ready(driver)
        marked = _cell(driver, visit.card, visit.owner)
        assert marked.get_attribute("data-mark") == "yes" and marked.text.startswith("+")
        assert marked.get_attribute("title") == NOTE
        height = int(driver.execute_script("return document.documentElement.scrollHeight"))
        phone = {
            "width": WIDTH,
            "height": min(height, 2400),
            "deviceScaleFactor": 2,
            "mobile": True,
        }
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", phone)
        SCREENSHOT.parent.mkdir(exist_ok=True)
        assert driver.save_screenshot(str(SCREENSHOT))
    finally:
        driver.quit()


def _ready(driver: WebDriver) -> None:
    WebDriverWait(driver, 20).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
    )


def _cell(driver: WebDriver, card: str, owner: int) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'td[data-card="{card}"][data-owner="{owner}"]')


def _saved(driver: WebDriver, visit: Visit, mark: str) -> bool:
    cell = _cell(driver, visit.card, visit.owner)
    classes = (cell.get_attribute("class") or "").split()
    return cell.get_attribute("data-mark") == mark and "pending" not in classes
