"""A statement read clause by clause, for remember's judgement (memory/judgement.py).

A note is split on sentence and clause boundaries. Each clause records what it asserts (its content
stems, in order), what it rules out ("X rather than Y", "instead of Y", "…, not Y", "no longer Y",
"Y was replaced by X", "moved from Y to X", "prefer X over Y"), whether it is negated, its rough subject
(the words before the first verb) and head verb, the words after that verb, its numbers and its
quantifiers. It is a shallow reading, not a parse: the judgement only acts on it when two clauses
agree on nearly everything else.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from functools import cached_property

from memory.capture import lexicon
from memory.recall.similarity import normalise, stem

# A long note is judged on its beginning: remember compares up to 15 candidates within its time budget,
# and a clause-by-clause comparison grows with the product of the two clause counts.
MAX_JUDGED_CHARS = 4000
MAX_CLAUSES = 24
_SENTENCE = re.compile(r"(?<=[.!?])\s+|[;\n]")
_CLAUSE = re.compile(r":\s|\s[—–-]+\s|,\s")
_TOKEN = re.compile(r"[a-z0-9][a-z0-9_+#.\-]*[a-z0-9+#]|[a-z0-9]")
_TOKEN_OR_COMMA = re.compile(r",|" + _TOKEN.pattern)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# A fragment that only rules something out belongs to the clause before it ("…cron scripts, not
# Sidekiq"), or to the one after it when it comes first ("Instead of Celery, jobs run on Dramatiq").
_CONTRAST_START = re.compile(r"(?:but\s+)?(?:not|rather\s+than|instead\s+of)\b")
_LEADING_CONTRAST = re.compile(r"(?:rather\s+than|instead\s+of)\b")
_MOVE_VERBS = frozenset(
    stem(w) for w in ["switch", "move", "migrate", "change", "upgrade", "downgrade", "convert", "port"]
)
_PREFER_VERBS = frozenset(stem(w) for w in ["prefer", "favour", "favor", "choose", "chose", "pick"])
_REPLACE_VERBS = frozenset(stem(w) for w in ["replace", "supersede", "deprecate"])


@dataclass(frozen=True)
class Clause:
    content: tuple[str, ...]  # stems of the content words it asserts, in order
    rejected: frozenset[str]  # stems of what it rules out (the head of that phrase)
    negated: bool
    subject: frozenset[str]  # content stems before the verb (empty for "we …" and imperatives)
    verb: str | None  # head verb stem; "be" when a copula introduces a noun phrase
    predicate: tuple[str, ...]  # every word after the head verb, articles dropped (not stemmed)
    exclusive: bool  # "only …"
    universal: bool  # "any …", "every …", "all …"
    additive: bool  # "also", "too", "as well"
    tokens: tuple[str, ...]  # every stem in order, for opposites that are function words (on / off)

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(self.content)

    @cached_property
    def claims(self) -> frozenset[str]:
        """What the clause says, both ways: its words and, marked, what it rules out."""
        return self.words | {f"-{word}" for word in self.rejected}

    @cached_property
    def numbers(self) -> tuple[str, ...]:
        return tuple(sorted(word for word in self.content if _NUMBER.fullmatch(word)))

    @cached_property
    def subject_terms(self) -> frozenset[str]:
        return frozenset(word for word in self.subject if not _NUMBER.fullmatch(word))

    @cached_property
    def terms(self) -> frozenset[str]:
        """Content words other than numbers."""
        return frozenset(word for word in self.content if not _NUMBER.fullmatch(word))


def _fragments(text: str) -> list[tuple[str, bool]]:
    """(fragment, whether it continues a sentence begun by an earlier fragment)."""
    merged: list[tuple[str, bool]] = []
    for sentence in _SENTENCE.split(normalise(text[:MAX_JUDGED_CHARS])):
        pieces = [piece.strip(" .!?,\"'`()[]") for piece in _CLAUSE.split(sentence)]
        start = len(merged)
        for piece in pieces:
            if not piece:
                continue
            if len(merged) > start and _CONTRAST_START.match(piece):
                merged[-1] = (f"{merged[-1][0]} , {piece}", merged[-1][1])
            else:
                merged.append((piece, len(merged) > start))
        if len(merged) > start + 1 and _LEADING_CONTRAST.match(merged[start][0]):
            merged[start : start + 2] = [(f"{merged[start + 1][0]} , {merged[start][0]}", False)]
    return merged[:MAX_CLAUSES]


def _content(tokens: list[str]) -> list[str]:
    return [stem(t) for t in tokens if t not in lexicon.STOPWORDS]


def _head(tokens: list[str]) -> tuple[set[str], list[str]]:
    """Split the phrase a clause rules out from what follows it: "bigint sequences for new tables"
    gives ({bigint, sequence}, [for, new, tables]); the rest still belongs to the clause."""
    head: set[str] = set()
    for index, token in enumerate(tokens):
        if token in lexicon.STOPWORDS:
            if head:
                return head, tokens[index:]
            continue
        head.add(stem(token))
    return head, []


def _rejection(tokens: list[str]) -> tuple[list[str], set[str]]:
    """Split off what the clause rules out: (tokens it affirms, stems it rejects)."""
    stems = [stem(t) for t in tokens]
    for index in range(len(tokens) - 1):
        pair = (tokens[index], tokens[index + 1])
        if pair == ("no", "longer"):
            # "no longer X" denies X (a negated clause) and retires it.
            return [*tokens[:index], "not", *tokens[index + 2 :]], set(_content(tokens[index + 2 :]))
        if pair in {("rather", "than"), ("instead", "of")}:
            head, rest = _head(tokens[index + 2 :])
            return tokens[:index] + rest, head
        if tokens[index] == "without":  # "forwards the batch without validating checksums"
            head, rest = _head(tokens[index + 1 :])
            return tokens[:index] + rest, head
        if tokens[index] == "," and tokens[index + 1] in {"not", "but"}:
            start = index + (3 if tokens[index + 1] == "but" else 2)
            head, rest = _head(tokens[start:])
            return tokens[:index] + rest, head
    for index, word in enumerate(stems):
        if word in _REPLACE_VERBS and index > 0:
            following = tokens[index + 1 : index + 2]
            if following in (["by"], ["with"], ["in"]):  # "X was replaced by Y", "deprecated in favour of Y"
                return tokens[index:], set(_content(tokens[:index]))
            if following and following[0] in lexicon.STOPWORDS and following[0] not in lexicon.ARTICLES:
                continue  # "tokens are replaced on every login": nothing named is retired
            head, rest = _head(tokens[index + 1 :])
            return tokens[: index + 1] + rest, head
        if word == "over" and _PREFER_VERBS & set(stems[:index]):
            head, rest = _head(tokens[index + 1 :])
            return tokens[:index] + rest, head
        if word == "from" and _MOVE_VERBS & set(stems[:index]) and "to" in tokens[index + 1 :]:
            end = tokens.index("to", index + 1)
            return tokens[:index] + tokens[end + 1 :], set(_content(tokens[index + 1 : end]))
    return tokens, set()


def _imperative(tokens: list[str]) -> bool:
    """ "Use X…", "Run make…": a base-form verb first and no auxiliary just after it."""
    return not tokens[0].endswith(("s", "ed", "ing")) and not lexicon.AUXILIARIES & set(tokens[1:4])


def _verb_index(tokens: list[str]) -> int | None:
    for index, token in enumerate(tokens):
        if token in lexicon.AUXILIARIES or token in lexicon.NEGATORS:
            return index
        if token.endswith("ing"):
            continue  # "the signing key", "caching layer": a gerund or an adjective, not the verb
        if stem(token) in lexicon.VERBS and (index > 0 or _imperative(tokens)):
            following = tokens[index + 1] if index + 1 < len(tokens) else ""
            # "deploys happen", "health checks hit", "logs are shipped": a noun before the real verb.
            if following in lexicon.AUXILIARIES or (
                stem(following) in lexicon.VERBS and following not in lexicon.STOPWORDS
            ):
                continue
            return index
    return None


def _subject_and_predicate(
    tokens: list[str], verb: int | None
) -> tuple[frozenset[str], str | None, tuple[str, ...]]:
    if verb is None:
        return frozenset(), None, tuple(t for t in tokens if t not in lexicon.ARTICLES)
    subject = frozenset(_content(tokens[:verb]))
    head = verb
    while head < len(tokens) and (
        tokens[head] in lexicon.AUXILIARIES
        or tokens[head] in lexicon.NEGATORS
        or (tokens[head].endswith("ly") and len(tokens[head]) > 4)
    ):
        head += 1
    if head == verb:
        verb_stem, rest = stem(tokens[verb]), tokens[verb + 1 :]
    elif head < len(tokens) and (
        stem(tokens[head]) in lexicon.VERBS
        or stem(tokens[head]) in lexicon.PARTICIPLES
        or tokens[head].endswith("ed")
    ):
        verb_stem, rest = stem(tokens[head]), tokens[head + 1 :]
    elif lexicon.COPULAS & set(tokens[verb:head]):
        verb_stem, rest = "be", tokens[head:]
    else:
        verb_stem, rest = stem(tokens[verb]), tokens[head:]
    return subject, verb_stem, tuple(t for t in rest if t not in lexicon.ARTICLES)


def parse_clause(fragment: str) -> Clause | None:
    tokens = [lexicon.NUMBER_WORDS.get(t, t) for t in _TOKEN_OR_COMMA.findall(fragment)]
    affirmed, rejected = _rejection(tokens)
    affirmed = [t for t in affirmed if t != ","]
    content = _content(affirmed)
    if not content and not rejected:
        return None
    verb_at = _verb_index(affirmed)
    subject, verb, predicate = _subject_and_predicate(affirmed, verb_at)
    # "every" quantifies a subject ("every engineer may…"); after the verb it is usually a schedule.
    before_verb = affirmed[:verb_at] if verb_at is not None else affirmed
    pairs = set(itertools.pairwise(affirmed))
    return Clause(
        content=tuple(content),
        rejected=frozenset(rejected),
        negated=any(t in lexicon.NEGATORS for t in affirmed),
        subject=subject,
        verb=verb,
        predicate=predicate,
        exclusive=any(t in lexicon.EXCLUSIVE for t in affirmed),
        universal=any(t in lexicon.UNIVERSAL - {"every"} for t in affirmed) or "every" in before_verb,
        additive=any(t in {"also", "too", "additionally"} for t in affirmed)
        or bool(pairs & {("as", "well"), ("in", "addition")}),
        tokens=tuple(stem(t) for t in affirmed),
    )


_PRONOUNS = frozenset({"it", "they", "this", "these", "that", "those", "he", "she"})


def _continues_subject(fragment: str) -> bool:
    """ "…, stored as WebP, and served through CloudFront": a clause that starts with its verb."""
    first = next((word for word in fragment.split() if word not in {"and", "then", "but", "or", "so"}), "")
    return stem(first) in lexicon.VERBS or stem(first) in lexicon.PARTICIPLES or first.endswith("ed")


def clauses(text: str) -> list[Clause]:
    parsed: list[Clause] = []
    for fragment, continues in _fragments(text):
        clause = parse_clause(fragment)
        if clause is None:
            continue
        # "It publishes…" after "The checkout service writes…", or "…, stored as WebP" after "Images
        # are resized…": the clause is about the subject of the one before it.
        if parsed and not clause.subject:
            pronoun = fragment.split(" ", 1)[0] in _PRONOUNS
            if pronoun or (continues and _continues_subject(fragment)):
                clause = replace(clause, subject=parsed[-1].subject)
        parsed.append(clause)
    return parsed


_CASED_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#.\-]*[A-Za-z0-9+#]|[A-Za-z0-9]")
_SENTENCE_END = re.compile(r"[.!?:;\n]\s*$")


def names(text: str) -> frozenset[str]:
    """Stems of the words that name something: numbers, codes and versions ("eu-west-1", "v2",
    "tenant_id") and capitalised words inside a sentence ("Redis", "OpenSearch")."""
    found: set[str] = set()
    for match in _CASED_TOKEN.finditer(text):
        token = match.group()
        sentence_start = match.start() == 0 or bool(
            _SENTENCE_END.search(text[max(0, match.start() - 3) : match.start()])
        )
        coded = any(not c.isalpha() for c in token)
        cased = any(c.isupper() for c in token[1:]) or (token[0].isupper() and not sentence_start)
        if coded or cased:
            found.add(stem(token.lower()))
    return frozenset(found)
