"""Plant secrets through write paths, then search every text column of the database for them.

The search looks for a secret's letters and digits in order with any separators and any case between
them, in every text, JSON and array column of every table, after the same Unicode folding the gate
does. A write that stored the secret in another shape (a lower-cased tag, a slug, a derived title, a
body assembled from pieces) is found as surely as a verbatim copy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import anyio
from django.db import connection

from memory.screening.family import Family
from memory.screening.gate import TeamRules, screen
from memory.screening.normalize import normalized
from memory.screening.patterns import FAMILIES
from tests.live_mcp import McpCaller
from tests.memory.screening.samples import TRUE_POSITIVES, disguises
from tests.safety.write_paths import Context, McpPath, Step

VARIANTS = ("raw", "fullwidth", "zero_width")

# A team's own pattern, as an owner would write it: a customer number, with or without separators.
# It finds what only an assembled value holds (a checkpoint's handoff body joins its items).
CUSTOMER_ID = Family(
    "custom:customer_id", "the team's pattern 'customer_id'", re.compile(r"ACME\W*\d{6}", re.I)
)
CUSTOM_SAMPLES = {CUSTOMER_ID.name: ["ACME-552901"]}
TEAM_RULES = TeamRules(patterns=(CUSTOMER_ID,))


def samples() -> dict[str, list[str]]:
    return {**TRUE_POSITIVES, **CUSTOM_SAMPLES}


def family(name: str) -> Family:
    return next(f for f in (*FAMILIES, CUSTOMER_ID) if f.name == name)


def core(family_name: str, value: str) -> str:
    """The part of `value` its family recognises: the named group (a password) or the whole match."""
    plain = normalized(value)
    match = family(family_name).finds(plain)
    if match is None:
        return plain
    named = [v for v in match.groupdict().values() if v]
    return named[0] if named else match.group(0)


def search_pattern(secret: str) -> re.Pattern[str]:
    """The secret's letters and digits in order, anything but letters and digits between them. A
    number is not found inside a longer number: 123-45-6789 is not in the digits 0123456789."""
    characters = re.findall(r"[A-Za-z0-9]", normalized(secret))
    before = r"(?<![0-9])" if characters and characters[0].isdigit() else ""
    after = r"(?![0-9])" if characters and characters[-1].isdigit() else ""
    return re.compile(before + "[^A-Za-z0-9]*".join(characters) + after, re.IGNORECASE)


@dataclass(frozen=True)
class Planted:
    family: str
    variant: str
    value: str

    def pattern(self) -> re.Pattern[str]:
        return search_pattern(core(self.family, self.value))


def plants(variants: tuple[str, ...] = VARIANTS) -> list[Planted]:
    result = []
    for name, values in TRUE_POSITIVES.items():
        forms = {"raw": values[0], **disguises(values[0])}
        result += [Planted(name, variant, forms[variant]) for variant in variants]
    return result


def refused_by_gate(arguments: dict[str, Any]) -> bool:
    return screen(arguments, TEAM_RULES) is not None


def install_team_rules(team: Any) -> None:
    from memory.models import ScreeningRule

    ScreeningRule.objects.create(
        team=team, kind=ScreeningRule.Kind.PATTERN, name="customer_id", value=CUSTOMER_ID.pattern.pattern
    )


# --- the database search ---------------------------------------------------------------------------

_TEXT_TYPES = ("text", "character varying", "character", "json", "jsonb", "ARRAY")


def stored_texts() -> list[tuple[str, str]]:
    """(table.column, value) for every non-null text, JSON or array value in the database, folded."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type = ANY(%s)",
            [list(_TEXT_TYPES)],
        )
        columns = cursor.fetchall()
        found = []
        for table, column in columns:
            cursor.execute(f'SELECT "{column}"::text FROM "{table}" WHERE "{column}" IS NOT NULL')  # noqa: S608 - names from the catalogue
            found += [(f"{table}.{column}", normalized(row[0])) for row in cursor.fetchall()]
    return found


def leaks(planted: list[Planted]) -> list[str]:
    """Each planted secret found anywhere, with the column it is in."""
    texts = stored_texts()
    found = []
    for plant in planted:
        pattern = plant.pattern()
        where = next(((column, text) for column, text in texts if pattern.search(text)), None)
        if where is not None:
            found.append(f"{plant.family}/{plant.variant} in {where[0]}: {where[1][:300]!r}")
    return found


# --- calling the MCP tools -------------------------------------------------------------------------


def _refused_right(result: Any, secret: str, bounded: bool) -> str | None:
    """Why a call that had to be refused was not refused right, or None."""
    error: dict[str, Any] = (result.structured_content or {}).get("error", {})
    allowed = {"screened", "invalid_argument"} if bounded else {"screened"}
    if not result.is_error or error.get("code") not in allowed:
        return str(error.get("code", "accepted"))
    if error.get("code") == "screened" and secret in str(result.structured_content):
        return "the refusal repeats the secret"
    return None


def plant_mcp(mcp: McpCaller, key: str, path: McpPath, context: Context, planted: list[Planted]) -> list[str]:
    """Call every planting of `path` in one MCP session; return each call that was not refused right."""

    async def run() -> list[str]:
        problems = []
        async with mcp._client(key) as client:
            for plant in planted:
                for tool, arguments in path.plant(plant.value, context):
                    result = await client.call_tool(tool, arguments)
                    problem = _refused_right(result, plant.value, path.bounded)
                    if problem is not None:
                        problems.append(f"{tool} {plant.family}/{plant.variant}: {problem}")
        return problems

    return anyio.run(run)


def run_steps(mcp: McpCaller, key: str, scenarios: list[tuple[str, list[Step]]]) -> list[str]:
    """Run each scenario's steps in order: set-up steps must succeed, the planting must be refused."""

    async def run() -> list[str]:
        problems = []
        async with mcp._client(key) as client:
            for label, steps in scenarios:
                for step in steps:
                    result = await client.call_tool(step.tool, step.arguments)
                    if step.refused:
                        problem = _refused_right(result, step.secret, bounded=True)
                        if problem is not None:
                            problems.append(f"{label}: {step.tool} {problem}")
                    elif result.is_error:
                        problems.append(f"{label}: set-up {step.tool} failed: {result.structured_content}")
                        break
        return problems

    return anyio.run(run)
