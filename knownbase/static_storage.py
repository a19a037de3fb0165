"""Static files under hashed names, cached for a year by browsers and proxies.

collectstatic writes each file twice (its plain name and a name with its content's hash) and a
manifest; pages then name the hashed copy, which WhiteNoise serves as immutable with a far-future
max-age. Before collectstatic has run (the test suite, a checkout that never ran `make run`) there is
no manifest: pages name the plain file instead of failing, and it is served with a short max-age.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    manifest_strict = False

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:  # not collected yet: the plain name
            return name
