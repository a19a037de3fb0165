"""PostgreSQL backend that starts the embedded server on first connection.

Starting the server lazily (instead of in settings) keeps `import knownbase.settings` free of side
effects: ruff, mypy and `manage.py check` never start a database they do not need.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from knownbase import embedded_db


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        data_dir = self.settings_dict["OPTIONS"].get("embedded_data_dir")
        params.pop("embedded_data_dir", None)
        if data_dir:
            params["host"] = embedded_db.ensure_database(str(data_dir), str(params.get("dbname", "postgres")))
            params.setdefault("user", "postgres")
        return params
