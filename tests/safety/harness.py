"""Plant secrets through write paths, then search every table of the database for them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import anyio
from django.db import connection

from memory.screening.normalize import normalized
from memory.screening.patterns import FAMILIES
from tests.live_mcp import McpCaller
from tests.memory.screening.samples import TRUE_POSITIVES, disguises
from tests.safety.write_paths import Context, McpPath

VARIANTS = ("raw", "fullwidth", "zero_width")


@dataclass(frozen=True)
class Planted:
    family: str
    variant: str
    value: str

    def needles(self) -> set[str]:
        """Distinctive lowercase fragments of the secret that any stored copy would contain."""
        plain = normalized(self.value)
        family = next(f for f in FAMILIES if f.name == self.family)
        match = family.finds(plain)
        core = plain
        if match is not None:
            named = [v for v in match.groupdict().values() if v]
            core = named[0] if named else match.group(0)
        found = distinctive_runs(core) or distinctive_runs(plain)
        digits = re.sub(r"\D", "", core)
        if len(digits) >= 9:
            found.add(digits)
        found.add(core.lower())
        if self.variant != "raw":
            found.add(self.value.lower())
        return found


def distinctive_runs(text: str) -> set[str]:
    """Alphanumeric runs unlikely to occur by chance: with a digit, or long. Words such as "private"
    or "password" are left out, they occur in any database."""
    runs = re.findall(r"[A-Za-z0-9]{6,}", text)
    return {run.lower() for run in runs if re.search(r"\d", run) or len(run) >= 12}


def plants(variants: tuple[str, ...] = VARIANTS) -> list[Planted]:
    result = []
    for family, values in TRUE_POSITIVES.items():
        forms = {"raw": values[0], **disguises(values[0])}
        result += [Planted(family, variant, forms[variant]) for variant in variants]
    return result


def database_text() -> str:
    """Every row of every table, as text, lowercased."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        tables = [row[0] for row in cursor.fetchall()]
        chunks = []
        for table in tables:
            cursor.execute(f'SELECT t::text FROM "{table}" t')  # noqa: S608 - table names from the catalogue
            chunks += [row[0] for row in cursor.fetchall()]
    return "\n".join(chunks).lower()


def leaks(planted: list[Planted]) -> list[str]:
    text = database_text()
    return [f"{p.family}/{p.variant}" for p in planted if any(needle in text for needle in p.needles())]


def plant_mcp(mcp: McpCaller, key: str, path: McpPath, context: Context, planted: list[Planted]) -> list[str]:
    """Call every planting of `path` in one MCP session; return each call that was not refused right."""

    async def run() -> list[str]:
        problems = []
        async with mcp._client(key) as client:
            for plant in planted:
                for tool, arguments in path.plant(plant.value, context):
                    result = await client.call_tool(tool, arguments)
                    error: dict[str, Any] = (result.structured_content or {}).get("error", {})
                    allowed = {"screened", "invalid_argument"} if path.bounded else {"screened"}
                    if not result.is_error or error.get("code") not in allowed:
                        problems.append(
                            f"{tool} {plant.family}/{plant.variant}: {error.get('code', 'accepted')}"
                        )
                    elif error.get("code") == "screened" and plant.value in str(result.structured_content):
                        problems.append(
                            f"{tool} {plant.family}/{plant.variant}: the refusal repeats the secret"
                        )
        return problems

    return anyio.run(run)
