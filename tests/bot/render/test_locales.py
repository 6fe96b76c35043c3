"""The message catalogs: every language has every key of the English one with the same
placeholders and markup, valid Telegram HTML, a plural entry for every CLDR category its
language needs (Babel's, not a list written here), consistent with the engine, plurals and
moments right; and every message random games cause renders in every language."""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import locales
from bot.editions.registry import shipped
from bot.render.reader import Reader
from engine import REGISTRY, RULE_ERROR_CODES
from engine.cards import PACKS
from engine.errors import PackReason, SettingReason
from engine.settings import Settings
from fakebot.html import parse_html
from fakebot.spec import ApiError
from locales import LANGUAGES, catalog, edition_words, every_word, t
from locales.formats import locale, plural_categories, plural_category, unit_count
from tests.support.catalogs import (
    ALLOWED_TAGS,
    EN,
    KEYS,
    OTHERS,
    RENDERED_WITH_COUNT,
    all_texts,
    forms,
    placeholders,
    tags,
)

EVENT_HANDLERS = shipped().planners  # every event's planner, the editions' too


def test_every_language_has_a_catalog_file_and_every_file_a_language() -> None:
    files = {p.stem for p in Path(locales.__file__).parent.glob("*.json")}
    assert files == set(LANGUAGES)
    assert len(LANGUAGES) == 8


@pytest.mark.parametrize("lang", OTHERS)
def test_every_catalog_has_the_english_keys(lang: str) -> None:
    theirs = catalog(lang)
    assert sorted(set(EN) - set(theirs)) == [], f"keys missing from {lang}.json"
    assert sorted(set(theirs) - set(EN)) == [], f"keys {lang}.json has that en.json lacks"


def test_english_forms_agree() -> None:
    for key in KEYS:
        sets = {form: placeholders(text) for form, text in forms(EN[key]).items()}
        assert len({frozenset(s) for s in sets.values()}) == 1, f"en {key}: {sets}"


@pytest.mark.parametrize("lang", OTHERS)
def test_same_placeholders_in_every_form(lang: str) -> None:
    wrong = []
    for key in KEYS:
        expected = set().union(*(placeholders(x) for x in forms(EN[key]).values()))
        extra = {"count"} if key in RENDERED_WITH_COUNT or isinstance(EN[key], dict) else set()
        for form, text in forms(catalog(lang)[key]).items():
            found = placeholders(text)
            if not expected <= found <= expected | extra:
                wrong.append(f"{key}[{form or 'plain'}]: {sorted(found)} for {sorted(expected)}")
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_have_every_cldr_category_of_their_language(lang: str) -> None:
    needed = plural_categories(lang)
    assert "other" in needed
    wrong = []
    for key in KEYS:
        entry = catalog(lang)[key]
        if isinstance(EN[key], dict) and not isinstance(entry, dict):
            wrong.append(f"{key}: plural in English, plain here")
        if isinstance(entry, dict):
            if set(entry) != needed:
                wrong.append(f"{key}: {sorted(entry)}, CLDR says {sorted(needed)}")
            if not isinstance(EN[key], dict) and key not in RENDERED_WITH_COUNT:
                wrong.append(f"{key}: plural, but rendered with no count")
            if not all(isinstance(v, str) and v for v in entry.values()):
                wrong.append(f"{key}: an empty form")
    assert wrong == []


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
    events = set(REGISTRY.codec.names.events.values())
    assert events <= set(EVENT_HANDLERS)
    assert set(EVENT_HANDLERS) <= events


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


@pytest.mark.parametrize("lang", OTHERS)
def test_every_catalog_keeps_the_english_markup(lang: str) -> None:
    wrong = []
    for key in KEYS:
        en_tags = tags(next(iter(forms(EN[key]).values())))
        for form, text in forms(catalog(lang)[key]).items():
            if tags(text) != en_tags:
                wrong.append(f"{key}[{form or 'plain'}]: {dict(tags(text))} != {dict(en_tags)}")
    assert wrong == []


# --- plurals, durations and moments ----------------------------------------------------------

# What a Slavic reader expects of each count (CLDR: 1 and 21 one, 2 and 22 few, 5 and 11 many).
SLAVIC = {1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 12: "many", 101: "one"}


@pytest.mark.parametrize("lang", ["ru", "uk", "be"])
@pytest.mark.parametrize("count", sorted(SLAVIC))
def test_slavic_plurals_pick_the_form_a_reader_expects(lang: str, count: int) -> None:
    assert plural_category(lang, count) == SLAVIC[count]
    for key in KEYS:
        entry = catalog(lang)[key]
        if isinstance(entry, dict):
            expected = entry[SLAVIC[count]].format_map({"count": count} | _fillers(entry))
            assert t(lang, key, count=count, **_fillers(entry)) == expected, key


