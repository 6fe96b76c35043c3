"""Away from a table by one's own word, through the fake Bot API: /away in private is
answered there and posted in the group with the "I'm back" button; /back in private is
answered there and told on the turn's card; the group's button answers with its toast
alone."""

from __future__ import annotations

from locales import t
from tests.support.harness import Party, bot_messages
from tests.support.play import lobby_post

LABEL = "🎲 Cluedo club\n"  # a private message names its game


async def _open_classic(table: Party) -> None:
    """A classic table of Alice, Bob and Carol, started."""
    for person in table.players:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame classic")
    for person in (table.bob, table.carol):
        await table.bot.press(person, lobby_post(table), "Join")
    await table.bot.press(table.alice, lobby_post(table), "Start the game")


async def test_away_and_back_at_the_table_are_answered_where_they_were_said(table: Party) -> None:
    await _open_classic(table)

    await table.bot.say(table.bob, None, "/away 1d")
    said = table.bob.private_messages()[-1].text
    assert said.startswith(LABEL + "💤 You are away from the table until ")
    post = bot_messages(table.group)[-1]
    assert post.text.startswith("💤 @bob (") and " is away until " in post.text
    assert post.buttons and t("en", "button.back_to_table") in str(post.buttons)

    await table.bot.say(table.bob, None, "/back")
    assert table.bob.private_messages()[-1].text == LABEL + t("en", "dm.table_back")

    await table.bot.say(table.bob, None, "/away 1d")
    post = bot_messages(table.group)[-1]
    before = len(table.bob.private_messages())
    answer = await table.bot.press(table.bob, post, t("en", "button.back_to_table"))
    assert answer.answered and answer.text == t("en", "toast.back")
    assert len(table.bob.private_messages()) == before  # the toast alone
    for person in (table.alice, table.carol):  # nobody else is told in private
        assert not any("away from the table" in m.text for m in person.private_messages())


async def test_a_forum_suggestion_at_the_table_is_refused_before_anything_is_chosen(
    table: Party,
) -> None:
    """At the table a suggestion is made on one's turn, with its buttons: /suggest (in
    private or typed in the group) is refused at once, not after four steps or a card name."""
    await _open_classic(table)
    refused = t("en", "error.wrong_format")
    await table.bot.say(table.bob, None, "/suggest")
    said = table.bob.private_messages()[-1]
    assert said.text == LABEL + refused and not said.buttons
    await table.bot.say(table.bob, table.group, "/suggest @carol nobody; nothing; nowhere")
    assert bot_messages(table.group)[-1].text == refused
