"""The texts of the settings menu in an admin's private chat: every setting of the
format with its value in words, and one setting's page."""

from __future__ import annotations

import html
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.render.reader import Reader
from bot.render.wording import Composer, join_lines
from bot.settings_text import describe_setting
from locales import t


def _value(lang: str, name: str, value: Any) -> str:
    return html.escape(describe_setting(lang, name, value))


def menu_settings(reader: Reader, args: dict[str, Any]) -> str:
    """Every setting the menu shows, the rule a change follows, and what to press."""
    lang = reader.language
    lines = [
        t(
            lang,
            "settings.line",
            name=html.escape(t(lang, f"setting.{name}")),
            value=_value(lang, name, value),
        )
        for name, value in args["settings"].items()
    ]
    title = "settings.title_game" if args["for_game"] else "settings.title_chat"
    if args.get("from_next_day"):
        rule = t(lang, "menu.from_next_day")
    elif args.get("locked"):
        rule = t(lang, "menu.locked")
    else:
        rule = ""
    return "\n\n".join(
        part for part in (join_lines(t(lang, title), *lines), rule, t(lang, "menu.choose")) if part
    )


def menu_setting(reader: Reader, args: dict[str, Any]) -> str:
    """One setting: its value now, and when a change applies."""
    lang = reader.language
    name = args["setting"]
    head = t(lang, "menu.setting_title", label=html.escape(t(lang, f"setting.{name}")))
    now = t(lang, "menu.setting_now", value=_value(lang, name, args["value"]))
    rule = t(lang, "menu.setting_next_day") if args.get("from_next_day") else ""
    return join_lines(head, now, rule)


MENU_COMPOSERS: Mapping[str, Composer] = MappingProxyType(
    {
        "menu.settings": menu_settings,
        "menu.setting": menu_setting,
    }
)