def _fillers(entry: dict[str, str]) -> dict[str, str]:
    names = set().union(*(placeholders(v) for v in entry.values())) - {"count"}
    return {name: f"<{name}>" for name in names}


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        ("ru", 1, "1 день"),
        ("ru", 2, "2 дня"),
        ("ru", 5, "5 дней"),
        ("ru", 11, "11 дней"),
        ("ru", 21, "21 день"),
        ("ru", 22, "22 дня"),
        ("ru", 111, "111 дней"),
        ("uk", 1, "1 день"),
        ("uk", 2, "2 дні"),
        ("uk", 5, "5 днів"),
        ("uk", 11, "11 днів"),
        ("uk", 21, "21 день"),
        ("uk", 22, "22 дні"),
        ("be", 1, "1 суткі"),
        ("be", 5, "5 сутак"),
        ("be", 21, "21 суткі"),
        ("en", 1, "1 day"),
        ("en", 2, "2 days"),
        ("de", 1, "1 Tag"),
        ("de", 22, "22 Tage"),
        ("nl", 2, "2 dagen"),
        ("es", 2, "2 días"),
        ("eo", 2, "2 tagoj"),
    ],
)
def test_days_in_every_language(lang: str, count: int, expected: str) -> None:
    assert unit_count(lang, "day", count) == expected


@pytest.mark.parametrize(
    ("lang", "unit", "count", "expected"),
    [
        ("ru", "hour", 1, "1 час"),
        ("ru", "hour", 3, "3 часа"),
        ("ru", "hour", 12, "12 часов"),
        ("ru", "hour", 23, "23 часа"),
        ("ru", "minute", 2, "2 минуты"),
        ("ru", "minute", 41, "41 минута"),
        ("uk", "hour", 22, "22 години"),
        ("uk", "minute", 5, "5 хвилин"),
        ("be", "hour", 2, "2 гадзіны"),
        ("be", "hour", 11, "11 гадзін"),
    ],
)
def test_slavic_units(lang: str, unit: str, count: int, expected: str) -> None:
    assert unit_count(lang, unit, count) == expected


@pytest.mark.parametrize(
    ("key", "count", "expected"),
    [
        ("dm.reminder_left", 1, "У вас остаётся 1 предположение на сегодня."),
        ("dm.reminder_left", 2, "У вас остаются 2 предположения на сегодня."),
        ("dm.reminder_left", 5, "У вас остаётся 5 предположений на сегодня."),
        ("dm.reminder_owes", 21, "Вы должны ответить на 21 предположение."),
        ("dm.reminder_owes", 13, "Вы должны ответить на 13 предположений."),
    ],
)
def test_russian_plural_forms(key: str, count: int, expected: str) -> None:
    assert t("ru", key, count=count) == expected


def test_durations_and_moments_with_the_zone_named() -> None:
    reader = Reader("ru", "Europe/Moscow")
    assert reader.duration(timedelta(days=1, hours=2, minutes=5).total_seconds()) == (
        "1 день 2 часа 5 минут"
    )
    assert reader.duration(0) == "0 минут"
    assert reader.moment("2026-05-02T09:30:00+00:00") == "2 мая, 12:30 (Москва, UTC+3)"
    assert Reader("en", "Europe/Moscow").moment("2026-05-02T09:30:00+00:00") == (
        "May 2, 12:30 (Moscow, UTC+3)"
    )
    assert Reader("de", "America/New_York").moment("2026-12-03T06:07:00+00:00") == (
        "3. Dez., 01:07 (New York, UTC−5)"
    )
    assert Reader("uk", "Asia/Vladivostok").moment("2026-12-03T06:07:00+00:00") == (
        "3 груд., 16:07 (Владивосток, UTC+10)"
    )
    assert Reader("en", "UTC").moment("2026-12-03T06:07:00+00:00") == "Dec 3, 06:07 (UTC)"


# --- every message of random games renders in both languages --------------------------------


def test_no_hand_written_plural_rule_or_month_name_is_left() -> None:
    """Plural categories, month names and units come from CLDR (Babel): no catalog keeps
    its own, and no shipped module spells a month's name in one of our languages or the
    arithmetic of a plural rule."""
    for lang in LANGUAGES:
        own = [k for k in catalog(lang) if k.startswith(("month.", "unit.", "format.moment"))]
        assert own == [], lang
    months = {
        str(name).casefold()
        for lang in LANGUAGES
        for width in ("wide", "abbreviated")
        for name in locale(lang).months["format"][width].values()
        if len(str(name).strip(".")) > 3
    }
    root = Path(locales.__file__).parent.parent
    for package in ("bot", "engine", "storage", "locales", "simulation", "fakebot"):
        for path in (root / package).rglob("*.py"):
            source = path.read_text(encoding="utf-8")
            quoted = {q.casefold() for q in re.findall(r"[\"']([^\"'\n]{3,})[\"']", source)}
            assert not quoted & months, (path, quoted & months)
            assert not re.search(r"%\s*10\b.*%\s*100\b|%\s*100\b.*%\s*10\b", source), path


def test_typed_words_of_every_language_mean_one_thing() -> None:
    """On and off, and the names of the formats, are read in every language at once: no
    word may mean both on and off, or name two formats."""
    on, off = every_word("setting.words_on"), every_word("setting.words_off")
    assert {"on", "off", "да", "нет"} <= on | off
    assert not on & off, on & off
    named: dict[str, str] = {}
    for key in ("forum", "classic", "y2023", "liars"):
        for word in edition_words(key):
            assert named.setdefault(word, key) == key, (word, named[word], key)
    for lang in LANGUAGES:
        for zone in str(t(lang, "timezone.common")).split():
            assert ZoneInfo(zone), (lang, zone)
