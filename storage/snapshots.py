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
from functools import cache
from typing import Any

from engine import REGISTRY
from engine.codec import Codec, to_dict
from engine.state import Game
from engine.table.state import EditionState


def _is_optional(hint: Any) -> tuple[bool, Any]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(options) < len(typing.get_args(hint))
        return optional, options[0] if len(options) == 1 else tuple(options)
    return False, hint


@cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def _shape(hint: Any, seen: set[type]) -> str:
    """A canonical description of a type and every dataclass and enum inside it."""
    optional, hint = _is_optional(hint)
    prefix = "?" if optional else ""
    if isinstance(hint, tuple):  # a union of several types
        return prefix + "|".join(_shape(option, seen) for option in hint)
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
    """Changes whenever the Game dataclasses (each edition's part of the table included)
    or the evolve rules (every module folding an event, of the shipped registry's formats)
    change, so old snapshots are ignored rather than trusted."""
    modules = {inspect.getmodule(fold) for fold in REGISTRY.folds.values()}
    named = sorted((m for m in modules if m is not None), key=lambda m: m.__name__)
    rules = "".join(inspect.getsource(module) for module in named)
    seen: set[type] = set()
    editions = "".join(_shape(kind, seen) for _, kind in sorted(EditionState.kinds().items()))
    shape = _shape(Game, seen) + editions + rules
    digest = hashlib.sha256(shape.encode()).hexdigest()[:16]
    return f"json2:{digest}"


def encode_state(state: Game) -> Any:
    return to_dict(state)


def decode_state(data: Any, codec: Codec = REGISTRY.codec) -> Game:
    """A stored state, read with a registry's names (the shipped one's unless told)."""
    return codec.from_dict(Game, data)
