"""The /settings menu end to end: an admin's /settings in the group sends the menu to
their private chat (the group gets a pointer), each press edits the menu in place and
changes the setting through the engine; a non-admin, a stale menu and an admin demoted
meanwhile are refused, changing nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.settings_text import describe_setting
from engine.codec import to_dict
from engine.state import Phase
from fakebot import FakeMessage, FakeUser
from tests.support.harness import Party, bot_messages
from tests.support.play import lobby_post, open_and_start, state
from tests.support.table_play import open_classic

POINTER = (
    "⚙️ @alice, the settings menu is in our private chat. "
    "Another admin gets their own with the button."
)
NOT_ADMIN = "Only the chat’s admins can change its settings."
STALE = (
    "This menu was out of date (the game or its settings changed since): nothing was "
    "changed. Here it is again as it is now."
)


def _words(name: str, value: Any, language: str = "en") -> str:
    """A setting's value in words, as the bot writes it (seconds for a duration)."""
    if isinstance(value, timedelta):
        value = value.total_seconds()
    return describe_setting(language, name, value)


def _menu(person: FakeUser) -> FakeMessage:
    """The person's newest settings menu (a private message whose buttons are the menu's)."""
    menus = [
        m
        for m in person.private_messages()
        if any(str(data).startswith("mn:") for row in m.buttons for _, data in row)
    ]
    assert menus, f"no settings menu in {person.first_name}'s private chat"
    return menus[-1]


def _last(table: Party) -> str:
    return bot_messages(table.group)[-1].text


async def _open_lobby(table: Party) -> int:
    for person in table.players:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame")
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    return ref.id


async def test_an_admin_changes_the_day_length_and_suggestions_by_buttons(table: Party) -> None:
    game_id = await _open_lobby(table)
    await table.bot.say(table.alice, table.group, "/settings")
    pointer = bot_messages(table.group)[-1]
    assert pointer.text == POINTER
    assert [text for row in pointer.buttons for text, _ in row] == ["⚙️ Settings menu"]
    menu = _menu(table.alice)
    assert menu.text.startswith("🎲 Cluedo club\n⚙️ Settings of this game\n")
    assert f"• Day length: {_words('day_length', timedelta(days=1))}" in menu.text
    assert "• Suggestions per day: 3" in menu.text
    assert "Time for a turn" not in menu.text  # the forum's settings only
    assert menu.text.endswith("Press a setting to change it.")

    await table.bot.press(table.alice, menu, "Day length")
    menu = _menu(table.alice)
    one_day = _words("day_length", timedelta(days=1))
    assert menu.text.endswith(f"⚙️ Day length\nNow: {one_day}")
    assert f"✅ {one_day}" in [text for row in menu.buttons for text, _ in row]
    twelve = _words("day_length", timedelta(hours=12))
    answer = await table.bot.press(table.alice, menu, twelve)
    assert answer.text == "✔️ Saved."
    assert _menu(table.alice).text.endswith(f"Now: {twelve}")
    assert _last(table) == f"⚙️ Settings changed:\n• Day length: {twelve}"
    assert (await state(table, game_id)).settings.day_length == timedelta(hours=12)

    await table.bot.press(table.alice, _menu(table.alice), "◀️ All settings")
    assert f"• Day length: {twelve}" in _menu(table.alice).text
    await table.bot.press(table.alice, _menu(table.alice), "Suggestions per day")
    await table.bot.press(table.alice, _menu(table.alice), "➕ 4")
    assert _menu(table.alice).text.endswith("⚙️ Suggestions per day\nNow: 4")
    assert _last(table) == "⚙️ Settings changed:\n• Suggestions per day: 4"
    assert (await state(table, game_id)).settings.suggestions_per_day == 4
    for step in ("➖ 3", "➖ 2", "➖ 1"):
        await table.bot.press(table.alice, _menu(table.alice), step)
    refused = await table.bot.press(table.alice, _menu(table.alice), "➖ 0")
    assert refused.text == "“Suggestions per day” must be at least 1." and refused.show_alert
    assert (await state(table, game_id)).settings.suggestions_per_day == 1
    assert _menu(table.alice).text.endswith("Now: 1")


