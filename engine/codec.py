"""Events and settings to plain JSON-ready dicts and back, for storage."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from datetime import datetime, time, timedelta
from typing import Any

from engine.cards import Pack
from engine.commands import COMMAND_TYPES, Command
from engine.events import EVENT_TYPES, Event
from engine.settings import Settings
from engine.state import Game

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


def _identity(value: Any) -> Any:
    return value


def _encoder(hint: Any) -> Encoder:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = _encoder(options[0])
        return lambda v: None if v is None else inner(v)
    if origin is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        items = [_encoder(a) for a in args]
        if len(items) == 1:
            return lambda v: [items[0](x) for x in v]
        return lambda v: [enc(x) for enc, x in zip(items, v, strict=True)]
    if origin is dict:
        return _identity
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return lambda v: v.value
    if hint is datetime:
        return lambda v: v.isoformat()
    if hint is timedelta:
        return lambda v: v.total_seconds()
    if hint is time:
        return lambda v: v.isoformat()
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_encoder(hint)
    return _identity


def _decoder(hint: Any) -> Decoder:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = _decoder(options[0])
        return lambda v: None if v is None else inner(v)
    if origin is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        items = [_decoder(a) for a in args]
        if len(items) == 1:
            return lambda v: tuple(items[0](x) for x in v)
        return lambda v: tuple(dec(x) for dec, x in zip(items, v, strict=True))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if hint is datetime:
        return datetime.fromisoformat
    if hint is timedelta:
        return lambda v: timedelta(seconds=v)
    if hint is time:
        return time.fromisoformat
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    return _identity


def _hints(cls: type) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls)]


_ENCODERS: dict[type, Encoder] = {}
_DECODERS: dict[type, Decoder] = {}


def _dataclass_encoder(cls: type) -> Encoder:
    if cls not in _ENCODERS:
        parts = [(name, _encoder(hint)) for name, hint in _hints(cls)]
        _ENCODERS[cls] = lambda v: {name: enc(getattr(v, name)) for name, enc in parts}
    return _ENCODERS[cls]


def _dataclass_decoder(cls: type) -> Decoder:
    if cls not in _DECODERS:
        parts = [(name, _decoder(hint)) for name, hint in _hints(cls)]

        def decode(data: dict[str, Any]) -> Any:
            return cls(**{name: dec(data[name]) for name, dec in parts if name in data})

        _DECODERS[cls] = decode
    return _DECODERS[cls]


def event_to_dict(event: Event) -> dict[str, Any]:
    """{"type": name, ...fields}; JSON-ready."""
    data: dict[str, Any] = _dataclass_encoder(type(event))(event)
    data["type"] = type(event).__name__
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    fields = dict(data)
    cls = EVENT_TYPES[fields.pop("type")]
    event: Event = _dataclass_decoder(cls)(fields)
    return event


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    result: dict[str, Any] = _dataclass_encoder(Settings)(settings)
    return result


def settings_from_dict(data: dict[str, Any]) -> Settings:
    settings: Settings = _dataclass_decoder(Settings)(data)
    return settings


def command_to_dict(command: Command) -> dict[str, Any]:
    """{"type": name, ...fields}; JSON-ready (deadline rows store their command so)."""
    data: dict[str, Any] = _dataclass_encoder(type(command))(command)
    data["type"] = type(command).__name__
    return data


def command_from_dict(data: dict[str, Any]) -> Command:
    fields = dict(data)
    cls = COMMAND_TYPES[fields.pop("type")]
    command: Command = _dataclass_decoder(cls)(fields)
    return command


def state_to_dict(state: Game) -> dict[str, Any]:
    """The whole state, JSON-ready (for snapshots; the events stay the record)."""
    data: dict[str, Any] = _dataclass_encoder(Game)(state)
    return data


def state_from_dict(data: dict[str, Any]) -> Game:
    state: Game = _dataclass_decoder(Game)(data)
    return state


def pack_to_dict(pack: Pack) -> dict[str, Any]:
    data: dict[str, Any] = _dataclass_encoder(Pack)(pack)
    return data


def pack_from_dict(data: dict[str, Any]) -> Pack:
    pack: Pack = _dataclass_decoder(Pack)(data)
    return pack
