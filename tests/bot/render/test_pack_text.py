"""Reading a /pack text and typed card names: names stay whole (colons and punctuation
included), and every name a pack accepts can be typed back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.handlers.packs import parse_pack_text
from bot.parsing import ParseError, match_card, parse_suggestion
from engine.cards import CATEGORY_ORDER, Category, custom_pack
from engine.errors import RuleError


def test_only_a_known_heading_is_taken_off_a_line() -> None:
    text = "Dr: Who, Holmes, Watson\nWeapons: Rope!, Cane: long, Pipe\nPlaces: A: 1, B, C"
    assert parse_pack_text(text) == [
        ["Dr: Who", "Holmes", "Watson"],
        ["Rope!", "Cane: long", "Pipe"],
        ["A: 1", "B", "C"],
    ]


def test_headings_in_either_language_and_any_order() -> None:
    text = "Места: Кухня, Холл\nПодозреваемые: Д-р: Кто, Ватсон\nWeapon: Нож; Яд"
    assert parse_pack_text(text) == [["Д-р: Кто", "Ватсон"], ["Нож", "Яд"], ["Кухня", "Холл"]]


@pytest.mark.parametrize(
    "text",
    ["Suspects: A\nSuspects: B\nPlaces: C", "A\nPlaces: B\nC", "Weapons: A\nB\nC"],
)
def test_a_heading_in_the_wrong_place_is_not_guessed_at(text: str) -> None:
    assert parse_pack_text(text) == []


PACK = custom_pack(
    ["Dr: Who", "Dr. Who?", "O'Brien", "Mrs. Peacock-Smith"],
    ["Rope!", "Rope", "???", "Cane: short"],
    ["Room 101", "St. Paul's", "Café", "Q&A <lab>", "Mr. X's den", "221B"],
)


@pytest.mark.parametrize(
    ("category", "typed", "meant"),
    [
        (Category.SUSPECT, "Dr: Who", "Dr: Who"),
        (Category.SUSPECT, "DR. WHO?", "Dr. Who?"),
        (Category.SUSPECT, "o’brien", "O'Brien"),
        (Category.SUSPECT, "obri", None),  # "o brien": no word starts "obri"
        (Category.SUSPECT, "peacock", "Mrs. Peacock-Smith"),
        (Category.WEAPON, "rope!", "Rope!"),
        (Category.WEAPON, " Rope ", "Rope"),
        (Category.WEAPON, "???", "???"),
        (Category.WEAPON, "cane short", "Cane: short"),
        (Category.PLACE, "st pauls", None),
        (Category.PLACE, "st paul's", "St. Paul's"),
        (Category.PLACE, "CAFE", "Café"),
        (Category.PLACE, "q&a <LAB>", "Q&A <lab>"),
        (Category.PLACE, "221", "221B"),
    ],
)
def test_typed_names_find_their_card(category: Category, typed: str, meant: str | None) -> None:
    by_name = {PACK.label(card): card for card in PACK.all_cards}
    if meant is None:
        with pytest.raises(ParseError) as refused:
            match_card(PACK, PACK.all_cards, category, typed, "en")
        assert refused.value.key == "parse.unknown_card"
    else:
        assert match_card(PACK, PACK.all_cards, category, typed, "en") == by_name[meant]


def test_names_differing_in_punctuation_only_need_it_typed() -> None:
    with pytest.raises(ParseError) as refused:
        match_card(PACK, PACK.all_cards, Category.SUSPECT, "dr who", "en")
    assert refused.value.key == "parse.ambiguous_card"


_NAME = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=20,
).filter(lambda name: name.strip() and "," not in name and ";" not in name and "\n" not in name)


@settings(max_examples=200, deadline=None)
@given(st.lists(_NAME, min_size=3, max_size=6, unique_by=str.casefold))
def test_every_name_a_pack_accepts_can_be_typed_back(suspects: list[str]) -> None:
    try:
        pack = custom_pack(suspects, ["x", "y", "z"], ["1", "2", "3", "4", "5", "6"])
    except RuleError:
        return  # refused at /pack with its reason (too long, twice)
    for card in pack.cards_of(Category.SUSPECT):
        label = pack.label(card)
        assert label is not None
        assert match_card(pack, pack.all_cards, CATEGORY_ORDER[0], label, "en") == card
        typed = parse_suggestion(f"@carol {label}; x; 1", pack, pack.all_cards, "en")
        assert typed.target == "carol" and typed.cards == (card, "w1", "p1")


@pytest.mark.parametrize(
    ("suspects", "reason"),
    [
        (["Café", "Cafe", "Bar"], "twice"),
        (["O'Brien", "O’Brien", "X"], "twice"),
        (["¨", "A", "B"], "untypable"),
    ],
)
def test_names_that_type_alike_or_not_at_all_are_refused(suspects: list[str], reason: str) -> None:
    with pytest.raises(RuleError) as refused:
        custom_pack(suspects, ["x", "y", "z"], ["1", "2", "3", "4", "5", "6"])
    assert refused.value.code == "invalid_pack" and refused.value.values["reason"] == reason
