"""Every kind of rule error, by its code: what the catalogs are checked against.

Each format declares the kinds its rules raise (`Format.errors`: the shared ones of
engine/errors.py, and a table edition's own from its package's errors.py); a registry
(engine/registry.py `Registry.errors`) collects its formats' kinds, and a code names
exactly one kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from engine.errors import RuleError


def by_code(kinds: Iterable[type[RuleError]]) -> Mapping[str, type[RuleError]]:
    """The kinds by their codes (a kind named twice counts once); a code given to two
    kinds is refused."""
    found: dict[str, type[RuleError]] = {}
    for kind in kinds:
        if found.setdefault(kind.code, kind) is not kind:
            raise TypeError(f"rule error code {kind.code!r} taken by {found[kind.code].__name__}")
    return MappingProxyType(found)
