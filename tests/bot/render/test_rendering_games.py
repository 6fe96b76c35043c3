"""Messages of played games render in both languages: filled, valid, within limits, and
the Russian catalog really used."""

from __future__ import annotations

import fcntl
import pickle
import re
from dataclasses import dataclass, field
from datetime import time, timedelta
from typing import Any

import pytest

from bot.announce.views import hand_args, status_args
from bot.editions.registry import shipped
from bot.handlers.common import error_args, error_key
from bot.payload import Moment, Payload, Users
from bot.render.keyboards import buttons_markup
from bot.render.reader import Person, Reader
from engine import REGISTRY
from engine import commands as cmd
from engine.cards import CATEGORY_ORDER
from engine.codec import to_dict
from engine.decide import decide_and_apply
from engine.errors import RuleError
from engine.events import Event
from engine.queries import player_view
from engine.settings import Settings
from engine.state import Game, Phase
from engine.y2023.cards import Y2023
from fakebot.html import parse_html
from fakebot.spec import ApiError
from locales import LANGUAGES, catalog
from simulation.liarsplay import LIARS, RandomLiars
from simulation.randomplay import START, RandomGame
from simulation.tableplay import CLASSIC, RandomTable
from simulation.y2023play import Y2023_SETTINGS
from storage.messages_owed import OutboxItem, PlanContext
from tests.support.catalogs import (
    OTHERS,
    WORD,
    all_texts,
    english_words,
)

SHOWN = shipped()  # the shipped editions' presentations
board_post = SHOWN.board_post
compose = SHOWN.compose
plan_messages = SHOWN.plan_messages
edition_of = SHOWN.edition_of

# --- the catalogs agree ------------------------------------------------------------------


GAMES = 50
PEOPLE = {
    1: Person("Анна <Ша> & Ко", None),
    2: Person("Bob", "bob_the_sleuth"),
    3: Person("Зоя", None),
    1001: Person("Новичок", "newbie"),
}
PLACE = "Cluedo club · Case <7>"  # the game's chat and topic, as private messages name it
NAMES = (
    [p.name for p in PEOPLE.values()]
    + [f"@{p.username}" for p in PEOPLE.values() if p.username]
    + [PLACE]
)
TIMEZONE = "Europe/Moscow"
NAME_WORDS = frozenset(w.casefold() for name in NAMES for w in WORD.findall(name))


# A language's own text: an English text it writes too ("Revolver", a name) is no leak.
OWN_TEXT = {
    lang: " ".join(text for _, _, text in all_texts(lang)) for lang in LANGUAGES if lang != "en"
}
# A language's card names: an edition may keep the English ones ("🔒 Professor Plum").
CARD_NAMES = {
    lang: [
        text for key, text in catalog(lang).items() if key.count(".") == 1 and key[:5] == "card."
    ]
    for lang in LANGUAGES
}


@dataclass
class Rendered:
    seed: int
    msg: str
    texts: dict[str, str] = field(default_factory=dict)  # language → HTML
    plain: dict[str, str] = field(default_factory=dict)  # language → text Telegram shows
    buttons: dict[str, list[list[dict[str, str]]]] = field(default_factory=dict)
    typed: list[str] = field(default_factory=list)  # values people type, e.g. "random"
    private: bool = False  # sent to a person's private chat


class Planner:
    """A planned game's payloads, and which of them go to a private chat."""

    planned: list[dict[str, Any]]
    private: list[int]  # the id of each payload for a private chat

    def plan(self, items: list[OutboxItem]) -> None:
        items = [i for i in items if not i.owed]  # a story owed is composed after the end
        self.planned.extend(item.payload for item in items)
        self.private.extend(id(item.payload) for item in items if item.user_id is not None)


class PlannedGame(Planner, RandomGame):
    """A random game that plans the messages of every accepted command, as the store does."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.planned: list[dict[str, Any]] = []
        self.private = []
        self.seq = 1
        self.event_types: set[type[Event]] = set()

    def run(self, command: Any) -> list[Event]:
        decision = None
        try:
            decision = decide_and_apply(self.state, command, self.now)
        except RuleError as error:  # what the bot would answer
            self.planned.append({"msg": error_key(error), "args": error_args(error)})
        earlier = list(self.events)
        events = super().run(command)
        if events:
            assert decision is not None and decision.events == events
            ctx = PlanContext(1, -100, 0, decision, self.seq, PLACE, lambda: earlier)
            self.seq += len(events)
            self.event_types.update(type(e) for e in events)
            self.plan(plan_messages(ctx))
        return events


class PlannedTable(Planner, RandomTable):
    """A random classic game that plans the messages of every accepted command."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.planned: list[dict[str, Any]] = []
        self.private = []
        self.seq = 1
        self.event_types: set[type[Event]] = set()

    def run(self, command: Any) -> list[Event]:
        try:
            decision = decide_and_apply(self.state, command, self.now)
        except RuleError as error:
            self.planned.append({"msg": error_key(error), "args": error_args(error)})
            return super().run(command)
        earlier = list(self.events)
        events = super().run(command)
        ctx = PlanContext(1, -100, 0, decision, self.seq, PLACE, lambda: earlier)
        self.seq += len(events)
        self.event_types.update(type(e) for e in events)
        self.plan(plan_messages(ctx))
        return events


