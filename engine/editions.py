"""The shipped formats, and the registry built from them: the one module that imports
the edition packages.

`FORMATS` is the forum and the table editions in their order (the forum first; the
classic, the first table edition, is the default one); `REGISTRY` (engine/registry.py) is
built from it once, at import, and never changes. A program that plays another edition
builds its own registry: `Registry(FORMATS + (TOY,))`.
"""

from __future__ import annotations

from engine.format import Format
from engine.forum import FORUM
from engine.liars.edition import LIARS_EDITION
from engine.registry import Registry
from engine.table.classic import CLASSIC
from engine.y2023.edition import Y2023_EDITION

FORMATS: tuple[Format, ...] = (FORUM, CLASSIC, Y2023_EDITION, LIARS_EDITION)
REGISTRY = Registry(FORMATS)

__all__ = ["FORMATS", "REGISTRY", "Registry"]
