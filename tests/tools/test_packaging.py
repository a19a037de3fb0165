"""The built package carries what the shipped commands import: seed_bench runs from an installed wheel,
away from the source tree, and the labelled sets' data files travel with their modules."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    leftover = not (ROOT / "build").exists()  # setuptools builds in the source tree's build/
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if leftover:
        shutil.rmtree(ROOT / "build", ignore_errors=True)
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("knownbase-*.whl")
    return path


def test_the_wheel_holds_the_benchmarks_and_the_labelled_sets(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "tools/bench/corpus.py" in names
    assert "labelled/retrieval/transcripts.py" in names
    assert "labelled/screening/corpus/heldout.jsonl" in names
    assert not any(name.startswith("tests/") for name in names)


def test_seed_bench_runs_from_the_installed_package(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(
        PYTHONPATH=str(site), DJANGO_SETTINGS_MODULE="knownbase.settings", KNOWNBASE_DATA_DIR=str(tmp_path)
    )
    # -I would drop the venv's site-packages too; -P (3.11) keeps the working folder off sys.path.
    result = subprocess.run(
        [sys.executable, "-P", "-m", "django", "seed_bench", "--help"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "--notes" in result.stdout