TABLE_GAMES = 12
Y2023_GAMES = 8
LIARS_GAMES = 8


class PlannedLiars(PlannedTable, RandomLiars):
    """A random Liars Edition game that plans the messages of every accepted command."""


def _settings(seed: int) -> Settings:
    return Settings(
        timezone=TIMEZONE,
        auto_no_refutation=seed % 2 == 0,
        eliminated_may_suggest=seed % 3 != 0,
        missed_answer_penalty=(1, 1, 2, 5, 0)[seed % 5],
        day_length=timedelta(hours=(24, 24, 12, 48, 25)[seed % 5], minutes=(0, 30)[seed % 2]),
    )


@dataclass
class Played:
    rendered: list[Rendered]
    failures: list[str]
    event_types: set[type[Event]]


def play_games(games: int = GAMES) -> Played:
    """Random games with every planned payload rendered in every language."""
    rendered: list[Rendered] = []
    failures: list[str] = []
    event_types: set[type[Event]] = set()
    for seed in range(games):
        game = PlannedGame(seed=seed, players=3 + seed % 8, settings=_settings(seed))
        game.play()
        event_types |= game.event_types
        rendered += planned(seed, game, failures)
        rendered += [render(seed, p, failures) for p in handler_payloads(game.game, seed)]
    for seed in range(TABLE_GAMES):
        settings = CLASSIC.changed(timezone=TIMEZONE, dice=1 + seed % 2, images=seed % 3 != 0)
        table = PlannedTable(seed=seed, players=3 + seed % 4, settings=settings)
        table.play()
        event_types |= table.event_types
        rendered += planned(100 + seed, table, failures)
    for seed in range(Y2023_GAMES):  # the 2023 edition, two to six players
        images = seed % 3 != 0
        settings = Y2023_SETTINGS.changed(timezone=TIMEZONE, images=images)
        y2023 = PlannedTable(
            seed=seed,
            players=2 + seed % 5,
            settings=settings,
            suspects=Y2023.suspects,
            weapons=Y2023.weapons,
            rooms=Y2023.places,
        )
        y2023.play()
        event_types |= y2023.event_types
        rendered += planned(200 + seed, y2023, failures)
        final = y2023.game
        for player in final.players:  # /hand with the cards seen in rooms and by clue cards
            view = player_view(final, player.user)
            seen = edition_of(final).also_seen(final, view.seat)
            hand = {"game": seed, **hand_args(final, view, seen)}
            payload = {"msg": "hand.list", "args": {"views": [hand]}}
            rendered.append(render(200 + seed, payload, failures))
    for seed in range(LIARS_GAMES):
        settings = LIARS.changed(timezone=TIMEZONE, images=seed % 2 == 0)
        liars = PlannedLiars(seed=seed, players=3 + seed % 4, settings=settings)
        liars.play()
        event_types |= liars.event_types
        rendered += planned(300 + seed, liars, failures)
    scripted = ScriptedGame()
    scripted.script()
    event_types |= scripted.event_types
    rendered += planned(-1, scripted, failures)
    return Played(rendered, failures, event_types)


def planned(seed: int, game: Planner, failures: list[str]) -> list[Rendered]:
    """Every payload the game planned, rendered (each marked when for a private chat)."""
    private = set(game.private)
    return [render(seed, p, failures, private=id(p) in private) for p in game.planned]


def render(
    seed: int, payload: dict[str, Any], failures: list[str], *, private: bool = False
) -> Rendered:
    """A payload rendered in every language, as the sender does; failures are collected."""
    stored = Payload.from_row(payload)
    item = Rendered(seed, stored.kind, private=private)
    if "choices" in stored.args:
        item.typed.append(str(stored.args["choices"]))
    for lang in LANGUAGES:
        reader = Reader(lang, TIMEZONE, PEOPLE)
        try:
            args = payload.get("per_language", {}).get(lang, stored.args)
            item.texts[lang] = compose(reader, stored.kind, args)
            if stored.board is not None:  # the board in words (the picture has its own test)
                words = {**stored.board, "images": False}
                item.texts[lang] = board_post(reader, words, item.texts[lang])[0]
            item.buttons[lang] = buttons_markup(reader, stored.buttons)
            item.plain[lang] = parse_html(item.texts[lang])[0]
        except ApiError as error:
            failures.append(f"{seed} {stored.kind} {lang}: {error.description}")
        except Exception as error:
            failures.append(f"{seed} {stored.kind} {lang}: {error!r}")
    return item


