"""Other memory tools' exports: the reference MCP memory server's JSONL graph, Mem0, mcp-memory-service
and basic-memory."""

from __future__ import annotations

import json

from labelled.imports.case import ImportCase


def _jsonl(*records: dict[str, object]) -> str:
    return "\n".join(json.dumps(record) for record in records) + "\n"


# The example entities and relation of modelcontextprotocol/servers' memory server README.
MCP_README_GRAPH = _jsonl(
    {"type": "entity", "name": "John_Smith", "entityType": "person",
     "observations": ["Speaks fluent Spanish", "Graduated in 2019", "Prefers morning meetings"]},
    {"type": "entity", "name": "Anthropic", "entityType": "organization", "observations": ["Based in San Francisco"]},
    {"type": "relation", "from": "John_Smith", "to": "Anthropic", "relationType": "works_at"},
)  # fmt: skip

# Written for this set: a coding agent's graph in the same shape, with one observation repeated.
CODING_GRAPH = _jsonl(
    {"type": "entity", "name": "payments-service", "entityType": "service",
     "observations": ["Must answer card authorisations within 300 ms", "We decided to retry Stripe webhooks three times",
                      "Runs on Fly.io in two regions"]},
    {"type": "entity", "name": "ledger", "entityType": "service",
     "observations": ["Amounts are stored as integer cents", "Runs on Fly.io in two regions"]},
    {"type": "relation", "from": "payments-service", "to": "ledger", "relationType": "writes_to"},
)  # fmt: skip

# Written for this set in the shape of Mem0's get_all() answer (docs.mem0.ai, Apache-2.0 project).
MEM0 = json.dumps(
    {"results": [
        {"id": "6c1c7b6a", "memory": "Prefers dark mode in every editor", "user_id": "alice",
         "categories": ["preferences"], "created_at": "2025-06-01T10:00:00Z"},
        {"id": "0b2f7d1e", "memory": "Is allergic to peanuts", "user_id": "alice", "categories": ["health"]},
        {"id": "9a8e1f22", "memory": "Decided to move the team's CI from Jenkins to GitHub Actions", "user_id": "alice"},
        {"id": "41d2c0aa", "memory": "Prefers dark mode in every editor", "user_id": "alice"},
    ]}
)  # fmt: skip

# Written for this set in the shape of mcp-memory-service's JSON export (export_metadata + memories).
MCP_MEMORY_SERVICE = json.dumps(
    {"export_metadata": {"source_machine": "laptop", "export_timestamp": "2025-09-01T12:00:00Z", "total_memories": 4},
     "memories": [
        {"content": "Decided to use sqlite-vec for the local storage backend", "content_hash": "a1",
         "tags": ["architecture", "storage"], "memory_type": "decision", "metadata": {}},
        {"content": "Run `uv run pytest -x` before pushing any change", "content_hash": "b2", "tags": "testing,ci",
         "memory_type": "note"},
        {"content": "Never store API tokens in memory content", "content_hash": "c3", "tags": [], "memory_type": "note"},
        {"content": "Decided to use sqlite-vec for the local storage backend", "content_hash": "a1",
         "tags": ["architecture"], "memory_type": "decision"},
    ]}
)  # fmt: skip

# Written for this set in basic-memory's documented note format (front matter, observations, relations).
BASIC_MEMORY = """---
title: Search Design
type: note
permalink: search-design
tags:
- search
- architecture
---
# Search Design

## Observations
- [decision] Use PostgreSQL full-text search before adding a vector index #search
- [requirement] Results must come back within 50 ms at p95 (measured on staging)
- [technique] Rebuild the index with `make reindex` after a schema change
- [issue] Ranking ignored titles until the weights were fixed

## Relations
- implements [[Search Spec]]
- depends_on [[Database Schema]]
"""

CASES = [
    ImportCase(
        "mcp-memory-readme-graph",
        "memory-graph",
        "https://github.com/modelcontextprotocol/servers/tree/main/src/memory",
        "MIT (example from the README)",
        {"memory.jsonl": MCP_README_GRAPH},
        [
            ("fact", "Speaks fluent Spanish"),
            ("fact", "Graduated in 2019"),
            ("preference", "Prefers morning meetings"),
            ("fact", "Based in San Francisco"),
            ("fact", "John_Smith works at Anthropic"),
        ],
        0,
    ),
    ImportCase(
        "coding-agent-graph",
        "memory-graph",
        "https://github.com/modelcontextprotocol/servers/tree/main/src/memory (shape only)",
        "written for this set",
        {"memory.jsonl": CODING_GRAPH},
        [
            ("constraint", "Must answer card authorisations within 300 ms"),
            ("decision", "We decided to retry Stripe webhooks three times"),
            ("fact", "Runs on Fly.io in two regions"),
            ("fact", "Amounts are stored as integer cents"),
            ("fact", "payments-service writes to ledger"),
        ],
        1,
    ),
    ImportCase(
        "mem0-get-all",
        "mem0",
        "https://docs.mem0.ai (shape only)",
        "written for this set",
        {"mem0-export.json": MEM0},
        [
            ("preference", "Prefers dark mode in every editor"),
            ("fact", "Is allergic to peanuts"),
            ("decision", "move the team's CI from Jenkins to GitHub Actions"),
        ],
        1,
    ),
    ImportCase(
        "mcp-memory-service-export",
        "mcp-memory-service",
        "https://github.com/doobidoo/mcp-memory-service (shape only)",
        "written for this set",
        {"memories-export.json": MCP_MEMORY_SERVICE},
        [
            ("decision", "sqlite-vec for the local storage backend"),
            ("procedure", "uv run pytest -x"),
            ("constraint", "Never store API tokens in memory content"),
        ],
        1,
    ),
    ImportCase(
        "basic-memory-note",
        "basic-memory",
        "https://github.com/basicmachines-co/basic-memory (format documented; shape only)",
        "written for this set",
        {"notes/search-design.md": BASIC_MEMORY},
        [
            ("decision", "Use PostgreSQL full-text search before adding a vector index"),
            ("constraint", "Results must come back within 50 ms"),
            ("procedure", "make reindex"),
            ("incident", "Ranking ignored titles"),
            ("fact", "Search Design implements Search Spec"),
            ("fact", "Search Design depends on Database Schema"),
        ],
        0,
    ),
]
