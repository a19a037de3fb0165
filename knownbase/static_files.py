"""Static files under content-hashed names once collectstatic has run, so browsers may keep them for
good (WhiteNoise marks hashed files immutable with a ten-year max-age); before that, plain names.

Django's manifest storage refuses every {% static %} until collectstatic has run and, in DEBUG, names
the plain files. Here a name the manifest lists always gets its hashed URL (`make run` collects on
start), and one it does not list (nothing collected yet: tests, a fresh checkout) keeps its plain
name, which WhiteNoise serves from the app folders in development.
"""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    manifest_strict = False

    def stored_name(self, name: str) -> str:
        hashed: str | None = self.hashed_files.get(self.hash_key(self.clean_name(name)))
        return hashed if hashed is not None else name

    def url(self, name: Any, force: bool = False) -> str:
        # force: the hashed name in DEBUG too, whenever the manifest has one.
        return str(super().url(name, force=True))