class ScriptedGame(PlannedGame):
    """What random games never do: leave the lobby, change settings, bad settings, choose a
    role on the lobby post, /endgame."""

    def __init__(self) -> None:
        super().__init__(seed=7, players=4, settings=Settings(timezone=TIMEZONE))

    def script(self) -> None:
        admin: dict[str, Any] = {"actor": 1, "actor_is_admin": True}
        self.run(cmd.OpenLobby(actor=1, seed=self.seed, settings=self.settings))
        for user in (2, 3, 4, 5):
            self.run(cmd.JoinLobby(actor=user))
        self.run(cmd.LeaveLobby(actor=5))
        changes: list[dict[str, Any]] = [
            {"day_length": timedelta(hours=36), "day_ends_at": time(12, 0)},
            {"answer_grace": None, "open_day_if_window_left": None, "max_received_per_day": 4},
            {"auto_no_refutation": False, "eliminated_may_suggest": False, "extra_cards": 1},
            {"role_assignment": "chosen", "reminder_before": timedelta(minutes=90)},
            {"role_assignment": "random", "answer_grace": timedelta(hours=1, minutes=1)},
            {"no_such_setting": 1},
            {"day_length": timedelta(seconds=5)},
            {"day_length": timedelta(days=40)},
            {"timezone": "Mars/Olympus"},
            {"role_assignment": "auction"},
            {"pack": "nope"},
            {"extra_cards": 20},
        ]
        for change in changes:
            self.run(cmd.ChangeSettings(**admin, changes=change))
        self.run(cmd.ChangeSettings(**admin, changes={"role_assignment": "chosen"}))
        self.run(cmd.ChooseRole(actor=2, role="plum"))
        self.run(cmd.ChooseRole(actor=3, role="plum"))  # taken
        self.run(cmd.StartGame(actor=1))  # the pack is too small for 20 extra cards
        self.run(cmd.ChangeSettings(**admin, changes={"extra_cards": 0}))
        self.run(cmd.StartGame(actor=1))
        self.run(cmd.StartGame(actor=1))
        self.run(cmd.ChangeSettings(**admin, changes={"day_length": timedelta(hours=12)}))
        self.run(cmd.ChangeSettings(**admin, changes={"extra_cards": 2}))
        self.run(cmd.JoinLobby(actor=9))
        for _ in range(40):
            self.step()
        self.run(cmd.RemovePlayer(**admin, player=2))
        self.run(cmd.EndGame(**admin))
        self.run(cmd.EndGame(**admin))


def handler_payloads(game: Game, seed: int) -> list[dict[str, Any]]:
    """The payloads of /status, /cards, /games, /hand and /settings, built as the handlers
    build them (/status and /hand with the builders they use, `bot/announce/views.py`), for
    a game in its final state."""
    real = status_args(game)
    status = {
        **real,
        "day_open": real["day_open"] or seed % 3 == 0,
        "paused": real["paused"] or seed % 4 == 1,
        "ends_at": real["ends_at"] or Moment.of(START),
        "seats": [{**s, "accused": s["accused"] or seed % 2 == 0} for s in real["seats"]],
        "tz": TIMEZONE,
    }
    running = {**status, "phase": Phase.RUNNING.value}
    lobby = {**status, "phase": Phase.LOBBY.value, "lobby": Users((1, 2, 3))}
    user = game.players[seed % len(game.players)].user
    me = player_view(game, user)
    hand = {"game": seed, **hand_args(game, me, edition_of(game).also_seen(game, me.seat))}
    games = [
        {"game": n, "phase": phase.value, "day": game.day, "role_card": me.role}
        for n, phase in enumerate(Phase)
    ]
    listing = {c.value: list(game.in_play(c)) for c in CATEGORY_ORDER}
    pack = {c.value: list(game.pack.cards_of(c)) for c in CATEGORY_ORDER}
    payloads = [
        {"msg": "status.game", "args": status},
        {"msg": "status.game", "args": running},
        {"msg": "status.game", "args": lobby},
        {"msg": "cards.list", "args": {"cards": listing, "in_play": True}},
        {"msg": "cards.list", "args": {"cards": pack, "in_play": False}},
        {"msg": "games.list", "args": {"games": games}},
        {"msg": "games.list", "args": {"games": []}},
        {"msg": "hand.list", "args": {"views": [hand, hand]}},
        {"msg": "hand.list", "args": {"views": []}},
    ]
    settings = {"settings": to_dict(game.settings), "for_game": seed % 2 == 0}
    payloads.append({"msg": "settings.list", "args": settings})
    return payloads


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Played:
    """The games played and rendered once per test run: parallel workers (pytest-xdist)
    share one result through a file in the run's temporary directory (the first to come
    plays them while the others wait on its lock)."""
    if worker_id == "master":
        return play_games()
    shared = tmp_path_factory.getbasetemp().parent / "rendered_games.pickle"
    with shared.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shared.exists():
            loaded: Played = pickle.loads(shared.read_bytes())
            return loaded
        result = play_games()
        shared.write_bytes(pickle.dumps(result))
        return result


