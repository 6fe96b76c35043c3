"""A chat's own pack: cards with custom names, played and replayed like the classic one."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine import commands as cmd
from engine.cards import CUSTOM, Category, custom_pack
from engine.codec import event_from_dict, event_to_dict
from engine.decide import decide
from engine.errors import RuleError
from engine.evolve import replay
from engine.settings import Settings
from tests.engine.invariants import check_invariants

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
    stored = [event_from_dict(event_to_dict(e)) for e in events]
    assert replay(stored) == state


def test_the_custom_pack_setting_needs_a_pack() -> None:
    with pytest.raises(RuleError) as refused:
        decide(None, cmd.OpenLobby(actor=1, seed=3, settings=Settings(pack=CUSTOM)), NOW)
    assert refused.value.code == "invalid_setting"
