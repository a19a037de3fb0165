"""Score the gate on the labelled corpus: precision and recall per family, refusals of non-secrets.

`python -m labelled.screening.scoring` prints the tables docs/safety.md quotes.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
SPLITS = ("dev", "heldout", "fresh", "fresh2")


@dataclass(frozen=True)
class Snippet:
    id: str
    kind: str
    label: str | None
    text: str


@dataclass
class Score:
    snippets: int = 0
    positives: int = 0
    negatives: int = 0
    refused_positives: int = 0
    refused_negatives: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    labelled: Counter[str] = field(default_factory=Counter)
    predicted: Counter[str] = field(default_factory=Counter)
    correct: Counter[str] = field(default_factory=Counter)

    def precision(self, family: str) -> float:
        return self.correct[family] / self.predicted[family] if self.predicted[family] else 1.0

    def recall(self, family: str) -> float:
        return self.correct[family] / self.labelled[family] if self.labelled[family] else 1.0

    @property
    def false_refusal_rate(self) -> float:
        return len(self.refused_negatives) / self.negatives if self.negatives else 0.0

    @property
    def refusal_recall(self) -> float:
        return self.refused_positives / self.positives if self.positives else 1.0


def load(split: str) -> list[Snippet]:
    lines = (CORPUS / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    return [Snippet(**json.loads(line)) for line in lines if line.strip()]


def score(snippets: list[Snippet]) -> Score:
    from memory.screening.gate import screen

    result = Score()
    for snippet in snippets:
        finding = screen({"content": snippet.text})
        found = finding.family if finding else None
        result.snippets += 1
        if found:
            result.predicted[found] += 1
        if snippet.label is None:
            result.negatives += 1
            if found:
                result.refused_negatives.append(f"{snippet.id} ({found})")
            continue
        result.positives += 1
        result.labelled[snippet.label] += 1
        if found:
            result.refused_positives += 1
        if found == snippet.label:
            result.correct[snippet.label] += 1
        else:
            result.missed.append(f"{snippet.id} ({snippet.label} → {found})")
    return result


def table(scores: dict[str, Score]) -> str:
    families = sorted(set().union(*(set(s.labelled) | set(s.predicted) for s in scores.values())))
    head = "| family | " + " | ".join(f"{n} n | {n} precision | {n} recall" for n in scores) + " |"
    rows = [head, "| --- |" + " --- | --- | --- |" * len(scores)]
    for family in families:
        cells = [
            f"{s.labelled[family]} | {s.precision(family):.3f} | {s.recall(family):.3f}"
            for s in scores.values()
        ]
        rows.append(f"| `{family}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main() -> None:
    import sys

    import django

    django.setup()
    # The held-out split is scored only when asked: it is not looked at while tuning the patterns.
    splits = SPLITS if "--heldout" in sys.argv else ("dev",)
    scores = {split: score(load(split)) for split in splits}
    print(table(scores))
    print()
    for split, s in scores.items():
        print(
            f"{split}: {s.snippets} snippets, {s.positives} with a secret, {s.negatives} without; "
            f"secrets refused {s.refused_positives}/{s.positives} ({s.refusal_recall:.3f}); "
            f"non-secrets refused {len(s.refused_negatives)}/{s.negatives} ({s.false_refusal_rate:.3%})"
        )
        if split == "dev":
            print("  refused non-secrets:", ", ".join(s.refused_negatives) or "none")
            print("  missed or mislabelled:", ", ".join(s.missed) or "none")


if __name__ == "__main__":
    main()
