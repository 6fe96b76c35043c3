"""State held in module globals, read after importing every shipped module.

`python -m tests.house_globals [PACKAGE ...]` imports every module of the packages (the
shipped ones by default; Alembic migrations aside) and prints, one a line, each module-level
name bound in that module's own source to hidden state: a mutable container (dict and its
kinds, list, set, deque, bytearray, the weak containers), a lock, a context variable, or an
instance of a project class that can change (anything but a frozen dataclass, an enum or a
tuple). Read-only constants (tuple, frozenset, MappingProxyType) and `functools.cache`
functions are not state here. The house test (tests/test_house.py) runs it in a process of
its own, so that importing everything leaves the test run's modules alone.
"""

from __future__ import annotations

import ast
import asyncio
import collections
import contextvars
import dataclasses
import enum
import importlib
import sys
import threading
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tests.house_imports import ROOT, module_paths, parsed

# The packages that ship (pyproject.toml), whose module globals are checked.
CHECKED = ("engine", "storage", "bot", "locales", "simulation", "fakebot", "testbed", "compiled")
SKIPPED = ("storage.migrations",)  # Alembic's scripts run only inside Alembic

MUTABLE = (
    dict,
    list,
    set,
    bytearray,
    collections.deque,
    weakref.WeakKeyDictionary,
    weakref.WeakValueDictionary,
    weakref.WeakSet,
    contextvars.ContextVar,
    asyncio.Lock,
    type(threading.Lock()),
    type(threading.RLock()),
    threading.local,
)


# Today's module state, each with why it is there (tests/test_house.py fails for any other,
# and for an entry here that is gone: take it out).
KNOWN: Mapping[str, str] = MappingProxyType(
    {
        "engine.codec._ENCODERS": "cache: a class's encoder, built on its first use",
        "engine.codec._DECODERS": "cache: a class's decoder, built on its first use",
        "bot.observe._current": (
            "context variable: the update being handled, read only for its log record"
            " (its flags travel on the handler's context)"
        ),
        "locales.CHECKS": "a switch the tests turn on (plural checks): hidden state",
        "storage.watch.WATCHERS": "hooks a benchmark adds to watch every database's work",
        "engine.notebook.count._counter": (
            "the deal count a process chose at its start (compiled/): the same numbers"
            " either way, only sooner"
        ),
        "compiled.deal_count._shelf": (
            "reuse: the memory of finished counts for the next ones (fresh memory cost"
            " a page fault a page: a quarter of a ten-seat count); no count's numbers in it"
        ),
    }
)


def _bound_names(path: Path) -> Iterator[str]:
    """Names a module's own top-level statements assign (not those it imports)."""
    for node in parsed(path).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and not name.id.startswith("__"):
                    yield name.id


def _changeable(value: object, packages: tuple[str, ...]) -> bool:
    """Hidden state: a mutable container, a lock, a context variable, or an object of the
    packages' own classes that can change."""
    if isinstance(value, MUTABLE):
        return True
    own = type(value).__module__.split(".")[0] in packages
    if not own or isinstance(value, enum.Enum | tuple | type):
        return False
    if dataclasses.is_dataclass(value):
        kind: Any = type(value)  # a dataclass's parameters are not in its static type
        return not kind.__dataclass_params__.frozen
    return not callable(value)


def module_state(packages: tuple[str, ...] = CHECKED, root: Path = ROOT) -> list[str]:
    """`module.NAME: type` for every module global holding state, in module order (the
    packages must be importable: under `root`, with `root` on the path)."""
    found = []
    for module, path in module_paths(packages, root).items():
        if module.startswith(SKIPPED):
            continue
        loaded = importlib.import_module(module)
        for name in dict.fromkeys(_bound_names(path)):
            value = getattr(loaded, name, None)
            if _changeable(value, packages):
                found.append(f"{module}.{name}: {type(value).__name__}")
    return found


if __name__ == "__main__":
    print("\n".join(module_state(tuple(sys.argv[1:]) or CHECKED)))
