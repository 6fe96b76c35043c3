"""The message catalogs: complete, consistent with each other and with the engine, valid
Telegram HTML, right Russian plurals, and every message random games cause renders in both
languages (the Russian one from the Russian catalog)."""

from __future__ import annotations

from dataclasses import fields
from datetime import timedelta

import pytest

from bot.announce.registry import EVENT_HANDLERS
from bot.render.reader import Reader
from engine.cards import PACKS
from engine.errors import RULE_ERROR_CODES, PackReason, SettingReason
from engine.events import EVENT_TYPES
from engine.settings import Settings
from fakebot.html import parse_html
from fakebot.spec import ApiError
from locales import LANGUAGES, catalog, t
from tests.support.catalogs import (
    ALLOWED_TAGS,
    EN,
    KEYS,
    RENDERED_WITH_COUNT,
    RU,
    RU_FORMS,
    all_texts,
    forms,
    placeholders,
    tags,
)


def test_both_catalogs_have_the_same_keys() -> None:
    assert set(LANGUAGES) == {"en", "ru"}
    assert sorted(set(EN) - set(RU)) == [], "keys missing from ru.json"
    assert sorted(set(RU) - set(EN)) == [], "keys ru.json has that en.json lacks"


@pytest.mark.parametrize("key", KEYS)
def test_same_placeholders_in_every_form(key: str) -> None:
    en_sets = {form: placeholders(text) for form, text in forms(EN[key]).items()}
    expected = set().union(*en_sets.values())
    assert all(s == expected for s in en_sets.values()), f"en forms disagree: {en_sets}"
    extra = {"count"} if key in RENDERED_WITH_COUNT or isinstance(EN[key], dict) else set()
    for form, text in forms(RU[key]).items():
        found = placeholders(text)
        assert expected <= found <= expected | extra, f"ru[{form or 'plain'}]: {found}"


@pytest.mark.parametrize("key", KEYS)
def test_plural_entries_have_every_russian_form(key: str) -> None:
    en, ru = EN[key], RU[key]
    if isinstance(en, dict):
        assert set(en) == {"one", "other"}
        assert isinstance(ru, dict), "an English plural entry must stay plural in Russian"
    if isinstance(ru, dict):
        assert set(ru) == RU_FORMS
        assert isinstance(en, dict) or key in RENDERED_WITH_COUNT, "no count to choose a form"
        assert all(isinstance(v, str) and v for v in ru.values())


def test_every_rule_error_has_a_message() -> None:
    for lang in LANGUAGES:
        missing = sorted(c for c in RULE_ERROR_CODES if f"error.{c}" not in catalog(lang))
        assert missing == [], f"{lang}: {missing}"


def test_every_reason_a_setting_or_pack_is_refused_for_has_a_message() -> None:
    keys = [f"invalid.{r}" for r in SettingReason] + [f"pack.invalid_{r}" for r in PackReason]
    for lang in LANGUAGES:
        missing = [key for key in keys if key not in catalog(lang)]
        assert missing == [], f"{lang}: {missing}"


def test_every_event_type_has_a_handler() -> None:
    assert set(EVENT_TYPES.values()) <= set(EVENT_HANDLERS)
    assert set(EVENT_HANDLERS) <= set(EVENT_TYPES.values())


def test_every_card_of_every_pack_has_a_name() -> None:
    assert PACKS
    for lang in LANGUAGES:
        names = catalog(lang)
        for pack in PACKS.values():
            missing = [c for c in pack.all_cards if f"card.{c}" not in names]
            assert missing == [], f"{lang}, pack {pack.id}: {missing}"
            # cards are parsed by name: two cards of a pack must not share one
            assert len({names[f"card.{c}"].lower() for c in pack.all_cards}) == len(pack.all_cards)


def test_every_setting_has_a_label() -> None:
    for lang in LANGUAGES:
        missing = [f.name for f in fields(Settings) if f"setting.{f.name}" not in catalog(lang)]
        assert missing == [], f"{lang}: {missing}"


def test_command_descriptions_fit_telegram() -> None:
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            if key.startswith("command."):
                assert isinstance(text, str) and 1 <= len(text) <= 256, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_html_is_well_formed(lang: str) -> None:
    for key, form, text in all_texts(lang):
        used = tags(text)
        assert set(used) <= ALLOWED_TAGS, f"{lang} {key}{form}: tags {sorted(used)}"
        try:
            parse_html(text)
        except ApiError as error:
            pytest.fail(f"{lang} {key}{form}: {error.description}")


@pytest.mark.parametrize("key", KEYS)
def test_russian_keeps_the_english_markup(key: str) -> None:
    en_tags = [tags(text) for text in forms(EN[key]).values()]
    for form, text in forms(RU[key]).items():
        assert tags(text) == en_tags[0], f"{form or 'plain'}: {tags(text)} != {en_tags[0]}"


# --- Russian plurals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (0, "0 дней"),
        (1, "1 день"),
        (2, "2 дня"),
        (4, "4 дня"),
        (5, "5 дней"),
        (11, "11 дней"),
        (12, "12 дней"),
        (14, "14 дней"),
        (21, "21 день"),
        (22, "22 дня"),
        (25, "25 дней"),
        (101, "101 день"),
        (111, "111 дней"),
        (112, "112 дней"),
        (1002, "1002 дня"),
    ],
)
def test_russian_plural_of_days(count: int, expected: str) -> None:
    assert t("ru", "unit.days", count=count) == expected


@pytest.mark.parametrize(
    ("key", "count", "expected"),
    [
        ("unit.hours", 1, "1 час"),
        ("unit.hours", 3, "3 часа"),
        ("unit.hours", 12, "12 часов"),
        ("unit.hours", 23, "23 часа"),
        ("unit.minutes", 1, "1 минута"),
        ("unit.minutes", 2, "2 минуты"),
        ("unit.minutes", 30, "30 минут"),
        ("unit.minutes", 41, "41 минута"),
        ("dm.reminder_left", 1, "У вас остаётся 1 предположение на сегодня."),
        ("dm.reminder_left", 2, "У вас остаются 2 предположения на сегодня."),
        ("dm.reminder_left", 5, "У вас остаётся 5 предположений на сегодня."),
        ("dm.reminder_owes", 21, "Вы должны ответить на 21 предположение."),
        ("dm.reminder_owes", 13, "Вы должны ответить на 13 предположений."),
    ],
)
def test_russian_plural_forms(key: str, count: int, expected: str) -> None:
    assert t("ru", key, count=count) == expected


def test_russian_durations_and_moments() -> None:
    reader = Reader("ru", "Europe/Moscow")
    assert reader.duration(timedelta(days=1, hours=2, minutes=5).total_seconds()) == (
        "1 день 2 часа 5 минут"
    )
    assert reader.duration(0) == "0 минут"
    assert reader.moment("2026-05-02T09:30:00+00:00") == "2 мая в 12:30 (Europe/Moscow)"
    assert Reader("en", "Europe/Moscow").moment("2026-05-02T09:30:00+00:00") == (
        "2 May 12:30 (Europe/Moscow)"
    )


# --- every message of random games renders in both languages --------------------------------