def test_random_games_render_without_errors(played: Played) -> None:
    assert played.failures == []
    assert len(played.rendered) > 1000
    seen = {r.msg for r in played.rendered}
    common = {
        "lobby.opened",
        "lobby.started",
        "game.started",
        "dm.hand",
        "day.opened",
        "day.ended",
        "suggestion.made",
        "dm.answer_prompt",
        "answer.refuted",
        "answer.not_refuted",
        "dm.card_shown",
        "dm.prompt_closed",
        "accusation.made",
        "dm.accusation_received",
        "accusation.wrong",
        "dm.accusation_wrong",
        "dm.reminder",
        "dm.gm_answered",
        "game.ended",
        "game.paused",
        "game.resumed",
        "suggestion.voided",
        "player.left",
    }
    assert common <= seen, sorted(common - seen)


def test_random_games_cover_most_events(played: Played) -> None:
    rare = {"SettingsChanged", "PlayerLeftLobby"}  # random games never change settings
    rare.add("ClockStarted")  # a delivery's report, not a move: no random player makes it
    missing = {
        n for n, cls in REGISTRY.codec.names.events.items() if cls not in played.event_types
    } - rare
    assert missing == set()


def test_rendered_messages_are_filled_and_fit(played: Played) -> None:
    for item in played.rendered:
        for lang, text in item.texts.items():
            where = f"game {item.seed}, {item.msg} ({lang})"
            assert "{" not in text and "}" not in text, f"{where}: {text}"
            assert text.strip(), where
            assert len(item.plain[lang]) <= 4096, where
            for row in item.buttons[lang]:
                for button in row:
                    assert button["text"] and "{" not in button["text"], where
                    data = button.get("callback_data", "")
                    assert len(data.encode()) <= 64, where


def test_every_private_message_of_a_game_names_it(played: Played) -> None:
    """Each message a game's moves send to a private chat names the game's chat and topic,
    in every language (issue 39)."""
    private = [item for item in played.rendered if item.private]
    assert len(private) > 500
    assert {"dm.hand", "dm.answer_prompt", "dm.card_shown", "dm.reminder"} <= {
        item.msg for item in private
    }
    unnamed = [
        f"game {item.seed}, {item.msg} ({lang}): {text}"
        for item in private
        for lang, text in item.plain.items()
        if PLACE not in text
    ]
    assert unnamed == []


def _only_names_and_numbers(plain: str, cards: list[str] | None = None) -> bool:
    for name in sorted(NAMES + (cards or []), key=len, reverse=True):
        plain = plain.replace(name, "")
    return re.search(r"[^\W\d_]", plain) is None


@pytest.mark.slow
@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_uses_its_own_catalog(played: Played, lang: str) -> None:
    for item in played.rendered:
        en, theirs = item.plain["en"], item.plain[lang]
        where = f"game {item.seed}, {item.msg}, {lang}"
        if en == theirs:  # a card's name may be one word in both ("Revolver", "Patio")
            same = _only_names_and_numbers(theirs) or theirs.strip() in OWN_TEXT[lang]
            assert same, f"{where}: the same as English: {theirs}"
        html = item.texts[lang]  # typed values in <code> (ids) aside: parsed again if any
        words = parse_html(re.sub(r"<code>.*?</code>", "", html))[0] if "<code>" in html else theirs
        for typed in item.typed:
            words = words.replace(typed, "")
        words = re.sub(r"\w*_\w*", " ", words)  # identifiers people type (no_such_setting)
        leaked = english_words(words, lang, NAME_WORDS)
        assert leaked == [], f"{where}: English text {leaked} in: {theirs}"
        for en_row, their_row in zip(item.buttons["en"], item.buttons[lang], strict=True):
            for en_button, their_button in zip(en_row, their_row, strict=True):
                text = their_button["text"]
                if en_button["text"] == text:
                    own = _only_names_and_numbers(text, CARD_NAMES[lang]) or text in OWN_TEXT[lang]
                    assert own, where
