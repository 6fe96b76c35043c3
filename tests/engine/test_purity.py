"""The engine is pure (docs/design.md, Layers): standard library, no clock, no global random."""

from __future__ import annotations

import ast
import sys
from datetime import datetime
from pathlib import Path

import pytest

from engine import commands as cmd
from engine.decide import decide

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))

# Calls that read the clock or the global random generator.
FORBIDDEN_CALLS = {
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("time", "time"),
    ("time", "time_ns"),
    ("time", "monotonic"),
    ("time", "perf_counter"),
    ("time", "localtime"),
    ("time", "gmtime"),
    ("os", "urandom"),
    ("uuid", "uuid4"),
}
RANDOM_MODULE_FUNCTIONS = {
    "random",
    "randint",
    "randrange",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "seed",
    "getrandbits",
    "gauss",
    "randbytes",
}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _imports(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative import"
            assert node.module is not None
            names.append(node.module)
    return names


def test_the_engine_has_modules() -> None:
    assert len(MODULES) > 10


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_imports_only_standard_library_and_engine(path: Path) -> None:
    for name in _imports(_tree(path)):
        top = name.split(".")[0]
        assert top == "engine" or top in sys.stdlib_module_names, f"{path.name} imports {name}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_reads_no_clock_and_no_global_random(path: Path) -> None:
    tree = _tree(path)
    random_names = {  # names bound by `from random import x`
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "random"
        for alias in node.names
    }
    assert random_names <= {"Random"}, f"{path.name} imports {random_names} from random"
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            pair = (func.value.id, func.attr)
            assert pair not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {pair}"
            assert not (func.value.id == "random" and func.attr in RANDOM_MODULE_FUNCTIONS), (
                f"{path.name}:{node.lineno} calls random.{func.attr}"
            )
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute):
            pair = (func.value.attr, func.attr)  # datetime.datetime.now() and the like
            assert pair not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {pair}"


def test_decide_refuses_a_naive_now() -> None:
    with pytest.raises(ValueError):
        decide(None, cmd.OpenLobby(actor=1, seed=1), datetime(2026, 1, 1))
