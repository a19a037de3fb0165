"""Imports go one way: entry points → memory → billing → accounts. Checked on the source itself,
imports inside functions and migrations (their dependencies and model references) included."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Lower layers may be imported by higher ones, never the other way round.
LAYERS = {
    "accounts": 0,
    "billing": 1,
    "memory": 2,
    "mcp_gateway": 3,
    "knownbase": 3,
    "web": 3,
    "billing_web": 3,
    "api": 3,
}
MODEL_REFERENCE = re.compile(r"""["']((?:accounts|billing|memory|mcp_gateway)\.[A-Z]\w*)["']""")


def _imported_apps(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found & set(LAYERS)


def _migration_apps(tree: ast.AST, source: str) -> set[str]:
    """Apps a migration depends on: ("app", "0001_x") tuples and "app.Model" references."""
    found = {match.split(".")[0] for match in MODEL_REFERENCE.findall(source)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and len(node.elts) == 2:
            first = node.elts[0]
            if isinstance(first, ast.Constant) and first.value in LAYERS:
                found.add(str(first.value))
    return found


def layer_violations() -> list[str]:
    violations = []
    for app, rank in LAYERS.items():
        for path in sorted((ROOT / app).rglob("*.py")):
            source = path.read_text()
            tree = ast.parse(source)
            used = _imported_apps(tree) | {m.split(".")[0] for m in MODEL_REFERENCE.findall(source)}
            if "migrations" in path.parts:
                used |= _migration_apps(tree, source)
            for other in sorted(used):
                if LAYERS[other] > rank:  # entry points (the top layer) may use each other
                    violations.append(f"{path.relative_to(ROOT)} uses {other} (layer {app} may not)")
    return violations


def test_imports_point_down_the_layers() -> None:
    assert layer_violations() == []


@pytest.mark.parametrize(
    ("app", "line"),
    [
        ("accounts", "from memory import store"),
        ("billing", "    from memory.models import Note"),  # hidden inside a function: still found
        ("memory", "import mcp_gateway.tools"),
    ],
)
def test_an_upward_import_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, app: str, line: str
) -> None:
    for name in LAYERS:
        (tmp_path / name).mkdir()
    body = f"def f():\n{line}\n" if line.startswith(" ") else f"{line}\n"
    (tmp_path / app / "sneaky.py").write_text(body)
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert [v.split(" uses ")[0] for v in layer_violations()] == [f"{app}/sneaky.py"]


def test_a_migration_depending_upward_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in LAYERS:
        (tmp_path / name).mkdir()
    (tmp_path / "accounts" / "migrations").mkdir()
    (tmp_path / "accounts" / "migrations" / "0009_x.py").write_text(
        'dependencies = [("memory", "0001_initial")]\nfield = ("memory.Project",)\n'
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert layer_violations() == ["accounts/migrations/0009_x.py uses memory (layer accounts may not)"]
