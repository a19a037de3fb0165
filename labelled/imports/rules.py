"""Rules files: AGENTS.md, a Cursor rule with globs, a Claude Code path-scoped rule, Copilot's
instructions."""

from __future__ import annotations

from labelled.imports.case import ImportCase

# An excerpt of openai/codex's AGENTS.md (its first section and test instructions).
CODEX_AGENTS_MD = """# Rust/codex-rs

In the codex-rs folder where the rust code lives:

- Crate names are prefixed with `codex-`. For example, the `core` folder's crate is named `codex-core`
- When using format! and you can inline variables into {}, always do that.
- Never add or modify any code related to `CODEX_SANDBOX_NETWORK_DISABLED_ENV_VAR` or `CODEX_SANDBOX_ENV_VAR`.
- Always collapse if statements per https://rust-lang.github.io/rust-clippy/master/index.html#collapsible_if
- When possible, make `match` statements exhaustive and avoid wildcard arms.
- When writing tests, prefer comparing the equality of entire objects over fields one by one.
- Do not create small helper methods that are referenced only once.

Run `just fmt` (in `codex-rs` directory) automatically after you have finished making Rust code changes; do not ask for approval to run it. Additionally, run the tests:

1. Run the test for the specific project that was changed. For example, if changes were made in `codex-rs/tui`, run `cargo test -p codex-tui`.
2. Once those pass, if any changes were made in common, core, or protocol, run the complete test suite with `cargo test` (or `just test` if `cargo-nextest` is installed).
"""

# An excerpt of PatrickJS/awesome-cursorrules rules-new/database.mdc: "Use proper client setup" and
# "Use proper query optimization" each appear twice.
CURSOR_DATABASE_MDC = """---
description: Database best practices focusing on Prisma and Supabase integration
globs: prisma/**/*, src/db/**/*, **/*.prisma, supabase/**/*
alwaysApply: false
---

# Database Best Practices

## Prisma Setup
- Use proper schema design
- Implement proper migrations
- Use proper client setup

## Prisma Queries
- Use proper query optimization
- Implement proper pagination

## Supabase Setup
- Implement proper authentication
- Use proper client setup

## Performance
- Use proper connection pooling
- Use proper query optimization
- Handle N+1 queries properly
"""

# Written for this set in Claude Code's documented shape (.claude/rules/*.md with `paths`).
CLAUDE_RULE = """---
paths:
  - "src/api/**/*.ts"
---
# API rules
- All endpoints validate input with zod before touching the database.
- Return errors as RFC 7807 problem details.
- We chose cursor pagination over offsets for every list endpoint.
"""

# Written for this set in the shape GitHub documents for .github/copilot-instructions.md.
COPILOT = """# Copilot instructions
This is a Next.js 15 app using the App Router and TypeScript.

## Coding standards
- Use functional React components with hooks.
- Prefer server components; add "use client" only when state or effects are needed.
- Never commit .env files.

## Testing
1. Run `pnpm test` for unit tests.
2. Run `pnpm e2e` for Playwright tests before opening a pull request.
"""

CASES = [
    ImportCase(
        "codex-agents-md",
        "rules",
        "https://github.com/openai/codex/blob/main/AGENTS.md",
        "Apache-2.0 (excerpt)",
        {"AGENTS.md": CODEX_AGENTS_MD},
        [
            ("constraint", "Crate names are prefixed with `codex-`"),
            ("constraint", "inline variables into {}, always do that"),
            ("constraint", "Never add or modify any code related to"),
            ("constraint", "Always collapse if statements"),
            ("preference", "make `match` statements exhaustive"),
            ("preference", "prefer comparing the equality of entire objects"),
            ("constraint", "Do not create small helper methods"),
            ("procedure", "cargo test -p codex-tui"),
        ],
        0,
    ),
    ImportCase(
        "awesome-cursorrules-database",
        "rules",
        "https://github.com/PatrickJS/awesome-cursorrules/blob/main/rules-new/database.mdc",
        "CC0-1.0 (excerpt)",
        {".cursor/rules/database.mdc": CURSOR_DATABASE_MDC},
        [
            ("constraint", "Use proper schema design"),
            ("constraint", "Implement proper migrations"),
            ("constraint", "Use proper client setup"),
            ("constraint", "Use proper query optimization"),
            ("constraint", "Implement proper pagination"),
            ("constraint", "Implement proper authentication"),
            ("constraint", "Use proper connection pooling"),
            ("constraint", "Handle N+1 queries properly"),
        ],
        2,
    ),
    ImportCase(
        "claude-code-path-rule",
        "rules",
        "https://docs.claude.com/en/docs/claude-code/memory (shape only)",
        "written for this set",
        {".claude/rules/api.md": CLAUDE_RULE},
        [
            ("constraint", "All endpoints validate input with zod"),
            ("constraint", "Return errors as RFC 7807 problem details"),
            ("decision", "We chose cursor pagination over offsets"),
        ],
        0,
    ),
    ImportCase(
        "copilot-instructions",
        "rules",
        "https://docs.github.com/en/copilot/customizing-copilot (shape only)",
        "written for this set",
        {".github/copilot-instructions.md": COPILOT},
        [
            ("fact", "This is a Next.js 15 app using the App Router"),
            ("constraint", "Use functional React components with hooks"),
            ("preference", "Prefer server components"),
            ("constraint", "Never commit .env files"),
            ("procedure", "pnpm e2e"),
        ],
        0,
    ),
]
