"""/me's profile card in English and Russian: a PNG of the card's width, as tall as what it
shows, its words in the reader's language; when it cannot be drawn, the record in words
with the same figures."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.payload import User
from bot.render import me_card
from bot.render.me_card import me_post, profile_card
from bot.render.profile_picture import WIDTH
from bot.render.reader import Person, Reader

OLGA = 5


def _args(**changes: Any) -> dict[str, Any]:
    forum = {"family": "forum", "pool": "people", "games": 40}
    table = {"family": "table", "pool": "computers", "games": 1}
    return {
        "player": User(OLGA),
        "games": 1234,
        "wins": 17,
        "right": 19,
        "wrong": 6,
        "ratings": [
            {**forum, "mu": 28.345, "sigma": 2.71, "rating": 20.215},
            {**table, "mu": 31.0, "sigma": 5.52, "rating": 14.44},
        ],
        "moments": [
            {"family": "forum", "forced": 3.4, "forced_games": 12, **_accused(4.25, 21)},
            {"family": "table", "forced": None, "forced_games": 0, **_accused(17.0, 3)},
        ],
        "hidden": False,
        "everywhere": True,
    } | changes


def _accused(day: float, games: int) -> dict[str, Any]:
    return {"accused": day, "accused_games": games}


def _reader(language: str) -> Reader:
    return Reader(language, people={OLGA: Person("Ольга", "olga")})


def _picture(data: bytes | None) -> Image.Image:
    assert data is not None
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_card_is_a_png_of_the_card_width(language: str) -> None:
    caption, data = me_post(_reader(language), _args(), "the caption")
    assert caption == "the caption"
    image = _picture(data)
    assert image.width == WIDTH and 700 < image.height < 1280
    empty = _picture(me_post(_reader(language), _args(ratings=[], moments=[]), "")[1])
    assert empty.width == WIDTH and empty.height < image.height / 2
    more = me_post(_reader(language), _args(achievements=["First win"]), "")[1]
    assert _picture(more).height > image.height  # a line of achievements when listed


def test_the_card_reads_in_russian() -> None:
    card = profile_card(_reader("ru"), _args())
    assert card.name == "Ольга" and card.subtitle == "Ваши результаты"
    assert [(s.value, s.label) for s in card.stats] == [
        ("1\xa0234", "рейтинговые игры"),
        ("17", "победы"),
        ("19", "верные обвинения"),
        ("6", "неверные обвинения"),
    ]
    assert [(r.kind, r.value, r.note) for r in card.ratings] == [
        ("Игры по переписке", "28,3 ± 2,7", "осторожная оценка: 20,2 · 40 игр"),
        (
            "Игры за столом с компьютерными детективами",
            "31 ± 5,5",
            "осторожная оценка: 14,4 · 1 игра",
        ),
    ]
    forum, table = card.sections
    assert forum.title == "Игры по переписке"
    assert forum.lines == (
        "Игровой день, в который ваш блокнот назвал содержимое конверта: "
        "в среднем 3,4 (в 12 играх)",
        "Игровой день вашего обвинения: в среднем 4,2 (в 21 игре)",
    )
    assert table.lines[1] == "Ход вашего обвинения: в среднем 17 (в 3 играх)"


def test_without_a_picture_the_record_goes_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_: object) -> bytes:
        raise OSError("no font")

    monkeypatch.setattr(me_card, "card_png", broken)
    text, data = me_post(_reader("en"), _args(), "the caption")
    assert data is None
    assert text.startswith("🕵️ <b>Your record</b>\n1,234 rated games\n🏆 17 won\n")
    assert "✅ 19 right accusations\n❌ 6 wrong accusations" in text
    assert "Forum games: 28.3 ± 2.7 (cautious estimate: 20.2), 40 games" in text
    assert "📓 Your notebook named the envelope: day 3.4 on average (12 games)" in text
    assert "🎯 You accused: turn 17 on average (3 games)" in text
    assert "🌍 You are also listed on the leaderboard across every chat (/top all)." in text
