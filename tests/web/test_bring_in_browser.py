"""Bringing a repository's rules files in, in a real browser: upload, read the preview (what is new,
already known, refused), confirm, and find the notes on the project page."""

from __future__ import annotations

import re

import pytest

from memory.models import Note
from tests.mcp_gateway.state import save
from tests.web.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

SECRET = "glpat-" + "Xy7Zq2Lm9Nb4Vc8Kd1Ws"
CLAUDE_MD = f"""# Payments
We use Stripe for card payments.

## Rules
- Amounts are integers in cents, never floats.
- Never log card numbers anywhere in the service.
- The deploy token is {SECRET} until rotated.
"""
API_RULE = """---
globs: api/views/*.py
---
- Views stay thin: they call the store and nothing else.
"""


def test_upload_preview_and_import_rules_files(browser_page, site_url, cast, tmp_path):
    known = save(cast, "Cents", "Amounts are integers in cents, never floats.", type="constraint")
    (tmp_path / "CLAUDE.md").write_text(CLAUDE_MD)
    (tmp_path / "api.mdc").write_text(API_RULE)
    page = browser_page
    page.goto("/login/?next=/projects/payments/")
    page.get_by_label("Email").fill("mia@acme.test")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Bring in memory").click()
    page.get_by_role("heading", name="Bring in memory").wait_for()
    page.get_by_label("Files").set_input_files([str(tmp_path / "CLAUDE.md"), str(tmp_path / "api.mdc")])
    screenshot(page, "30-bring-in")
    page.get_by_role("button", name="Preview").click()

    page.get_by_role("heading", name="Preview").wait_for()
    counts = page.locator("#import-counts").inner_text()
    assert counts.startswith("3 to create · 1 already known") and "1 refused by screening" in counts
    table = page.get_by_role("table", name="Notes read from the files")
    known_row = table.get_by_role("row").filter(has_text="Amounts are integers in cents")
    assert "duplicate" in known_row.inner_text() and known in known_row.inner_text()
    refused_row = table.get_by_role("row").filter(has_text="CLAUDE.md:7")
    assert "refused" in refused_row.inner_text() and SECRET not in table.inner_text()
    assert (
        "Bound to api/views/*.py" in table.get_by_role("row").filter(has_text="Views stay thin").inner_text()
    )
    before = Note.objects.count()
    screenshot(page, "31-bring-in-preview")
    assert page.get_by_label("Leave out the notes that look like secrets").is_checked()
    page.get_by_role("button", name="Import 3 new notes").click()

    page.get_by_role("status").filter(has_text="Imported into Payments API: 3 new").wait_for()
    assert Note.objects.count() == before + 3
    screenshot(page, "32-bring-in-done")
    page.get_by_role("link", name="Open Payments API").click()
    page.get_by_role("link", name=re.compile("^Views stay thin")).first.wait_for()
    assert not Note.objects.filter(body__contains=SECRET).exists()
