"""Wall time of the screening gate per megabyte: realistic text, and adversarial text per family.

Usage: .venv/bin/python tools/bench/bench_screening.py [--megabytes 1]
Needs no database. The suite asserts the gate's work in counted operations
(tests/memory/screening/test_linear.py); this prints what those operations cost in seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "knownbase.settings")

import django

django.setup()

from labelled.screening.adversarial import ADVERSARIAL, REPORTED
from labelled.screening.scoring import SPLITS, load
from memory.screening.gate import Meter, screen


def fill(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]


def run(label: str, text: str) -> None:
    meter = Meter()
    started = time.process_time()
    screen({"content": text}, meter=meter)
    seconds = time.process_time() - started
    megabytes = len(text) / (1 << 20)
    print(
        f"| {label} | {seconds / megabytes:.2f} | {meter.candidates / megabytes:,.0f} | {meter.work / len(text):.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=float, default=1.0)
    length = int(parser.parse_args().megabytes * (1 << 20))
    print("| text | CPU s per MB | candidates per MB | operations per character |")
    print("| --- | --- | --- | --- |")
    corpus = "\n\n".join(s.text for split in SPLITS for s in load(split) if s.label is None)
    run("corpus snippets without secrets, repeated", fill(corpus, length))
    run("README.md, repeated", fill((Path(__file__).parents[2] / "README.md").read_text(), length))
    for family, unit in ADVERSARIAL.items():
        run(f"adversarial `{family}`: `{unit.strip()[:24]}`…", fill(unit, length))
    for unit in REPORTED:
        run(f"reported `{unit.strip()}` × n", fill(unit, length))


if __name__ == "__main__":
    main()
