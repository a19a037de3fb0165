"""The shape every labelled retrieval set shares: notes with keys, queries with the keys that answer them.

`kind` is a plain string because each set has its own kinds (Harbor: paraphrase / entity / superseded;
the transcripts: paraphrase / entity / decision / changed / preference / temporal); each set's
validate() checks its own. `outranked` lists notes that must rank below every relevant one.
"""

from typing import TypedDict


class LabelledNote(TypedDict):
    key: str
    type: str
    status: str
    title: str
    body: str
    tags: list[str]
    supersedes: list[str]


class LabelledQuery(TypedDict):
    query: str
    kind: str
    relevant: list[str]
    outranked: list[str]
