"""A note's type from its wording, for files that say what they mean but not which type it is.

The cues are declared here, checked in order, first match wins: a rule ("never", "must") is a
constraint even when it also names a tool; a stated choice ("we use", "we decided") is a decision;
advice ("prefer", "should") is a preference; a command to run is a procedure. Anything else is a fact.
"""

from __future__ import annotations

import re

from memory.models import NoteType


def _cue(*phrases: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(phrases) + r")(?![\w-])", re.IGNORECASE)


FAILED = _cue(
    r"(?:did not|didn't|does not|doesn't) work", r"we tried", r"tried .{1,60} but", r"gave up on",
    r"abandoned", r"caused (?:a |an )?(?:outage|incident|regression)s?", r"turned out to be (?:too )?slow",
)  # fmt: skip
CONSTRAINT = _cue(
    r"must(?:n't| not)?", r"never", r"always", r"do not", r"don't", r"does not", r"cannot", r"can't",
    r"may not", r"required", r"requires?", r"forbidden", r"not allowed", r"only ever", r"no more than",
    r"at most", r"at least", r"mandatory", r"is prohibited", r"shall(?: not)?", r"needs? to",
)  # fmt: skip
DECISION = _cue(
    r"we (?:use|used|decided|chose|choose|picked|selected|adopted|switched|moved|migrated|went with|"
    r"standardi[sz]ed on|settled on|rely on|deploy|build|ship|run|store|keep|host)",
    r"decided", r"decision", r"our (?:stack|choice) is", r"is our", r"are our", r"in favou?r of",
    r"instead of", r"replaced",
)  # fmt: skip
PREFERENCE = _cue(
    r"prefer(?:s|red)?", r"should(?:n't| not)?", r"avoid", r"try to", r"favou?r", r"rather than",
    r"ideally", r"where possible", r"when possible", r"recommended", r"consider", r"keep .{1,40} small",
    r"use .{1,60} over",
)  # fmt: skip
PROCEDURE = re.compile(
    r"^(?:run|install|build|test|deploy|start|stop|restart|create|add|open|call|execute|invoke|set|"
    r"export|copy|clone|check out|checkout|generate|update|upgrade|migrate|lint|format|commit|push|"
    r"release|publish|rebuild|regenerate|to (?:run|build|test|deploy|release|install))\b",
    re.IGNORECASE,
)
COMMAND = re.compile(r"`[^`\n]*(?:make|npm|pnpm|yarn|pip|uv|pytest|cargo|go|docker|git|\./)[^`\n]*`")
# A sentence that starts with a verb telling the reader what to do: in a rules file, a rule.
IMPERATIVE = re.compile(
    r"^(?:use|keep|write|add|put|name|follow|make sure|ensure|place|prefix|return|handle|log|wrap|"
    r"document|include|pin|mark|treat|validate|check|store|send|read|raise|throw|catch|limit|split|"
    r"group|sort|declare|type|annotate|comment|format|test|mock|stub|import|export|define|update|"
    r"remove|delete|respect|match|reuse|leave|let|give|ask|tell|report|list|show|wait)\b",
    re.IGNORECASE,
)
STATUS = _cue(r"in progress", r"currently", r"is blocked", r"work in progress", r"wip", r"todo", r"not yet")

# Words other tools use for a note's kind, mapped onto ours (lower-cased; `-`, `_` and spaces alike).
KIND_NAMES: dict[str, str] = {
    **{value: value for value in NoteType.values},
    "rule": NoteType.CONSTRAINT, "rules": NoteType.CONSTRAINT, "requirement": NoteType.CONSTRAINT,
    "convention": NoteType.CONSTRAINT, "policy": NoteType.CONSTRAINT, "guideline": NoteType.PREFERENCE,
    "style": NoteType.PREFERENCE, "preferences": NoteType.PREFERENCE, "habit": NoteType.PREFERENCE,
    "decisions": NoteType.DECISION, "choice": NoteType.DECISION, "adr": NoteType.DECISION,
    "howto": NoteType.PROCEDURE, "how to": NoteType.PROCEDURE, "workflow": NoteType.PROCEDURE,
    "process": NoteType.PROCEDURE, "technique": NoteType.PROCEDURE, "recipe": NoteType.PROCEDURE,
    "steps": NoteType.PROCEDURE, "design": NoteType.ARCHITECTURE, "tech": NoteType.ARCHITECTURE,
    "structure": NoteType.ARCHITECTURE, "bug": NoteType.INCIDENT, "issue": NoteType.INCIDENT,
    "error": NoteType.INCIDENT, "lesson": NoteType.FAILED_APPROACH, "pitfall": NoteType.FAILED_APPROACH,
    "mistake": NoteType.FAILED_APPROACH, "todo": NoteType.TASK, "action": NoteType.TASK,
    "observation": NoteType.FACT, "feature": NoteType.FACT, "info": NoteType.FACT,
    "context": NoteType.FACT, "link": NoteType.REFERENCE, "resource": NoteType.REFERENCE,
    "documentation": NoteType.REFERENCE, "docs": NoteType.REFERENCE, "session": NoteType.HANDOFF,
    "summary": NoteType.STATUS, "progress": NoteType.STATUS,
}  # fmt: skip


def kind(name: object) -> str | None:
    """Our type for another tool's name of a note's kind ("rule", "howto", "decision"), if it has one."""
    if not isinstance(name, str):
        return None
    return KIND_NAMES.get(" ".join(name.replace("-", " ").replace("_", " ").lower().split()))


def imperative(text: str) -> bool:
    return IMPERATIVE.match(text.strip()) is not None


def classify(text: str, *, default: str = NoteType.FACT) -> str:
    """The type a statement's wording says it is; `default` when it says none."""
    stripped = text.strip()
    if FAILED.search(stripped):
        return NoteType.FAILED_APPROACH
    if CONSTRAINT.search(stripped):
        return NoteType.CONSTRAINT
    if DECISION.search(stripped):
        return NoteType.DECISION
    if PREFERENCE.search(stripped):
        return NoteType.PREFERENCE
    if PROCEDURE.match(stripped) or COMMAND.search(stripped):
        return NoteType.PROCEDURE
    if STATUS.search(stripped):
        return NoteType.STATUS
    return default
