"""The screens of the settings menu (every setting, one setting's page) and what a press on
them asks for. Each button carries the chat, the game it was drawn for (0: the chat's
defaults) and a version of what it showed, so a press on a menu the game has moved past
is known as stale."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from bot import callbacks as cb
from bot.announce.plan import Buttons
from bot.settings_controls import offers, shown
from engine import REGISTRY
from engine.codec import to_dict
from engine.formats import Specs
from engine.queries import SettingsScope

HOME = "h"  # the screen of every setting
OPEN = "o"  # one setting's page: o:setting index
SET = "v"  # a value pressed: v:setting index:offer index
PER_ROW = 3  # value buttons in a row


@dataclass(frozen=True)
class Target:
    """What a menu changes: a chat's game (`game_id`) or its defaults (`game_id` 0),
    with the settings, phase and scope it has now."""

    chat_id: int
    topic_id: int
    game_id: int
    phase: str
    scope: SettingsScope
    specs: Specs = field(default_factory=lambda: REGISTRY.specs)  # the formats the bot plays

    @property
    def version(self) -> str:
        """Changes with any setting, with the game's phase and with the game itself."""
        values = json.dumps(to_dict(self.scope.settings), sort_keys=True, default=str)
        seen = f"{self.game_id}:{self.phase}:{values}"
        return f"{zlib.crc32(seen.encode()):08x}"

    def data(self, *action: str) -> str:
        where = (str(self.chat_id), str(self.topic_id), self.version)
        return cb.Callback(cb.SETTINGS_MENU, self.game_id, (*where, *action)).encode()

    def changeable(self) -> tuple[str, ...]:
        """The settings shown with a button, in the order they are read."""
        return tuple(name for name in self.scope.shown if name in self.scope.changeable)


Screen = tuple[str, dict[str, Any], Buttons]


def main_screen(target: Target, label: str) -> Screen:
    """Every setting of the format with its value, a button for each that may change."""
    scope = target.scope
    args: dict[str, Any] = {
        "settings": {name: shown(scope.settings, name, target.specs) for name in scope.shown},
        "for_game": target.game_id != 0,
        "from_next_day": scope.from_next_day,
        "locked": len(scope.changeable) < len(scope.shown),
    }
    if label:
        args["game_label"] = label
    rows = [
        [{"t": f"setting.{name}", "data": target.data(OPEN, str(i))}]
        for i, name in enumerate(scope.shown)
        if name in scope.changeable
    ]
    return "menu.settings", args, rows


def setting_screen(target: Target, label: str, index: int) -> Screen:
    """One setting: its value, when a change applies, the values to press, and back."""
    name = target.scope.shown[index]
    if name not in target.scope.changeable:
        raise cb.Malformed(name)
    current = target.scope.settings
    args: dict[str, Any] = {
        "setting": name,
        "value": shown(current, name, target.specs),
        "from_next_day": target.scope.from_next_day,
    }
    if label:
        args["game_label"] = label
    buttons = [
        {**offer.label, "data": target.data(SET, str(index), str(i))}
        for i, offer in enumerate(offers(name, current, target.specs))
    ]
    rows = [buttons[i : i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]
    rows.append([{"t": "menu.back", "data": target.data(HOME)}])
    return "menu.setting", args, rows


def setting_index(target: Target, text: str) -> int:
    """A setting's position from button data: one the menu offers a button for."""
    index = cb.index(text, len(target.scope.shown))
    if target.scope.shown[index] not in target.scope.changeable:
        raise cb.Malformed(text)
    return index


def pressed_change(target: Target, args: list[str]) -> tuple[str, Any]:
    """The setting and the value a value button asks for (Malformed if it offers none)."""
    if len(args) != 2:
        raise cb.Malformed("a value needs a setting and an offer")
    name = target.scope.shown[setting_index(target, args[0])]
    choices = offers(name, target.scope.settings, target.specs)
    return name, choices[cb.index(args[1], len(choices))].value
