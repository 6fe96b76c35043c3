"""The game's index (bot.announce.index) over random games: planned once per command that
changes it (posted and pinned at the start, else an edit of that post), and before the end
it names no card but the players' roles (public): no hand, no envelope, no accusation's
cards. And the links to its days, as Telegram writes message links."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.announce.index import CHANGES, INDEX, index_args, index_key
from bot.delivery.links import message_link
from bot.delivery.post import post_of
from bot.directory import Directory
from bot.editions.registry import shipped
from bot.payload import Cards, Payload, PostLink, encode
from bot.render.index_text import planned_bare
from bot.render.reader import Reader
from engine import events as ev
from engine.cards import CATEGORY_ORDER
from engine.settings import Settings
from engine.state import Phase
from locales import LANGUAGES, t
from simulation.randomplay import RandomGame
from storage.claims import OutboxRow
from storage.messages_owed import PlanContext

SHOWN = shipped()  # the shipped editions' presentations
compose = SHOWN.compose
plan_messages = SHOWN.plan_messages

GAME = 7


def _strings(value: Any) -> set[str]:
    """Every string of an encoded argument tree (typed values' tags left out)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in _strings(v) | ({k} - {"$card", "$cards"})}
    if isinstance(value, list):
        return {s for item in value for s in _strings(item)}
    return set()


class IndexedGame(RandomGame):
    """A random game that plans every accepted command and checks its index."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.checked = 0

    def run(self, command: Any) -> list[ev.Event]:
        earlier = list(self.events)
        events = super().run(command)
        if events:
            self._check(earlier, events)
        return events

    def _check(self, earlier: list[ev.Event], events: list[ev.Event]) -> None:
        first = len(earlier) + 1
        ctx = PlanContext(GAME, -100, 0, self.last_decision, first, earlier=lambda: earlier)
        planned = [
            i
            for i in plan_messages(ctx)
            if not i.owed and Payload.from_row(i.payload).kind == INDEX
        ]
        game = self.game
        if game.envelope is None:
            assert planned == []
            return
        started = any(isinstance(e, ev.GameStarted) for e in events)
        changed = started or any(isinstance(e, CHANGES) for e in events)
        assert len(planned) == (1 if changed else 0)
        if not planned:
            return
        [item] = planned
        payload = Payload.from_row(item.payload)
        args = index_args(GAME, game, self.events)  # planned with the command: what it shows
        assert item.user_id is None and payload.args == {"game": GAME, **args}
        if started:
            assert item.key == index_key(GAME) and payload.pin and payload.edit_of is None
        else:
            assert payload.edit_of == index_key(GAME) and not payload.pin
            # Only told: the rows queued after it (a day's post it links to) go first.
            assert payload.decoration and not payload.keep_place
        cards = {c for category in CATEGORY_ORDER for c in game.pack.cards_of(category)}
        allowed = {p.role for p in game.players}
        if game.phase is Phase.ENDED:
            allowed |= set(game.envelope)
        else:
            assert args["end"] is None
        assert _strings(encode(args)) & cards <= allowed, args
        days = [e.day for e in self.events if isinstance(e, ev.DayOpened)]
        assert [d["day"] for d in args["days"]] == days
        self.checked += 1


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63),
    players=st.integers(min_value=3, max_value=8),
    extra=st.integers(min_value=0, max_value=2),
)
def test_the_index_is_planned_once_per_change_and_names_only_roles_before_the_end(
    seed: int, players: int, extra: int
) -> None:
    played = IndexedGame(seed=seed, players=players, settings=Settings(extra_cards=extra))
    played.play(max_steps=400)
    assert played.checked > 0


def test_the_check_sees_a_card_in_the_index() -> None:
    """Not blind: an accusation's cards put in the index would be found."""
    played = IndexedGame(seed=3, players=4)
    played.play(max_steps=400)
    game = played.game
    assert game.envelope is not None
    args = index_args(GAME, game, played.events)
    args["moments"].append({"kind": "accused", "cards": Cards(game.envelope)})
    assert _strings(encode(args)) >= set(game.envelope)


def test_the_index_renders_in_every_language() -> None:
    """A finished random game's index, its days' posts sent, in each catalog's words."""
    played = IndexedGame(seed=5, players=5)
    played.play(max_steps=400)
    args = index_args(GAME, played.game, played.events)
    for number, day in enumerate(args["days"], start=100):  # linked as the sender links
        day["post"] = PostLink(day["post"].key, message_link(-1001234567890, 0, number))
    assert args["days"] and args["end"] is not None
    for lang in LANGUAGES:
        text = compose(Reader(lang), INDEX, args)
        assert text.startswith("📌 <b>") and t(lang, "index.day", day=1) in text, lang
        assert 'href="https://t.me/c/1234567890/100"' in text
        assert "{" not in text and len(text) < 4096


def test_message_links_as_telegram_writes_them() -> None:
    assert message_link(-1001234567890, 0, 42) == "https://t.me/c/1234567890/42"
    assert message_link(-1001234567890, 7, 42) == "https://t.me/c/1234567890/7/42"
    assert message_link(-4000000001, 0, 42) is None  # a basic group has no message links
    assert message_link(-1001234567890, 0, None) is None  # the post was never sent


async def test_an_index_edit_planned_before_its_content_is_not_sent() -> None:
    """An edit of the index written before its content was planned with it (an outbox row
    from before the upgrade) is not sent: the post keeps what it shows, not its bare title."""
    bare = Payload(INDEX, {"game": GAME}, game=GAME, edit_of="game:1:index")
    row = OutboxRow(1, "k", GAME, -100, 0, None, bare.to_row(), None, None, 0, None, None)
    unused = Directory.__new__(Directory)  # never asked: nothing is rendered
    assert planned_bare(INDEX, {"game": GAME})
    assert not planned_bare(INDEX, {"game": GAME, "players": []})
    assert await post_of(SHOWN, unused, row, bare) is None
