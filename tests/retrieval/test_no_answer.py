"""The no-answer set (labelled/retrieval/no_answer.py): valid, one list per labelled set, and frozen."""

from __future__ import annotations

import hashlib
from pathlib import Path

from labelled.retrieval import no_answer
from labelled.retrieval.catalogue import LABELLED_SETS

# Frozen before the relevance floor was chosen with it (issue 22): a set edited after tuning measures
# nothing; write a new one instead of editing this one.
FROZEN_SHA256 = "b739355ae08d19654b5d0cf4c5b39c0e500b77ff1fd5b92d513fb194bdd50cdd"


def test_the_set_is_frozen() -> None:
    digest = hashlib.sha256(Path(no_answer.__file__).read_bytes()).hexdigest()
    assert digest == FROZEN_SHA256, "labelled/retrieval/no_answer.py changed after it was frozen"


def test_every_labelled_set_has_its_no_answer_queries() -> None:
    no_answer.validate()
    assert set(no_answer.NO_ANSWER) == set(LABELLED_SETS)


def test_no_no_answer_query_is_an_answerable_query_of_its_set() -> None:
    for name, labelled in LABELLED_SETS.items():
        answerable = {q["query"].lower() for q in labelled.queries}
        assert not answerable & {q["query"].lower() for q in no_answer.NO_ANSWER[name]}, name
