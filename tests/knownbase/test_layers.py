"""The layers, checked on the source itself, imports inside functions and migrations (their
dependencies and model references) included:

- entry points (mcp_gateway, api, web) import from the project only their own package,
  the store's public names (`memory.store`), `memory.inputs` and `edge`; never each other, never
  accounts, billing or the rest of memory;
- `edge` imports the domain and nothing above it;
- the domain goes one way: memory → billing → accounts;
- knownbase (settings, URLs, ASGI, operational commands) may import anything.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINTS = ("mcp_gateway", "api", "web")
EDGE = "edge"
# Lower domain layers may be imported by higher ones, never the other way round.
DOMAIN = {"accounts": 0, "billing": 1, "memory": 2}
CONFIGURATION = "knownbase"
PROJECT = {*ENTRY_POINTS, EDGE, *DOMAIN, CONFIGURATION}
# What an entry point may import from the domain: the store's public names and the declared inputs.
STORE = "memory.store"
OPEN_TO_ENTRY_POINTS = ("memory.inputs", EDGE)


MODEL_REFERENCE = re.compile(r"""["']((?:accounts|billing|memory|mcp_gateway)\.[A-Z]\w*)["']""")


def _store_public_names() -> set[str]:
    """`__all__` of memory/store/__init__.py, read from the source."""
    path = ROOT / "memory" / "store" / "__init__.py"
    if not path.exists():
        return set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            return {
                str(item.value) for item in getattr(node.value, "elts", []) if isinstance(item, ast.Constant)
            }
    return set()


def _imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    """(module, names imported from it) of every absolute import, wherever it is in the file.
    `import a.b` is ("a.b", []); `from a import b, c` is ("a", ["b", "c"])."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _entry_point_refusal(module: str, names: list[str], own: str, public: set[str]) -> str | None:
    """Why an entry point may not make this import, or None when it may."""
    top = module.split(".")[0]
    if top not in PROJECT or top == own or any(_within(module, open_) for open_ in OPEN_TO_ENTRY_POINTS):
        return None
    if module == "memory":  # `from memory import store` / `from memory import inputs`
        if not names:
            return "memory (the whole package)"  # `import memory`: every module through it
        outside = [name for name in names if name not in ("store", "inputs")]
        return f"memory.{outside[0]}" if outside else None
    if module == STORE:
        hidden = [name for name in names if name not in public]
        return f"{STORE}.{hidden[0]} (not a public name of the store)" if hidden else None
    return module


def _used_apps(tree: ast.AST, source: str, path: Path) -> set[str]:
    used = {module.split(".")[0] for module, _ in _imports(tree)}
    used |= {match.split(".")[0] for match in MODEL_REFERENCE.findall(source)}
    if "migrations" in path.parts:
        for node in ast.walk(tree):  # ("app", "0001_x") dependency tuples
            if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                first = node.elts[0]
                if isinstance(first, ast.Constant) and first.value in PROJECT:
                    used.add(str(first.value))
    return used & PROJECT


def layer_violations() -> list[str]:
    violations = []
    public = _store_public_names()
    for package in (*ENTRY_POINTS, EDGE, *DOMAIN):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            source = path.read_text()
            tree = ast.parse(source)
            if package in ENTRY_POINTS:
                for module, names in _imports(tree):
                    refusal = _entry_point_refusal(module, names, package, public)
                    if refusal:
                        violations.append(f"{relative} uses {refusal} (an entry point may not)")
                continue
            for other in sorted(_used_apps(tree, source, path) - {package}):
                if package == EDGE:
                    allowed = other in DOMAIN
                else:
                    allowed = other in DOMAIN and DOMAIN[other] < DOMAIN[package]
                if not allowed:
                    violations.append(f"{relative} uses {other} (layer {package} may not)")
    return violations


def test_imports_follow_the_layers() -> None:
    assert layer_violations() == []


def _plant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str, line: str) -> None:
    for name in PROJECT:
        (tmp_path / name).mkdir()
    (tmp_path / "memory" / "store").mkdir()
    (tmp_path / "memory" / "store" / "__init__.py").write_text('__all__ = ["remember", "Principal"]\n')
    body = f"def f():\n{line}\n" if line.startswith(" ") else f"{line}\n"
    (tmp_path / package / "sneaky.py").write_text(body)
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)


@pytest.mark.parametrize(
    ("package", "line"),
    [
        ("accounts", "from memory import store"),
        ("billing", "    from memory.models import Note"),  # hidden inside a function: still found
        ("memory", "import mcp_gateway.tools"),
        ("memory", "from edge import rate"),
        ("accounts", "from knownbase import settings"),
        ("edge", "from web.session import team_page"),
        ("edge", "    import mcp_gateway.auth"),
        ("api", "from web.throttle import client_address"),  # an entry point importing another
        ("web", "    from mcp_gateway.ratelimit import IpRateLimit"),
        ("mcp_gateway", "from api import errors"),
        ("web", "from memory.models import Project"),  # the ORM behind the store's back
        ("web", "from memory import models"),
        ("api", "from accounts.principal import Principal"),
        ("mcp_gateway", "    from billing.models import Plan"),
        ("web", "from memory.store.notes import create_note"),  # a store module, not its public names
        ("web", "from memory.store import note_dict"),  # not in the store's __all__
        ("api", "import memory.registry"),
        ("web", "from knownbase.oauth import views"),
        ("web", "import memory"),
    ],
)
def test_a_forbidden_import_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str, line: str
) -> None:
    _plant(tmp_path, monkeypatch, package, line)
    assert [v.split(" uses ")[0] for v in layer_violations()] == [f"{package}/sneaky.py"]


@pytest.mark.parametrize(
    ("package", "line"),
    [
        ("web", "from memory import store"),
        ("web", "from memory.store import Principal, remember"),
        ("api", "import memory.store"),
        ("api", "from memory import inputs"),
        ("mcp_gateway", "from memory.inputs import MAX_TITLE"),
        ("web", "from edge.errors import http_status"),
        ("web", "    from web.session import team_page"),
        ("edge", "from accounts.principal import Principal"),
        ("edge", "from memory.models import Note"),
        ("memory", "from billing.models import Plan"),
        ("knownbase", "from mcp_gateway.ratelimit import IpRateLimit"),
    ],
)
def test_an_allowed_import_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str, line: str
) -> None:
    _plant(tmp_path, monkeypatch, package, line)
    assert layer_violations() == []


def test_a_migration_depending_upward_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROJECT:
        (tmp_path / name).mkdir()
    (tmp_path / "accounts" / "migrations").mkdir()
    (tmp_path / "accounts" / "migrations" / "0009_x.py").write_text(
        'dependencies = [("memory", "0001_initial")]\nfield = ("memory.Project",)\n'
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert layer_violations() == ["accounts/migrations/0009_x.py uses memory (layer accounts may not)"]
