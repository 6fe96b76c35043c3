"""The engine's import contract (beside the purity test): the table core and the rest of
the engine never import an edition package, only the registry (engine/editions.py) does;
no module imports inside a function; engine modules import each other without a circle;
and none is over 400 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
EDITION_PACKAGES = ("engine.liars", "engine.y2023")
REGISTRY = "engine.editions"


def _module(path: Path) -> str:
    parts = list(path.relative_to(ENGINE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module(path): path for path in sorted(ENGINE.rglob("*.py"))}


def _imported(module: str, tree: ast.Module) -> set[str]:
    """The engine modules a module imports at its top level (`from engine import x` is
    the module engine.x when there is one)."""
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                found.add(inner if inner in MODULES else node.module)
    return {name for name in found if name in MODULES and name != module}


def _graph() -> dict[str, set[str]]:
    return {
        name: _imported(name, ast.parse(path.read_text(encoding="utf-8")))
        for name, path in MODULES.items()
    }


def _in_edition(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in EDITION_PACKAGES)


def test_only_the_registry_imports_an_edition_package() -> None:
    offenders = {
        name: sorted(n for n in imports if _in_edition(n))
        for name, imports in _graph().items()
        if not _in_edition(name) and name != REGISTRY
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_registry_is_imported_only_by_the_engine_entry_points() -> None:
    importers = {name for name, imports in _graph().items() if REGISTRY in imports}
    assert importers <= {"engine", "engine.decide"}


def test_no_engine_module_imports_inside_a_function_or_under_a_condition() -> None:
    late: list[str] = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
                late.append(f"{name}:{node.lineno}")
    assert late == []


def test_engine_modules_import_each_other_without_a_circle() -> None:
    graph = _graph()
    graph.pop("engine", None)  # the package's entry point imports; nothing imports it back
    for imports in graph.values():
        imports.discard("engine")
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join([*path, name]))
        if name in done:
            return
        path.append(name)
        for target in sorted(graph.get(name, ())):
            visit(target)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)


def test_no_engine_module_is_over_400_lines() -> None:
    long = {
        name: lines
        for name, path in MODULES.items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert long == {}