async def test_in_a_running_game_only_the_schedule_changes_from_the_next_day(
    table: Party,
) -> None:
    game_id = await open_and_start(table)
    await table.bot.say(table.alice, table.group, "/settings")
    menu = _menu(table.alice)
    assert (
        "⏳ The game is running: only the day schedule can change, and a change applies "
        "from the next day."
    ) in menu.text
    labels = [text for row in menu.buttons for text, _ in row]
    assert labels == ["Day length", "Days end at (local time)", "Time zone"]
    await table.bot.press(table.alice, menu, "Day length")
    assert _menu(table.alice).text.endswith("⏳ A change applies from the next day.")
    two_days = _words("day_length", timedelta(days=2))
    await table.bot.press(table.alice, _menu(table.alice), two_days)
    assert _last(table) == (
        f"⚙️ Settings changed; they apply from the next day:\n• Day length: {two_days}"
    )
    game = await state(table, game_id)
    assert game.settings.day_length == timedelta(days=1)
    assert game.pending_settings is not None
    assert game.pending_settings.day_length == timedelta(days=2)


async def test_an_admin_changes_the_turn_timer_in_a_classic_lobby(table: Party) -> None:
    people = [table.alice, table.bob, table.carol]
    for person in people:
        person.start_bot()
    await table.bot.settle()
    await table.bot.say(table.alice, table.group, "/newgame classic")
    ref = await table.bot.services.store.game_for_chat(table.group.id, 0)
    assert ref is not None
    await table.bot.say(table.alice, table.group, "/settings")
    menu = _menu(table.alice)
    three = _words("turn_time", timedelta(minutes=3))
    assert f"• Time for a turn (classic format): {three}" in menu.text
    assert "Day length" not in menu.text and "Suggestions per day" not in menu.text
    await table.bot.press(table.alice, menu, "Time for a turn (classic format)")
    five = _words("turn_time", timedelta(minutes=5))
    await table.bot.press(table.alice, _menu(table.alice), five)
    assert _menu(table.alice).text.endswith(f"Now: {five}")
    assert _last(table) == f"⚙️ Settings changed:\n• Time for a turn (classic format): {five}"
    assert (await state(table, ref.id)).settings.turn_time == timedelta(minutes=5)


async def test_a_running_classic_game_offers_only_what_may_change(table: Party) -> None:
    game_id = await open_classic(table, [table.alice, table.bob, table.carol])
    game = await state(table, game_id)
    assert game.phase is Phase.RUNNING
    await table.bot.say(table.alice, table.group, "/settings")
    menu = _menu(table.alice)
    assert "🔒 The game is running: only the settings with a button below can change." in (
        menu.text
    )
    assert [text for row in menu.buttons for text, _ in row] == ["Time zone"]


async def test_an_admin_who_never_started_the_bot_gets_the_menu_on_start(
    table: Party,
) -> None:
    await table.bot.say(table.alice, table.group, "/settings")
    pointer = bot_messages(table.group)[-1]
    assert pointer.text == (
        "⚙️ @alice, the settings menu waits in a private chat with me: open it and press Start."
    )
    assert pointer.buttons == [
        [("Open a private chat with me", "https://t.me/whodunit_bot?start=settings")]
    ]
    assert not table.alice.private_messages()
    table.alice.start_bot("settings")
    await table.bot.settle()
    menu = _menu(table.alice)
    assert "⚙️ Settings for new games in this chat" in menu.text
    await table.bot.press(table.alice, menu, "Day length")
    await table.bot.press(
        table.alice, _menu(table.alice), _words("day_length", timedelta(hours=12))
    )
    defaults = await table.bot.services.directory.chat_settings(table.group.id)
    assert defaults.day_length == timedelta(hours=12)


async def test_a_non_admin_press_is_refused(table: Party) -> None:
    await _open_lobby(table)
    await table.bot.say(table.alice, table.group, "/settings")
    pointer = bot_messages(table.group)[-1]
    answer = await table.bot.press(table.bob, pointer, "⚙️ Settings menu")
    assert answer.text == NOT_ADMIN and answer.show_alert
    assert not any("mn:" in str(m.buttons) for m in table.bob.private_messages())
    await table.bot.say(table.bob, table.group, "/settings")  # players still read them
    assert _last(table).startswith("⚙️ Settings of this game")
    answer = await table.bot.press(table.alice, pointer, "⚙️ Settings menu")
    assert answer.text == "⚙️ The settings menu is in our private chat."
    assert len([m for m in table.alice.private_messages() if "mn:" in str(m.buttons)]) == 2


