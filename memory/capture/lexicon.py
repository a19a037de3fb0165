"""Closed word lists remember's judgement reads English statements with (memory/clauses.py).

Every list is of surface forms; stems are derived once with memory.recall.similarity.stem, so a list never has
to spell every inflection ("enabled", "enables" and "enabling" all meet "enable").
"""

from __future__ import annotations

from memory.recall.similarity import stem

NEGATORS = frozenset({"not", "no", "never", "none", "nobody", "nothing", "neither", "nor"})
# "only the platform team may…" against "any engineer may…": an exclusive claim reversed.
EXCLUSIVE = frozenset({"only", "exclusively", "solely"})
UNIVERSAL = frozenset({"any", "anyone", "anybody", "every", "everyone", "everybody", "all"})
QUANTIFIERS = EXCLUSIVE | UNIVERSAL | frozenset({"some", "each", "most", "few", "both", "either", "someone"})
# A new text that says it adds ("… for rate limiting as well") does not replace the slot's value.
ADDITIVE = frozenset({"also", "too", "additionally", "well"})

AUXILIARIES = frozenset(
    {
        *("is", "are", "was", "were", "be", "been", "being", "am", "get", "gets", "got", "stays"),
        *("has", "have", "had", "do", "does", "did"),
        *("can", "could", "may", "might", "must", "shall", "should", "will", "would"),
    }
)
COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "being", "am"})

_FUNCTION_WORDS = """
a an the of to in on at for by with from into onto over under about as via per than then so and or but
if when whenever while whereas because since until unless though although after before during within
without across between behind through throughout against toward towards upon off out up down around
we our ours us you your yours they their theirs them it its i me my he she his her this that these
those there here which who whom whose what where how why
now just still already currently again ever even yet instead rather longer more less very much many
other others same own such etc e.g i.e one's anymore today there's it's that's
"""
STOPWORDS = frozenset(_FUNCTION_WORDS.split()) | AUXILIARIES | NEGATORS | QUANTIFIERS | ADDITIVE

# Prepositions after which a clause names the one value of a slot: "written in Go", "happen on
# Tuesdays", "shipped to Datadog", "hashed with bcrypt", "isolated by a column". "for" is left out on
# purpose: "used for caching" and "used for rate limiting" are two uses, not two answers.
SLOT_PREPOSITIONS = frozenset({"in", "on", "to", "with", "by", "at", "as", "via", "through", "using", "from"})
ARTICLES = frozenset({"a", "an", "the", "our", "their", "its", "this", "that"})

NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "fifteen": "15",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "sixty": "60",
    "ninety": "90",
    "hundred": "100",
    "thousand": "1000",
}

# Verbs common in notes about software and teams. Used only to find where a clause's subject ends.
_VERBS = """
use run happen store send call retry expire rotate deploy live handle go take read write return accept
reject require allow support own build cache sign hash encrypt decrypt emit publish consume process
trigger fail wait hold keep point talk depend rely mean need set fire flush poll ship serve render load
sync validate verify check evaluate generate create delete update refresh rebuild restore scale expose
forward proxy route mirror replicate stream index query fetch push pull merge tag release review approve
lint pin lock block limit cap throttle charge bill refund notify alert monitor track measure report
export import migrate move switch replace change upgrade downgrade install configure enable disable
provision manage mask tokenise tokenize resize compress retain archive purge announce reserve reach
hit cost contain include exclude carry belong show display apply commit wake touch power isolate
implement choose prefer favour favor avoid sort sit come prove list mark stick reuse operate pay open
close save cover treat lead let make become remain stay start stop begin end work act try catch throw
raise print parse encode decode compile bundle sample scrape crawl schedule queue dispatch enqueue
subscribe listen receive respond answer authenticate authorize grant revoke issue seed trust wrap map
join split shard partition batch fall give get find lose sell buy think bring leave meet cause
add remove drop fan tie wire look feed fill copy
"""
VERBS = frozenset(stem(word) for word in _VERBS.split())

# Irregular participles: "written in Go" has the verb "write", whose passive marks a slot.
_PARTICIPLES = """
written built kept sent run held chosen gone made taken given shown known done begun broken frozen hidden
bound found paid sold told bought caught thought brought spent left lost meant met set put read split
"""
PARTICIPLES = frozenset(stem(word) for word in _PARTICIPLES.split())

# Pairs of opposite words. Prefixed opposites (un-, in-, im-, non-, dis-) are found by rule.
_ANTONYMS = """
synchronous asynchronous | sync async | synchronously asynchronously | enable disable | enabled disabled
allow forbid | allowed forbidden | allow prohibit | allowed prohibited | allowed banned | allow deny
required optional | mandatory optional | public private | stateless stateful | eager lazy | eagerly lazily
manual automatic | manually automatically | push pull | ascending descending | on off | before after
minimum maximum | min max | first last | internal external | inbound outbound | include exclude
accept reject | increase decrease | upper lower | open closed | writable read-only | blocking non-blocking
strict lenient | static dynamic | start stop | allowlist denylist | whitelist blacklist | hot cold
encrypted plaintext | shared dedicated | single multiple | soft hard | inside outside
horizontal vertical | online offline | sequential parallel
"""
ANTONYMS: frozenset[frozenset[str]] = frozenset(
    frozenset(stem(word) for word in pair.split())
    for pair in _ANTONYMS.replace("\n", "|").split("|")
    if len(pair.split()) == 2
)
NEGATING_PREFIXES = ("un", "in", "im", "non-", "non", "dis", "ir", "il")

# Labels a writer puts before a statement ("Note: …", "FYI - …"); they never change what it says, so
# remember's duplicate lock and check read the statement without them (memory/capture/remembering.py).
STATEMENT_LABELS = (
    "note",
    "nb",
    "n.b.",
    "fyi",
    "decision",
    "important",
    "reminder",
    "update",
    "info",
    "tip",
    "heads up",
    "heads-up",
)
