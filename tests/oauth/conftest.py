"""One live server for the OAuth tests, whose SITE_URL is its own address: the metadata it
publishes (resource, issuer, endpoints) is then the one a real client discovers and checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from tests.live_mcp import free_port, serving
from tests.oauth.flow import Site


@pytest.fixture(scope="package")
def oauth_site(django_db_setup: None, django_db_blocker: Any) -> Iterator[Site]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    overrides = override_settings(
        SITE_URL=base,
        CSRF_TRUSTED_ORIGINS=[base],
        OAUTH2_PROVIDER={**settings.OAUTH2_PROVIDER, "OIDC_ISS_ENDPOINT": base},
    )
    overrides.enable()
    try:
        from knownbase.asgi import build_application

        with serving(build_application(), port, django_db_blocker):
            yield Site(base)
    finally:
        overrides.disable()


@pytest.fixture
def site(oauth_site: Site, transactional_db: None) -> Site:
    # Registration limits count per address per minute in the cache; every test starts afresh.
    cache.clear()
    return oauth_site
