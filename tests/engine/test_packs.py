"""A chat's own pack: cards with custom names, played and replayed like the classic one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from engine import REGISTRY
from engine import commands as cmd
from engine.cards import CUSTOM, PACKS, Category, custom_pack
from engine.codec import event_to_dict
from engine.decide import decide
from engine.errors import RuleError
from engine.evolve import replay
from engine.formats import change_chat_defaults, new_game
from engine.settings import Settings, new_game_settings, require_setting
from tests.support.invariants import check_invariants

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
SHERLOCK = custom_pack(
    ["Holmes", "Watson", "Moriarty", "Adler", "Lestrade"],
    ["Pistol", "Cane", "Pipe", "Violin"],
    ["Baker Street", "Reichenbach", "Yard", "Opium den", "Museum", "Docks", "Club"],
)


def test_a_custom_pack_names_its_cards_and_keeps_ids_short() -> None:
    assert SHERLOCK.suspects == ("s1", "s2", "s3", "s4", "s5")
    assert SHERLOCK.label("p1") == "Baker Street"
    assert SHERLOCK.category_of("w4") is Category.WEAPON


@pytest.mark.parametrize(
    ("suspects", "reason"),
    [(["A", "B"], "count"), (["A", "B", "a"], "twice"), (["A", "B", "C" * 41], "long")],
)
def test_a_custom_pack_with_too_few_twice_named_or_long_cards_is_refused(
    suspects: list[str], reason: str
) -> None:
    with pytest.raises(RuleError) as refused:
        custom_pack(suspects, ["x", "y", "z"], ["1", "2", "3", "4", "5", "6"])
    assert refused.value.code == "invalid_pack" and refused.value.values["reason"] == reason


def test_a_game_with_a_custom_pack_deals_from_it_and_replays() -> None:
    settings = Settings(pack=CUSTOM)
    events = decide(None, cmd.OpenLobby(actor=1, seed=3, settings=settings, pack=SHERLOCK), NOW)
    state = replay(events)
    for user in (2, 3):
        new = decide(state, cmd.JoinLobby(actor=user), NOW)
        events += new
        state = replay(new, state)
    new = decide(state, cmd.StartGame(actor=1), NOW)
    events += new
    state = replay(new, state)
    assert state is not None
    check_invariants(state)
    assert set(state.deck) <= set(SHERLOCK.all_cards)
    stored = [REGISTRY.codec.event_from_dict(event_to_dict(e)) for e in events]
    assert replay(stored) == state


def test_the_custom_pack_setting_needs_a_pack() -> None:
    with pytest.raises(RuleError) as refused:
        decide(None, cmd.OpenLobby(actor=1, seed=3, settings=Settings(pack=CUSTOM)), NOW)
    assert refused.value.code == "invalid_setting"


def test_a_chat_without_a_pack_cannot_choose_the_custom_pack() -> None:
    refused = _pack_refusal(
        lambda: change_chat_defaults(
            Settings(), {"pack": CUSTOM}, has_custom_pack=False, specs=REGISTRY.specs
        )
    )
    assert refused == ("pack", "no_custom_pack")
    chosen = change_chat_defaults(
        Settings(), {"pack": CUSTOM}, has_custom_pack=True, specs=REGISTRY.specs
    )
    assert chosen.pack == CUSTOM
    other = change_chat_defaults(
        Settings(pack=CUSTOM), {"extra_cards": 1}, has_custom_pack=True, specs=REGISTRY.specs
    )
    assert other.pack == CUSTOM and other.extra_cards == 1


def test_a_new_game_falls_back_to_classic_when_the_chats_pack_is_missing() -> None:
    stored = Settings(pack=CUSTOM, suggestions_per_day=5)
    assert new_game_settings(stored, has_custom_pack=True) == (stored, False)
    fallen, fell_back = new_game_settings(stored, has_custom_pack=False)
    assert fell_back and fallen.pack == "classic" and fallen.suggestions_per_day == 5
    events = decide(None, cmd.OpenLobby(actor=1, seed=3, settings=fallen), NOW)
    assert replay(events) is not None


def test_a_lobby_without_its_own_pack_cannot_switch_to_one() -> None:
    state = replay(decide(None, cmd.OpenLobby(actor=1, seed=3), NOW))
    change = cmd.ChangeSettings(actor=1, changes={"pack": CUSTOM})
    assert _pack_refusal(lambda: decide(state, change, NOW)) == ("pack", "lobby_pack")


def _pack_refusal(fn: Callable[[], object]) -> tuple[str, str]:
    with pytest.raises(RuleError) as refused:
        fn()
    assert refused.value.code == "invalid_setting"
    return refused.value.values["setting"], refused.value.values["reason"]


def test_a_new_game_plays_the_chats_pack_only_when_its_settings_name_it() -> None:
    opening = new_game(Settings(pack=CUSTOM), SHERLOCK, REGISTRY.specs)
    assert (opening.own_pack, opening.pack, opening.fell_back) == (SHERLOCK, SHERLOCK, False)
    classic = new_game(Settings(), SHERLOCK, REGISTRY.specs)
    assert classic.own_pack is None and classic.pack == PACKS["classic"]
    missing = new_game(Settings(pack=CUSTOM), None, REGISTRY.specs)
    assert missing.fell_back and missing.own_pack is None and missing.pack == PACKS["classic"]
    for chat_pack in (SHERLOCK, None):
        opening = new_game(Settings(pack=CUSTOM), chat_pack, REGISTRY.specs)
        command = cmd.OpenLobby(actor=1, seed=3, settings=opening.settings, pack=opening.own_pack)
        game = replay(decide(None, command, NOW))
        assert game is not None and game.pack == opening.pack


def test_a_setting_name_is_checked_before_its_value_is_read() -> None:
    require_setting("day_length")
    with pytest.raises(RuleError) as caught:
        require_setting("colour")
    assert caught.value.code == "unknown_setting" and caught.value.values == {"setting": "colour"}
