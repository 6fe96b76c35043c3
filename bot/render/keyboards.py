"""Button specs of a payload to Telegram inline keyboards, labelled in the reader's language."""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.render.reader import Reader
from bot.settings_text import describe_setting
from locales import t
from locales.formats import language_name, zone_label


def buttons_markup(
    reader: Reader, rows: list[list[dict[str, Any]]] | None
) -> list[list[dict[str, str]]]:
    """Button specs → InlineKeyboardButton dicts: text from the catalog (with its `args`),
    a person's name, a card's name, a setting's value, or given `text`; the button opens
    `url`, a Mini App at `web_app` (private chats only), or sends back `data`."""
    result: list[list[dict[str, str]]] = []
    for row in rows or []:
        out_row: list[dict[str, str]] = []
        for spec in row:
            if "user" in spec:
                text = reader.name(int(spec["user"]))
            elif "card" in spec:
                text = reader.card_name(str(spec["card"]))
            elif "setting" in spec:  # a setting's value in words, ✅ when it is the current one
                text = describe_setting(reader.language, str(spec["setting"]), spec["value"])
                text = f"✅ {text}" if spec.get("chosen") else text
            elif "zone" in spec:  # a time zone by its city in the reader's language
                text = zone_label(reader.language, str(spec["zone"]))
            elif "language" in spec:  # a language by its own name, ✅ when it is the chosen one
                text = language_name(str(spec["language"]))
                text = f"✅ {text}" if spec.get("chosen") else text
            elif "t" in spec:
                catalog_args: dict[str, Any] = dict(spec.get("args", {}))
                if "room" in spec:  # a room named in the button, in the reader's language
                    catalog_args["room"] = reader.card_name(str(spec["room"]))
                if "player" in spec:  # a person named in the button, by their name
                    catalog_args["player"] = reader.name(int(spec["player"]))
                text = t(reader.language, str(spec["t"]), **catalog_args)
            else:
                text = str(spec.get("text", "?"))
            button = {"text": text}
            if "url" in spec:
                button["url"] = str(spec["url"])
            elif "web_app" in spec:
                button["web_app"] = str(spec["web_app"])
            else:
                button["callback_data"] = str(spec["data"])
            out_row.append(button)
        result.append(out_row)
    return result


def keyboard(rows: list[list[dict[str, str]]]) -> InlineKeyboardMarkup | None:
    """An inline keyboard from rendered button dicts (None when there are none)."""
    if not rows:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    text=b["text"],
                    url=b.get("url"),
                    callback_data=b.get("callback_data"),
                    web_app=WebAppInfo(b["web_app"]) if "web_app" in b else None,
                )
                for b in row
            ]
            for row in rows
        ]
    )
