"""`replace` for the engine's frozen state values: `dataclasses.replace` without running the
class's `__init__` again. Folding an event copies the game state several times, and the
generated `__init__` of a frozen dataclass sets each of its thirty-odd fields one by one;
copying the instance's dict and setting the changed fields is about seven times cheaper.
A class with a `__post_init__` (one that checks or derives fields) still goes through
`dataclasses.replace`."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any, ClassVar, Protocol, TypeVar


class Dataclass(Protocol):
    """Any dataclass instance."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


T = TypeVar("T", bound=Dataclass)


@cache
def _checks(cls: type) -> bool:
    """Whether a class has a `__post_init__` (asked once per class)."""
    return hasattr(cls, "__post_init__")


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of a frozen dataclass instance with some fields changed (an unknown field
    name is a TypeError, as with dataclasses.replace)."""
    cls = type(obj)
    if _checks(cls):
        return dataclasses.replace(obj, **changes)
    fields = cls.__dataclass_fields__
    if not changes.keys() <= fields.keys():
        unknown = sorted(changes.keys() - fields.keys())
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", {**obj.__dict__, **changes})
    return new
