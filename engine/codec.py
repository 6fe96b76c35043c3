"""Events and settings to plain JSON-ready dicts and back, for storage.

Two hooks a dataclass may define: `kinds()` (a base whose values are its subclasses, like
`EditionState`: stored with their class name under "kind"), and `upgrade(data)` (a stored
dict of an older shape, renamed to the current fields before it is read).

What is read by name needs the names a registry knows (engine/registry.py builds a `Codec`
from them): an event or a command by its type's name, and a game's format (a `FormatBase`
field, never stored) as the format its `settings` name. Settings, packs and other plain
values read without one (`from_dict`)."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any, TypeVar

from engine.commands import Command
from engine.events import Event
from engine.formats import FormatBase

T = TypeVar("T")
Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


@dataclass(frozen=True)
class Names:
    """What the codec reads by name: event and command types, formats by key."""

    events: Mapping[str, type[Event]]
    commands: Mapping[str, type[Command]]
    formats: Mapping[str, FormatBase]


def _identity(value: Any) -> Any:
    return value


def _runtime_type(hint: Any) -> type:
    """The Python type a value of `hint` has (a union of several types picks by it)."""
    origin = typing.get_origin(hint)
    return origin if isinstance(origin, type) else hint


def _json_type(hint: Any) -> type:
    """The JSON type a value of `hint` is encoded as."""
    kind = _runtime_type(hint)
    if issubclass(kind, tuple):
        return list
    if dataclasses.is_dataclass(kind):
        return dict
    return kind


def _encoder(hint: Any) -> Encoder:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(options) > 1:  # like `Square | str`: chosen by the value's type
            by_type = [(_runtime_type(o), _encoder(o)) for o in options]
            return lambda v: (
                None if v is None else next(e for t, e in by_type if isinstance(v, t))(v)
            )
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
    if hint is Event:  # an event in a state (`Game.turn_log`): as the event log stores it
        return event_to_dict
    if _polymorphic(hint):
        return lambda v: {**_dataclass_encoder(type(v))(v), "kind": type(v).__name__}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_encoder(hint)
    return _identity


def _polymorphic(hint: Any) -> bool:
    """A dataclass base whose values are its subclasses (it lists them in `kinds()`)."""
    return (
        isinstance(hint, type)
        and dataclasses.is_dataclass(hint)
        and callable(getattr(hint, "kinds", None))
    )


def _decoder(hint: Any, names: Names | None, cache: dict[type, Decoder]) -> Decoder:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(options) > 1:  # chosen by the JSON value's type (a list is the tuple)
            by_json = [(_json_type(o), _decoder(o, names, cache)) for o in options]
            return lambda v: (
                None if v is None else next(d for t, d in by_json if isinstance(v, t))(v)
            )
        inner = _decoder(options[0], names, cache)
        return lambda v: None if v is None else inner(v)
    if origin is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        items = [_decoder(a, names, cache) for a in args]
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
    if hint is Event:
        events = _names(names, hint).events
        return lambda v: _untagged(events, v, names, cache)
    if _polymorphic(hint):
        base: Any = hint
        return lambda v: _dataclass_decoder(base.kinds()[v["kind"]], names, cache)(v)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint, names, cache)
    return _identity


def _names(names: Names | None, needed_for: Any) -> Names:
    if names is None:
        raise TypeError(f"reading a {needed_for} needs a registry's codec (engine/registry.py)")
    return names


def _derived(hint: Any) -> bool:
    """A game's format: not stored, but the format its settings name."""
    return isinstance(hint, type) and issubclass(hint, FormatBase)


def _hints(cls: type) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls)]


_ENCODERS: dict[type, Encoder] = {}
_DECODERS: dict[type, Decoder] = {}


def _dataclass_encoder(cls: type) -> Encoder:
    if cls not in _ENCODERS:
        parts = [(name, _encoder(hint)) for name, hint in _hints(cls) if not _derived(hint)]
        _ENCODERS[cls] = lambda v: {name: enc(getattr(v, name)) for name, enc in parts}
    return _ENCODERS[cls]


def _dataclass_decoder(cls: type, names: Names | None, cache: dict[type, Decoder]) -> Decoder:
    if cls not in cache:
        hints = _hints(cls)
        parts = [(name, _decoder(hint, names, cache)) for name, hint in hints if not _derived(hint)]
        derived = [name for name, hint in hints if _derived(hint)]
        formats = _names(names, cls.__name__).formats if derived else {}
        upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = getattr(cls, "upgrade", None)

        def decode(data: dict[str, Any]) -> Any:
            if upgrade is not None:
                data = upgrade(data)
            values = {name: dec(data[name]) for name, dec in parts if name in data}
            for name in derived:
                values[name] = formats[data["settings"]["format"]]
            return cls(**values)

        cache[cls] = decode
    return cache[cls]


def to_dict(value: Any) -> dict[str, Any]:
    """Any of the engine's dataclasses (settings, a pack, the whole state...), JSON-ready."""
    data: dict[str, Any] = _dataclass_encoder(type(value))(value)
    return data


def from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """The dataclass `cls` back from `to_dict`'s output (one that names no event, command
    or format: those read through a registry's `Codec`)."""
    value: T = _dataclass_decoder(cls, None, _DECODERS)(data)
    return value


def _tagged(value: Any) -> dict[str, Any]:
    return {**to_dict(value), "type": type(value).__name__}


def _untagged(
    types: Mapping[str, type[T]],
    data: dict[str, Any],
    names: Names | None,
    cache: dict[type, Decoder],
) -> T:
    fields = dict(data)
    value: T = _dataclass_decoder(types[fields.pop("type")], names, cache)(fields)
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """{"type": name, ...fields}; JSON-ready."""
    return _tagged(event)


def command_to_dict(command: Command) -> dict[str, Any]:
    """{"type": name, ...fields}; JSON-ready (deadline rows store their command so)."""
    return _tagged(command)


class Codec:
    """Reads back what was stored, with the names of one registry (engine/registry.py):
    events and commands by their type's name, a game's format by its key. Each class's
    reader is built on its first use and kept."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._decoders: dict[type, Decoder] = {}

    def from_dict(self, cls: type[T], data: dict[str, Any]) -> T:
        """The dataclass `cls` (the whole state, an event...) back from `to_dict`."""
        value: T = _dataclass_decoder(cls, self.names, self._decoders)(data)
        return value

    def event_from_dict(self, data: dict[str, Any]) -> Event:
        return _untagged(self.names.events, data, self.names, self._decoders)

    def command_from_dict(self, data: dict[str, Any]) -> Command:
        return _untagged(self.names.commands, data, self.names, self._decoders)
