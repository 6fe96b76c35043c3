"""Composers of the Liars Edition's messages: an investigation card or an action named by
its own catalog text inside a sentence; the start with the edition's cards."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bot.render.arguments import flat_args
from bot.render.reader import Reader
from bot.render.wording import Composer
from locales import t


def with_texts(key: str) -> Composer:
    """`key`, its arguments that are catalog texts ({"t": key}) put in the reader's words."""

    def compose(reader: Reader, args: dict[str, Any]) -> str:
        f = flat_args(reader, args)
        for name, value in args.items():
            if isinstance(value, dict) and "t" in value:
                f[name] = t(reader.language, str(value["t"]))
        return t(reader.language, key, **f)

    return compose


LIARS_COMPOSERS: Mapping[str, Composer] = MappingProxyType(
    {
        key: with_texts(key)
        for key in (
            "liars.read",
            "liars.read_closed",
            "liars.read_gm",
            "liars.read_gm_closed",
            "dm.liars_card",
            "dm.liars_drawn",
        )
    }
)
