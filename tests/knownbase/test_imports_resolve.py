"""Every import of a project module names a module that exists. mypy is told to ignore missing imports
(several libraries ship no stubs), so without this a deleted module could stay imported unnoticed."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "accounts",
    "billing",
    "memory",
    "edge",
    "mcp_gateway",
    "api",
    "web",
    "knownbase",
    "tools",
    "labelled",
    "tests",
)


def _missing() -> list[str]:
    missing = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                elif isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                else:
                    continue
                for module in modules:
                    if module.split(".")[0] in PACKAGES and importlib.util.find_spec(module) is None:
                        missing.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {module}")
    return missing


def test_every_project_import_names_an_existing_module():
    assert _missing() == []