async def test_a_stale_press_changes_nothing_and_says_so(table: Party) -> None:
    game_id = await _open_lobby(table)
    await table.bot.say(table.alice, table.group, "/settings")
    await table.bot.press(table.alice, _menu(table.alice), "Day length")
    page = _menu(table.alice)
    await table.bot.say(table.alice, table.group, "/settings day_length 6h")
    six = _words("day_length", timedelta(hours=6))
    assert _last(table) == f"⚙️ Settings changed:\n• Day length: {six}"
    answer = await table.bot.press(table.alice, page, _words("day_length", timedelta(hours=12)))
    assert answer.text == STALE and answer.show_alert
    assert (await state(table, game_id)).settings.day_length == timedelta(hours=6)
    assert _last(table) == f"⚙️ Settings changed:\n• Day length: {six}"  # nothing new
    redrawn = _menu(table.alice)
    assert f"• Day length: {six}" in redrawn.text and "Press a setting" in redrawn.text

    # The game ends: the menu drawn for it changes nothing, not even the chat's defaults.
    await table.bot.press(table.alice, redrawn, "Day length")
    page = _menu(table.alice)
    await table.bot.say(table.alice, table.group, "/endgame")
    answer = await table.bot.press(table.alice, page, _words("day_length", timedelta(days=2)))
    assert answer.text == STALE
    defaults = await table.bot.services.directory.chat_settings(table.group.id)
    assert defaults.day_length == timedelta(days=1)
    assert "Settings for new games in this chat" in _menu(table.alice).text


async def test_an_admin_demoted_meanwhile_is_refused_at_the_next_press(table: Party) -> None:
    table.server.world.allowed_updates = ["message", "callback_query", "chat_member"]
    game_id = await _open_lobby(table)
    table.group.set_status(table.bob, "administrator", by=table.alice)
    await table.bot.settle()
    await table.bot.say(table.bob, table.group, "/settings")
    await table.bot.press(table.bob, _menu(table.bob), "Day length")
    table.group.set_status(table.bob, "member", by=table.alice)
    await table.bot.settle()
    page = _menu(table.bob)
    answer = await table.bot.press(table.bob, page, _words("day_length", timedelta(hours=12)))
    assert answer.text == NOT_ADMIN and answer.show_alert
    assert (await state(table, game_id)).settings.day_length == timedelta(days=1)
    assert _menu(table.bob).text == page.text  # the menu stays as it was


async def test_the_menu_in_russian(table: Party) -> None:
    """A Russian chat and a Russian-speaking admin: the pointer in the chat's language, the
    menu and the engine's refusal in the admin's; typed names in Russian work too."""
    table.alice.language_code = "ru"
    await table.bot.say(table.alice, table.group, "/language ru")
    game_id = await _open_lobby(table)
    await table.bot.say(table.alice, table.group, "/settings")
    pointer = bot_messages(table.group)[-1]
    assert pointer.text == (
        "⚙️ @alice, меню настроек — в нашем личном чате. Другой админ получит своё по кнопке."
    )
    menu = _menu(table.alice)
    assert "⚙️ Настройки этой игры" in menu.text
    assert "• Предположений в день: 3" in menu.text
    assert menu.text.endswith("Нажмите на настройку, чтобы изменить её.")
    await table.bot.press(table.alice, menu, "Предположений в день")
    for step in ("➖ 2", "➖ 1"):
        await table.bot.press(table.alice, _menu(table.alice), step)
    refused = await table.bot.press(table.alice, _menu(table.alice), "➖ 0")
    assert refused.text == "«Предположений в день»: минимальное значение — 1."
    assert _menu(table.alice).text.endswith("⚙️ Предположений в день\nСейчас: 1")
    assert _last(table) == "⚙️ Настройки изменены:\n• Предположений в день: 1"

    await table.bot.say(table.alice, table.group, "/settings Продолжительность игрового дня 12ч")
    game = await state(table, game_id)
    assert game.settings.day_length == timedelta(hours=12)
    twelve = _words("day_length", timedelta(hours=12), "ru")
    assert _last(table) == f"⚙️ Настройки изменены:\n• Продолжительность игрового дня: {twelve}"
    assert to_dict(game.settings)["suggestions_per_day"] == 1
    assert lobby_post(table).buttons  # the lobby is still open
