"""Limits of what memory stores and what its callers may give, declared once.

memory.models reads them for its fields, so they live apart from memory.inputs (which reads the
models' choices); memory.inputs re-exports them with the accounts and billing limits as the one
public declaration of every input.
"""

from __future__ import annotations

from accounts.limits import CLIENT_NAME, MAX_INT, ListInput, NumberInput, TextInput

# Text fields of notes and projects. The MCP schemas publish only the descriptions of QUERY,
# IDEMPOTENCY_KEY and SINCE (every word of tools/list is paid for); the REST schema publishes all.
TITLE = TextInput(300, "One line that says what the note is about.")
BODY = TextInput(50_000, "The note's text, in Markdown.")
TAG = TextInput(64, "A tag: lowercase letters, digits and - _ . : / + # (spaces become hyphens).")
SOURCE = TextInput(CLIENT_NAME.max_length, "which client wrote it")
DELETE_REASON = TextInput(300, "Why the note is deleted, kept with it.")
QUERY = TextInput(500, "what you are about to do")
PROJECT_NAME = TextInput(120, "The project's display name.")
PROJECT_TEXT = TextInput(20_000, "Markdown text kept with the project.")
NOTE_ID = TextInput(40, "An opaque note id.")
# REST's If-Match header: a note version, quoted or not.
IF_MATCH = TextInput(100)
IDEMPOTENCY_KEY = TextInput(200, "retry-safe key")
CURSOR = TextInput(2_000, "The opaque cursor a previous page returned, passed back unchanged.")
SINCE = TextInput(64, "RFC 3339 time")
RULE_NAME = TextInput(60)
RULE_VALUE = TextInput(500)
# Ids of the exporting server, as an import document carries them: ours are shorter, another
# server's may not be.
EXPORTED_ID = TextInput(64)

# The note browser's filters, carried as a query string through a bulk action and back.
FILTERS_QUERY = TextInput(4_000)

# What the server records alongside: the caller's credential (Principal.credential_key), the
# operation an idempotency key was used for, the embedding model's name, a transfer's format.
CREDENTIAL = TextInput(120)
OPERATION = TextInput(40)
EMBEDDING_MODEL = TextInput(100)
TRANSFER_FORMAT = TextInput(10)

# Lists.
TAGS = ListInput(20, "Tags of the note.")
# Tags typed as one line, separated by commas and spaces (the web forms split it).
TAG_LINE = TextInput(TAGS.max_items * (TAG.max_length + 2))
NOTE_IDS = ListInput(50, "Note ids.")
SUPERSEDES = ListInput(20, "Ids of notes this one replaces: they are marked superseded.")
CHECKPOINT_ITEMS = ListInput(30, "One item per entry.")

# Numbers.
IMPORTANCE = NumberInput(0, 1, 0.5, "How much the note matters, 0 to 1 (0.5 ordinary, 0.9 critical).")
VERSION = NumberInput(1, MAX_INT, None, "A note version number.")
COUNT = NumberInput(0, MAX_INT, 0)  # a stored counter or a page offset
SEARCH_LIMIT = NumberInput(1, 50, 10, "How many results at most.")
FEED_LIMIT = NumberInput(1, 200, 50, "How many changes at most in this page.")
FEED_MAX_TOKENS = NumberInput(1, 100_000, None, "Token budget of the whole page.")
CONTEXT_MAX_TOKENS = NumberInput(100, 50_000, None, "Token budget of the whole response.")
# 0 clears the project's default: get_context then uses the detail level's (or the plan's) budget.
PROJECT_CONTEXT_BUDGET = NumberInput(
    0,
    CONTEXT_MAX_TOKENS.maximum,
    None,
    "get_context's token budget when the caller gives none (100 to 50,000; 0 clears it).",
)
REVISIONS_LIMIT = NumberInput(1, 100, 20, "How many revisions at most, newest first.")
LIST_LIMIT = NumberInput(1, 200, 50, "How many notes at most in this page.")
AUDIT_LIMIT = NumberInput(1, 500, 50, "How many events at most.")
CONFLICT_LIMIT = NumberInput(1, 100, 25, "How many conflicts at most in this page.")

# Notes per embedding task of bulk work (an import's notes, a backfill): one task per batch on the
# bulk queue instead of one per note, so a large import is a few dozen messages, not thousands.
EMBED_BATCH = 64

# What render (an AGENTS.md section or a rules file from a project's notes) holds at most: a rules
# file is read whole at every session start, so a note's text is cut and a type's list is capped.
RENDER_NOTES_PER_TYPE = 100
RENDER_BODY_CHARS = 1_500

# Notes bound to code (memory.notes.paths): glob patterns relative to the repository root, and the
# files a caller names (the ones being worked on, or the ones a change touched).
PATH_PATTERN = TextInput(300, "A glob relative to the repository root: ** spans folders, * does not.")
NOTE_PATHS = ListInput(20, "Globs of the code this note is about, e.g. billing/** or api/views/*.py.")
PATHS_PER_CALL = ListInput(500, "Repository paths (files being worked on, or a change's files).")
COMMIT = TextInput(64, "The commit id of the change.")
# A note's globs typed one a line (the web note form splits it).
PATH_LINES = TextInput(NOTE_PATHS.max_items * (PATH_PATTERN.max_length + 1))

# Memory brought in from other tools' files (memory.transfer.formats): one upload at most. Every note
# is judged as remember judges it, inside the request, so the notes an upload may hold are bounded.
MEMORY_IMPORT_FILES = ListInput(200, "The files, by their path relative to the repository or export root.")
MEMORY_IMPORT_FILE_NAME = TextInput(300, "A file's path relative to the upload's root.")
MEMORY_IMPORT_BYTES = 2_000_000  # all the files' text together, in UTF-8
MEMORY_IMPORT_NOTES = 1_000  # notes read from one upload
MEMORY_IMPORT_SHOWN_CHARS = 300  # of each note's text in the report
