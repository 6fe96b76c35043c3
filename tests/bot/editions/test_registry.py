"""The bot's edition registry: every format the engine knows has its presentation, the
words that name editions name one each, and what an edition names is in the catalogs."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.announce.registry import SHARED_HANDLERS
from bot.editions.registry import EDITIONS, shipped
from engine import REGISTRY
from engine.events import LobbyOpened
from engine.evolve import evolve
from engine.settings import Settings
from locales import LANGUAGES, catalog

SHOWN = shipped()  # the shipped editions' presentations
EVENT_HANDLERS, BOARD_VIEWS = SHOWN.planners, SHOWN.boards
by_word, edition_of, rules_by_word = SHOWN.by_word, SHOWN.edition_of, SHOWN.rules_by_word


def test_every_format_the_engine_knows_has_a_bot_edition() -> None:
    assert {e.key for e in EDITIONS} == set(REGISTRY.keys)
    for key in REGISTRY.keys:
        settings = Settings(format=key)
        found = REGISTRY.format_for(settings)
        opened = LobbyOpened(
            at=datetime.now(UTC), seed=1, settings=settings, format=found, creator=1
        )
        assert edition_of(evolve(None, opened)).key == key


def test_a_word_names_one_edition_in_any_case() -> None:
    words = [word for e in EDITIONS for word in e.words]
    assert len(words) == len(set(words))
    for edition in EDITIONS:
        for word in edition.words:
            assert by_word(word.upper()) is edition
    assert by_word("chess") is None
    assert rules_by_word("LIARS") == "rules.liars" and rules_by_word("2023") == "rules.y2023"


def test_every_table_edition_has_a_prompt_and_the_forum_none() -> None:
    for edition in EDITIONS:
        days = {f.key: f.has_days for f in REGISTRY.formats}[edition.key]
        assert (edition.prompt is not None) == (not days), edition.key


def test_every_board_has_a_view() -> None:
    assert set(REGISTRY.boards) <= set(BOARD_VIEWS)


def test_what_an_edition_names_is_in_every_catalog() -> None:
    for language in LANGUAGES:
        names = catalog(language)
        for edition in EDITIONS:
            keys = [edition.rules, edition.started, *edition.composers]
            missing = [key for key in keys if key not in names]
            assert missing == [], f"{language}, {edition.key}: {missing}"


def test_an_editions_planners_are_for_its_own_events_or_a_shared_one_it_words_its_way() -> None:
    for edition in EDITIONS:
        for event_type, planner in edition.planners.items():
            assert EVENT_HANDLERS[event_type] is not None
            if event_type in SHARED_HANDLERS:  # an override, e.g. the Liars board's words
                assert planner is not SHARED_HANDLERS[event_type]
