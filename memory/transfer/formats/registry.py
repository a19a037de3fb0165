"""Which reader reads an upload: named by the caller, or recognised from the files ("auto")."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from memory import inputs
from memory.transfer.formats import basic_memory, mcp_memory_service, mem0, memory_graph, rules_files
from memory.transfer.formats.candidate import Files

# Checked in this order by "auto": the most specific shapes first; rules files last, as any
# Markdown can be read as one.
READERS: dict[str, ModuleType] = {
    "memory-graph": memory_graph,
    "mcp-memory-service": mcp_memory_service,
    "mem0": mem0,
    "basic-memory": basic_memory,
    "rules": rules_files,
}
FORMATS: tuple[str, ...] = inputs.MEMORY_IMPORT_FORMATS
if set(FORMATS) != {"auto", *READERS}:
    raise RuntimeError("memory.inputs.MEMORY_IMPORT_FORMATS must name every reader, and auto")
DESCRIPTIONS: dict[str, str] = {
    "auto": "Recognise the format from the files",
    "rules": "Rules files: CLAUDE.md, AGENTS.md, GEMINI.md, Copilot instructions, Cursor or Claude Code rules",
    "basic-memory": "A basic-memory project (Markdown with observations and relations)",
    "mcp-memory-service": "An mcp-memory-service JSON export",
    "memory-graph": "The MCP reference memory server's knowledge graph (JSONL)",
    "mem0": "A Mem0 export (JSON)",
}


def detect(files: Files) -> str:
    """The format of an upload: the first reader that claims it, else rules files (plain Markdown)."""
    for name, reader in READERS.items():
        claims: Callable[[Files], bool] = reader.claims
        if name != "rules" and claims(files):
            return name
    return "rules"
