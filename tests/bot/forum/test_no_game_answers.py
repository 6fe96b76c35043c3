"""A private command about one's game, from someone who plays in none, is answered in its
own words: the notebook's commands that there is no notebook, the others that the person
plays in no running game; a group's command sent in private, that it works in a group."""

from __future__ import annotations

from locales import t
from tests.support.harness import Party, bot_messages


async def test_commands_without_a_game_say_why_in_their_own_words(table: Party) -> None:
    table.bob.start_bot()
    await table.bot.settle()
    expected = {
        "/notebook": "notebook.no_game",
        "/mark Rope @alice yes": "notebook.no_game",
        "/back": "error.no_running_game",
        "/away 2d": "error.no_running_game",
        "/standing Rope": "error.no_running_game",
        "/accuse": "error.no_running_game",
        "/status": "error.group_only",
        "/log": "error.group_only",
        "/cards": "error.group_only",
        "/join": "error.group_only",
        "/leave": "error.group_only",
    }
    for command, key in expected.items():
        before = len(table.bob.private_messages())
        await table.bot.say(table.bob, None, command)
        said = [m.text for m in table.bob.private_messages()[before:]]
        assert said == [t("en", key)], command


async def test_the_log_of_a_lobby_says_the_game_has_not_begun(table: Party) -> None:
    """Before the start there is no day to tell of (not "no suggestions on day 0")."""
    await table.bot.say(table.alice, table.group, "/newgame")
    await table.bot.say(table.bob, table.group, "/log")
    assert bot_messages(table.group)[-1].text == t("en", "error.game_not_running")
