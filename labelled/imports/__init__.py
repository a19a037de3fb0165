"""Labelled uploads for bringing memory in: each format's real or realistic files, with the notes a
person reading them would write down (type and a fragment of the text) and the repeats among them.

Written before the readers were scored, and pinned (tests/labelled/test_import_fixtures.py): a change
to a case is a new set, never a tweak to pass. Where a public example is quoted, its source and
licence are recorded beside it; where the format's owners publish none under a licence that allows
quoting, the case is written in the format's documented shape and says so."""
