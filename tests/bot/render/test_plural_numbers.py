"""Every plural message at 0, 1, 2, 5, 11, 21, 22, a decimal and a million, in all eight
languages (issue 39): the form is the one CLDR names for the number (Babel's rule), the
catalog writes that form itself (no fall-back to "other"), and the text shows the number
as the language writes it ("1,5" in Russian, "1.5" in English)."""

from __future__ import annotations

import pytest
from babel import Locale

from locales import LANGUAGES, catalog, t
from locales.formats import decimal
from tests.support.catalogs import placeholders
from tests.test_plural_calls import PLURALS, SHOWN_AS

# A million: Spanish's "many" (CLDR 42 on: "1 millón de sugerencias").
NUMBERS = (0, 1, 2, 5, 11, 21, 22, 1.5, 1_000_000)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_numbers_reach_every_category_of_the_language(lang: str) -> None:
    """The numbers tried are enough: each category CLDR's rule has for the language (for
    whole numbers and decimals) is some number's."""
    rule = Locale.parse(lang).plural_form
    assert {rule(n) for n in NUMBERS} == set(rule.tags) | {"other"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_has_the_form_cldr_names_for_each_number(lang: str) -> None:
    rule = Locale.parse(lang).plural_form
    wrong = []
    for key in PLURALS:
        entry = catalog(lang)[key]
        for number in NUMBERS:
            category = rule(number)
            if category not in entry:
                wrong.append(f"{key}: no {category!r} form for {number}")
                continue
            shown = SHOWN_AS.get(key, "count")
            written = {name: f"<{name}>" for name in placeholders(entry[category])}
            written[shown] = decimal(lang, number)
            text = t(lang, key, **{**written, "count": number})
            if text != entry[category].format_map(written):
                wrong.append(f"{key} at {number}: not the {category!r} form: {text}")
            if decimal(lang, number) not in text:
                wrong.append(f"{key} at {number}: the number is not shown as {lang} writes it")
    assert wrong == []


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "1.5"),
        ("ru", "1,5"),
        ("uk", "1,5"),
        ("be", "1,5"),
        ("de", "1,5"),
        ("es", "1,5"),
        ("nl", "1,5"),
        ("eo", "1,5"),
    ],
)
def test_a_decimal_count_is_written_as_the_language_writes_it(lang: str, expected: str) -> None:
    """/stats' averages are the only counts with a fraction: shown by their own placeholder
    (`decimal`), and `count` itself the same way should a message show it."""
    assert expected in t(lang, "stats.forum_days", days=decimal(lang, 1.5), count=1.5)
    assert expected in t(lang, "stats.suggestions", count=1.5)
    assert t(lang, "stats.suggestions", count=1.0) == t(lang, "stats.suggestions", count=1)
