"""State snapshots: the Game as JSON, tagged with a fingerprint of its shape.

A snapshot is a cache, never the record: it is used only when its format matches the
running code's Game dataclasses exactly, and any failure to read it falls back to
replaying the events.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import inspect
import types
import typing
from collections.abc import Callable
from datetime import datetime, time, timedelta
from functools import cache
from typing import Any

import engine.evolve
from engine.state import Game

Codec = Callable[[Any], Any]


def _is_optional(hint: Any) -> tuple[bool, Any]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(options) == 1:
            return True, options[0]
        raise TypeError(f"unsupported union {hint}")
    return False, hint


@cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


@cache
def _encoder(hint: Any) -> Codec:
    optional, hint = _is_optional(hint)
    encode = _plain_encoder(hint)
    return (lambda v: None if v is None else encode(v)) if optional else encode


def _plain_encoder(hint: Any) -> Codec:
    if typing.get_origin(hint) is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        items = [_encoder(a) for a in args]
        if len(args) == 1:
            return lambda v: [items[0](x) for x in v]
        return lambda v: [enc(x) for enc, x in zip(items, v, strict=True)]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return lambda v: v.value
    if hint in (datetime, time):
        return lambda v: v.isoformat()
    if hint is timedelta:
        return lambda v: [v.days, v.seconds, v.microseconds]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        parts = [(name, _encoder(h)) for name, h in _hints(hint)]
        return lambda v: [enc(getattr(v, name)) for name, enc in parts]
    if hint in (int, str, bool, float):
        return lambda v: v
    raise TypeError(f"cannot snapshot a {hint}")


@cache
def _decoder(hint: Any) -> Codec:
    optional, hint = _is_optional(hint)
    decode = _plain_decoder(hint)
    return (lambda v: None if v is None else decode(v)) if optional else decode


def _plain_decoder(hint: Any) -> Codec:
    if typing.get_origin(hint) is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        items = [_decoder(a) for a in args]
        if len(args) == 1:
            return lambda v: tuple(items[0](x) for x in v)
        return lambda v: tuple(dec(x) for dec, x in zip(items, v, strict=True))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if hint is datetime:
        return datetime.fromisoformat
    if hint is time:
        return time.fromisoformat
    if hint is timedelta:
        return lambda v: timedelta(days=v[0], seconds=v[1], microseconds=v[2])
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        cls = hint
        parts = [_decoder(h) for _, h in _hints(cls)]
        return lambda v: cls(*(dec(x) for dec, x in zip(parts, v, strict=True)))
    if hint in (int, str, bool, float):
        return lambda v: v
    raise TypeError(f"cannot snapshot a {hint}")


def _shape(hint: Any, seen: set[type]) -> str:
    """A canonical description of a type and every dataclass and enum inside it."""
    optional, hint = _is_optional(hint)
    prefix = "?" if optional else ""
    if typing.get_origin(hint) is tuple:
        inner = ",".join(_shape(a, seen) if a is not Ellipsis else "..." for a in hint.__args__)
        return f"{prefix}tuple[{inner}]"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return f"{prefix}{hint.__name__}({','.join(str(m.value) for m in hint)})"
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint in seen:
            return f"{prefix}{hint.__name__}"
        seen.add(hint)
        fields = ",".join(f"{name}:{_shape(h, seen)}" for name, h in _hints(hint))
        return f"{prefix}{hint.__name__}{{{fields}}}"
    return f"{prefix}{getattr(hint, '__name__', repr(hint))}"


@cache
def snapshot_format() -> str:
    """Changes whenever the Game dataclasses or the evolve rules change, so old snapshots
    are ignored rather than trusted."""
    shape = _shape(Game, set()) + inspect.getsource(engine.evolve)
    digest = hashlib.sha256(shape.encode()).hexdigest()[:16]
    return f"json1:{digest}"


def encode_state(state: Game) -> Any:
    return _encoder(Game)(state)


def decode_state(data: Any) -> Game:
    state: Game = _decoder(Game)(data)
    return state
