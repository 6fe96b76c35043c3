"""`whodunit demo`: a whole game printed, with no token and no settings of the environment,
checked as a newcomer reading it would: the group thread ends with the end post and the
story, every player's private chat shows their hand (the one the end post reveals), no
card a player shows in private is told in the group, and the command exits 0."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from bot.cli import main
from bot.demo.cast import NAMES
from bot.demo.editions import DEMO_FORMATS
from bot.demo.options import FORMATS
from bot.demo.transcript import plain
from locales import LANGUAGES, t

PLAYERS = 3
# A short game of each format (3 players: about 4 to 10 s each on a 2-core machine).
SEEDS = {"forum": 6, "classic": 1, "liars": 1, "y2023": 4}
HEADER = re.compile(r"^\[(?P<tag>[^\]]+)\] (?P<rest>.*)$")


@dataclass
class Entry:
    """One printed message or act: its chat's tag, its first line, the lines under it."""

    tag: str
    head: str
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def entries(printed: str) -> list[Entry]:
    found: list[Entry] = []
    for line in printed.splitlines():
        match = HEADER.match(line)
        if match:
            found.append(Entry(match["tag"], match["rest"]))
        elif line.startswith(" ") and found:
            found[-1].lines.append(line.strip())
    return found


def test_the_demo_formats_are_the_ones_the_command_offers() -> None:
    assert set(DEMO_FORMATS) == set(FORMATS)
    for language in LANGUAGES:
        assert len(NAMES[language]) >= 6
        for key in FORMATS:
            assert t(language, f"demo.format_{key}") != f"demo.format_{key}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("format_key", "language"),
    [
        ("forum", "en"),  # every format once, English and Russian among the languages
        ("classic", "ru"),
        ("liars", "de"),
        ("y2023", "uk"),
    ],
)
def test_a_whole_game_is_printed_with_no_token(
    format_key: str,
    language: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("WHODUNIT_BOT_TOKEN", raising=False)
    # The demo reads no settings: these would reach out, or fail, if it did.
    monkeypatch.setenv("WHODUNIT_TELEGRAM_API_URL", "https://telegram.invalid/bot")
    monkeypatch.setenv("WHODUNIT_DATABASE_URL", "postgresql+asyncpg://nobody@nowhere.invalid/x")
    monkeypatch.setenv("WHODUNIT_WEBHOOK_URL", "https://bot.invalid/hook")
    argv = ["demo", "--format", format_key, "--language", language]
    status = main(
        [*argv, "--players", str(PLAYERS), "--seed", str(SEEDS[format_key]), "--speed", "0"]
    )
    printed = capsys.readouterr().out

    assert status == 0
    assert printed.rstrip().splitlines()[-1] == t(language, "demo.over")
    group = f"{t(language, 'demo.group')}"
    bot = "Whodunit"
    said = entries(printed)
    group_posts = [e for e in said if e.tag == group and e.head.startswith(bot)]
    # The thread ends with the story of the game, then the achievements earned in it.
    assert group_posts[-1].lines[0] == plain(t(language, "achievements.post"), "HTML")
    assert group_posts[-2].lines[0] == plain(t(language, "story.title"), "HTML")

    # Each player's private chat shows their hand, and the end post the hands at the end: the
    # same ones (in the Liars Edition cards are passed left: the same cards in all).
    people = NAMES[language][:PLAYERS]
    hand_line = plain(t(language, "dm.hand", hand="<i>HAND</i>", role="ROLE"), "HTML")
    marker = hand_line.split("HAND")[0]  # "🃏 Your cards: "
    hands: dict[str, set[str]] = {}
    for name, username in people:
        mine = [e for e in said if e.tag == t(language, "demo.private", name=name)]
        shown = [line for e in mine for line in e.lines if line.startswith(marker)]
        assert shown, f"{name} was never shown their hand"
        hands[username] = set(shown[0].removeprefix(marker).split(", "))
    end = next(i for i, e in enumerate(said) if e in group_posts and _lists_hands(e, hands))
    revealed = _lists_hands(said[end], hands)
    passing = format_key == "liars"
    assert (set().union(*revealed.values()) if passing else revealed) == (
        set().union(*hands.values()) if passing else hands
    )

    # Before the end post, no hand line in the group, and no card a player shows in private
    # (a press on a card of their own hand) in what the group is told next (but in the Liars
    # Edition, where a caught liar puts a card face up for all).
    before = said[:end]
    assert not any(marker in e.text for e in before if e.tag == group)
    for i, e in enumerate(before):
        who = next((n for n, _ in people if e.tag == t(language, "demo.private", name=n)), None)
        pressed = re.search(r"\[([^\]]+)\]$", e.head)
        if passing or who is None or pressed is None or e.head.startswith(bot):
            continue
        card = pressed[1]
        if card not in hands[dict(people)[who]]:
            continue  # a composer's button (an accusation), not a card shown
        for later in before[i + 1 :]:
            if not later.head.startswith(bot):
                break  # the next person's act
            if later.tag == group:
                assert card not in later.text, (who, card, later.text)


def _lists_hands(post: Entry, hands: dict[str, set[str]]) -> dict[str, set[str]]:
    """The hands a post lists, a line "• @user: cards" for every player (the last such
    line of each: accusations come before the hands); empty unless it names all."""
    listed: dict[str, set[str]] = {}
    for user in hands:
        prefix = f"• @{user}: "
        lines = [line for line in post.lines if line.startswith(prefix)]
        if not lines:
            return {}
        listed[user] = set(lines[-1].removeprefix(prefix).split(", "))
    return listed
