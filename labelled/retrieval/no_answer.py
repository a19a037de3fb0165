"""Queries with no answer in each labelled retrieval set: what search should answer with nothing.

Written and frozen (tests/retrieval/test_no_answer.py pins this file's SHA-256) before the relevance
floor (memory/recall/semantic.py) was chosen with it. Three kinds per set:

- nonsense: strings no note contains, the way a person mistypes or probes ("zzzznotfound");
- off_topic: plain questions about things no set is about (cooking, sport, gardening);
- near_topic: questions in the set's own domain and vocabulary whose answer is in no note of it.
  These are the hard ones: their words match, so keyword hits are expected and kept; only the
  semantic leg's nearest neighbours are what the floor should drop.

Nothing runs at import time except building the lists; call validate() to check the invariants.
"""

from typing import TypedDict


class NoAnswerQuery(TypedDict):
    query: str
    kind: str


KINDS = ("nonsense", "off_topic", "near_topic")

_NONSENSE = [
    "zzzznotfound",
    "qwxrtplk vbnmz",
    "asdfghjkl",
    "xyzzy plugh frobozz",
    "lorem ipsum dolor sit amet",
    "jjjjjjjjjjjj",
    "blorptang wuzzle fribble",
    "kq7v-93xz-pp0w",
]

_OFF_TOPIC = [
    "what is a good recipe for sourdough bread",
    "who won the football world cup in 1998",
    "how often should I water tomato plants in summer",
    "best hiking trails in the Scottish highlands",
    "how do I knit a scarf for a beginner",
    "what wine goes with grilled salmon",
    "how tall is the eiffel tower",
    "tips for training a puppy to sit",
]

_NEAR_TOPIC: dict[str, list[str]] = {
    # Harbor: container shipping; none of its notes covers these.
    "harbor": [
        "how do we declare dangerous goods under the IMDG code",
        "what is the process for handling a container lost overboard",
        "which insurance provider covers cargo claims",
        "how are demurrage and detention charges invoiced to customers",
        "what is the dress code for terminal site visits",
        "how do we onboard a new rail freight operator",
        "what is the policy on carbon offsetting for voyages",
        "who negotiates the annual contract with the Panama canal authority",
    ],
    # The transcripts: a game's matchmaking, netcode and saves; a linter; a data pipeline; a
    # finance app. None of their sessions covers these.
    "transcripts": [
        "how is the in-game voice chat encrypted",
        "what anti-cheat kernel driver do we ship",
        "how does the linter handle Fortran source files",
        "what is the retention policy for warehouse tables in the EU data centre in Frankfurt",
        "how does the finance app calculate mortgage interest",
        "which font does the mobile app use for headings",
        "what music plays in the game's main menu",
        "what is the on-call rotation for the ingest pipeline team",
    ],
    # The agent notes: a running app, a thermostat's firmware, a vet clinic system, a retail price
    # scraper, a static site generator. None of their notes covers these.
    "agent_notes": [
        "how does the running app coach voice choose its language",
        "how does the thermostat detect carbon monoxide",
        "does the clinic system support horse and livestock farm visits",
        "how do we scrape prices from supermarkets in Germany",
        "does the static site generator support right-to-left languages",
        "how is the firmware certified for the UL safety listing",
        "what does the vet app charge for a house call",
        "which retailer pays us for the price comparison data",
    ],
}


def _queries(name: str) -> list[NoAnswerQuery]:
    return [
        *(NoAnswerQuery(query=q, kind="nonsense") for q in _NONSENSE),
        *(NoAnswerQuery(query=q, kind="off_topic") for q in _OFF_TOPIC),
        *(NoAnswerQuery(query=q, kind="near_topic") for q in _NEAR_TOPIC[name]),
    ]


# Set name (labelled/retrieval/catalogue.py) → its no-answer queries.
NO_ANSWER: dict[str, list[NoAnswerQuery]] = {name: _queries(name) for name in _NEAR_TOPIC}


def validate() -> None:
    for name, queries in NO_ANSWER.items():
        texts = [q["query"] for q in queries]
        assert len(texts) == len(set(texts)), f"duplicate queries in {name}"
        assert {q["kind"] for q in queries} == set(KINDS), name
        for kind in KINDS:
            assert sum(q["kind"] == kind for q in queries) >= 8, (name, kind)
