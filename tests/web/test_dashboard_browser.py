"""Issue 12 in a real headless Chromium: a week of agent writing, then someone finds it, corrects it
(through a stale edit), settles its conflict and exports it; the same reading path without
JavaScript; and a staff moderation pass in the Django admin. A screenshot of each main page goes to
test-artifacts/12-*.png."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from accounts.models import AuditEvent, User
from memory import store
from memory.models import Note, NoteLink, NoteStatus
from tests.web.browser import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PASSWORD = "a week of agent notes"
WEBHOOK_NOTE = "Verify Stripe webhook signatures"
REFUND_FAST = "Refunds settle in five business days"
REFUND_SLOW = "Refunds settle in ten business days"

# What three agents wrote about the payments API over a week, one note a line:
# type | client | tags | title | body (a literal \n is a line break).
WEEK_TABLE = r"""
decision | claude-code | webhooks security | Verify Stripe webhook signatures | Every Stripe webhook is checked with the signing secret before any processing.\n\nUnsigned calls get a 400 and are logged.
decision | claude-code | charges | Idempotency keys on every charge | Each charge request carries an Idempotency-Key header derived from the order id.
decision | cursor | money | Amounts are integers in minor units | Money is stored as integer cents; floats never touch an amount.
decision | codex | payouts | Payout retries back off exponentially | Failed payouts retry after 1, 4 and 16 minutes, then page the on-call.
decision | cursor | ledger db | Ledger posting takes an advisory lock | Posting to the ledger holds a Postgres advisory lock per account.
decision | claude-code | fx | Currency conversion happens at checkout | Rates are fixed when the customer confirms, never at settlement.
fact | cursor | webhooks | Stripe resends webhooks for three days | Undelivered webhook events are retried by Stripe for up to three days.
fact | codex | stripe | Sandbox keys start with sk_test | Test-mode secret keys carry the sk_test prefix; live keys sk_live.
fact | claude-code | ledger | The ledger table has 40 million rows | Production ledger_entries holds about forty million rows.
fact | codex | disputes | Disputes arrive as charge.dispute.created | Chargebacks reach us as the charge.dispute.created event.
architecture | cursor | invoices | Invoices render through WeasyPrint | PDF invoices are produced by WeasyPrint from the HTML template.
architecture | claude-code | ledger | Payments service owns the ledger | Only the payments service writes ledger entries; others read a replica.
architecture | codex | events | Outbox table feeds the event bus | Domain events are written to an outbox table and relayed to Kafka.
constraint | claude-code | pci security | PCI scope stays in the vault | Card numbers never leave the tokenisation vault; we handle tokens only.
constraint | cursor | bank | No synchronous calls to the bank API | The bank's API is slow: every call goes through the job queue.
failed_approach | codex | testing | Mocking Stripe with responses broke retries | Patching the HTTP layer with responses hid the retry behaviour; use stripe-mock instead.
failed_approach | claude-code | payouts | Batching payouts per merchant failed | Grouping payouts by merchant exceeded the bank's file size limit.
procedure | cursor | webhooks | Rotate the webhook signing secret | 1. Add the new secret. 2. Deploy. 3. Roll the secret in the dashboard. 4. Remove the old one.
procedure | codex | payouts | Replay a failed payout | Run manage.py replay_payout <id> from a payments pod; it is idempotent.
incident | claude-code | reconciliation | Reconciliation incident of March | A timezone bug matched settlements to the wrong day for six hours.
incident | cursor | refunds | Duplicate refund incident | A retried refund without an idempotency key paid a customer twice.
task | codex | sca | Add 3-D Secure to saved cards | Saved cards need SCA challenges for EU customers by the end of the quarter.
task | claude-code | payouts | Migrate payouts to the new bank file format | The bank retires the old CSV layout next month.
status | cursor | | Payments API is in read-only freeze | Only fixes ship to the payments API until the audit finishes.
preference | codex | db | Prefer small migrations | Split schema changes so each migration locks a table for under a second.
reference | claude-code | stripe | Stripe API reference | https://stripe.com/docs/api is the reference we build against.
fact | claude-code | settlement | Settlement runs at 02:00 UTC | The nightly settlement job starts at two in the morning, UTC.
fact | cursor | disputes | Chargeback evidence is due in seven days | Evidence for a dispute must be submitted within seven days.
"""
# The two refund notes an agent stored knowingly in disagreement (force, then a contradicts link).
CONFLICT_TABLE = """
fact | cursor | refunds | Refunds settle in five business days | A refund reaches the customer's card within five business days.
fact | codex | refunds | Refunds settle in ten business days | A refund reaches the customer's card within ten business days.
"""


class Written(NamedTuple):
    type: str
    client: str
    tags: list[str]
    title: str
    body: str


def _parse(table: str) -> list[Written]:
    rows = []
    for line in table.strip().splitlines():
        note_type, client, tags, title, body = (cell.strip() for cell in line.split("|"))
        rows.append(Written(note_type, client, tags.split(), title, body.replace("\\n", "\n")))
    return rows


WEEK = _parse(WEEK_TABLE)
CONFLICT = _parse(CONFLICT_TABLE)


def _agent(cast: Any, client: str) -> Any:
    return cast.principal(cast.member).with_client(client)


def _remember(cast: Any, written: Written, **options: Any) -> dict[str, Any]:
    principal = _agent(cast, written.client)
    fields = {"type": written.type, "title": written.title, "tags": written.tags}
    result: dict[str, Any] = store.remember(principal, "payments", written.body, **fields, **options)
    return result


def week_of_agent_writing(cast: Any) -> dict[str, str]:
    """~30 notes remembered by three agents for Mia in payments, spread over the past week, and one
    contradiction between two of them. Returns the ids by title."""
    ids: dict[str, str] = {}
    for written in WEEK:
        result = _remember(cast, written)
        assert result["status"] == "created", (written.title, result)
        ids[written.title] = result["note"]["id"]
    for written in CONFLICT:
        # The second statement contradicts the first: the agent keeps both (force) and says so.
        ids[written.title] = _remember(cast, written, force=True)["note"]["id"]
    store.relate_notes(_agent(cast, "codex"), ids[REFUND_SLOW], ids[REFUND_FAST], "contradicts")
    # A week, not a minute: all but the last few notes get older timestamps (the store stamps now).
    now = timezone.now()
    for index, title in enumerate(written.title for written in WEEK):
        days_ago = index % 7
        if days_ago:
            moment = now - timedelta(days=days_ago, hours=index % 5)
            Note.objects.filter(public_id=ids[title]).update(created_at=moment, updated_at=moment)
    return ids


def _with_password(*users: User) -> None:
    for user in users:
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])


def sign_in(page: Any, email: str, next_path: str = "/") -> None:
    page.goto(f"/login/?next={next_path}")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


def note(public_id: str) -> Note:
    return Note.objects.get(public_id=public_id)


@pytest.fixture
def week(cast: Any, settings: Any) -> dict[str, str]:
    # No embedding model in these tests: search answers with the database's own text search.
    settings.EMBEDDINGS_PROVIDER = "none"
    _with_password(cast.member)
    return week_of_agent_writing(cast)


def test_find_correct_settle_and_export_a_week_of_agent_notes(browser_page, site_url, cast, week, settings):
    # The signed download link is absolute on SITE_URL: here, the live server the browser talks to.
    settings.SITE_URL = site_url
    page = browser_page
    total = len(WEEK) + len(CONFLICT)

    # Log in through the real form → the dashboard.
    sign_in(page, "mia@acme.test")
    page.get_by_role("heading", name="Acme", level=1).wait_for()
    payments_row = page.get_by_role("row").filter(has=page.get_by_role("link", name="Payments API"))
    assert payments_row.get_by_role("cell").first.inner_text().strip() == str(total)
    assert "decision 6" in payments_row.inner_text()
    assert "1 open conflict" in page.locator(".conflict-summary").inner_text()
    today = page.get_by_role("region", name="Written by agents today")
    # Four of the week's notes and the two refund notes were written today, by three agents.
    assert "6 new notes" in today.inner_text()
    assert all(client in today.inner_text() for client in ("claude-code", "cursor", "codex"))
    screenshot(page, "12-dashboard")

    # The project → filter by type (htmx swaps the results and pushes the URL).
    page.get_by_role("link", name="Payments API").click()
    page.get_by_role("heading", name="Payments API").wait_for()
    assert f"{total} notes" in page.locator(".result-summary").inner_text()
    page.evaluate("window.notReloaded = true")
    page.get_by_label("Type").select_option("decision")
    page.wait_for_url("**/projects/payments/?*type=decision*")
    page.locator(".result-summary").filter(has_text="6 notes").wait_for()
    types = page.locator(".notes-table tbody tr td:nth-child(3)").all_inner_texts()
    assert types == ["decision"] * 6
    assert page.evaluate("window.notReloaded") is True  # htmx swapped the results in place
    screenshot(page, "12-project")

    # Search within the decisions: the page says which search mode answered.
    page.get_by_label("Search").fill("webhook")
    page.get_by_role("button", name="Show notes").click()
    page.locator(".result-summary").filter(has_text="Answered by").wait_for()
    expected = store.search_notes(
        cast.principal(cast.member), "webhook", project="payments", types=["decision"], semantic=True
    )
    summary = page.locator(".result-summary").inner_text()
    assert f"search_mode: {expected['search_mode']}" in summary
    results = page.locator("#note-results")
    assert results.get_by_role("link", name=WEBHOOK_NOTE).is_visible()
    assert results.get_by_role("link", name="Stripe resends webhooks for three days").count() == 0  # a fact
    screenshot(page, "12-search")

    # Open the note.
    results.get_by_role("link", name=WEBHOOK_NOTE).click()
    page.get_by_role("heading", name=WEBHOOK_NOTE, level=1).wait_for()
    assert "Unsigned calls get a 400" in page.locator(".note-body").inner_text()
    assert "claude-code" in page.locator(".note-meta").inner_text()
    screenshot(page, "12-note")

    # Edit it while Olivia's agent saves another version through the store.
    webhook_id = week[WEBHOOK_NOTE]
    page.get_by_role("link", name="Edit", exact=True).click()
    page.get_by_role("heading", name="Edit note").wait_for()
    theirs = (
        "Every Stripe webhook is checked with the signing secret before any processing.\n\n"
        "Unsigned calls get a 400, are logged and raise an alert."
    )
    store.update_note(cast.principal(cast.owner).with_client("cursor"), webhook_id, body=theirs)
    mine = (
        "Every Stripe webhook is checked with the signing secret before any processing.\n\n"
        "Calls older than five minutes are refused as replays."
    )
    page.get_by_label("Body").fill(mine)
    page.get_by_role("button", name="Save", exact=True).click()
    page.get_by_role("heading", name="Someone else saved this note first").wait_for()
    conflict = page.get_by_role("alert")
    assert "saved by olivia@acme.test via cursor" in conflict.inner_text()
    assert "raise an alert" in page.get_by_role("region", name="Version 2, as saved").inner_text()
    diff = page.locator("table.diff")
    assert "raise an alert" in " ".join(diff.locator(".diff-old").all_inner_texts())
    assert "refused as replays" in " ".join(diff.locator(".diff-new").all_inner_texts())
    stale = note(webhook_id)
    assert (stale.version, stale.body) == (2, theirs)  # not overwritten
    screenshot(page, "12-stale-edit")

    # Resubmit over the newer version: the text still in the form is saved as version 3.
    assert page.get_by_label("Body").input_value() == mine
    page.get_by_role("button", name="Save over version 2").click()
    page.get_by_text("Note saved.").wait_for()
    saved = note(webhook_id)
    assert (saved.version, saved.body) == (3, mine)

    # The history, and version 3 side by side with version 2.
    page.get_by_role("link", name="History").click()
    page.get_by_role("heading", name=f"History of “{WEBHOOK_NOTE}”").wait_for()
    page.get_by_role("link", name="with version 2").click()
    page.get_by_role("heading", name="Version 2 → version 3").wait_for()
    text_diff = page.locator("table.diff").filter(has=page.locator("caption", has_text="Text"))
    assert "raise an alert" in " ".join(text_diff.locator(".diff-old").all_inner_texts())
    assert "refused as replays" in " ".join(text_diff.locator(".diff-new").all_inner_texts())
    screenshot(page, "12-revision-diff")

    # The conflict, settled with one click from the queue (htmx swaps the outcome in).
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Conflicts").click()
    page.get_by_role("heading", name="Conflicts", level=1).wait_for()
    item = page.get_by_role("article").filter(has_text=REFUND_FAST)
    assert REFUND_SLOW in item.inner_text()
    screenshot(page, "12-conflicts")
    # A is the link's source (the ten-day note): the five-day one is what the bank confirmed.
    item.get_by_role("button", name="B supersedes A").click()
    page.get_by_role("status").filter(has_text="Resolved:").wait_for()
    slow, fast = note(week[REFUND_SLOW]), note(week[REFUND_FAST])
    assert (slow.status, slow.superseded_by_id) == (NoteStatus.SUPERSEDED, fast.pk)
    assert fast.status == NoteStatus.CURRENT
    assert not NoteLink.objects.filter(kind="contradicts").exists()
    event = AuditEvent.objects.get(action="conflict.resolved")
    assert (event.actor, event.team, event.object_id) == (cast.member, cast.acme, week[REFUND_SLOW])
    assert event.detail["resolution"] == "b_supersedes_a"

    # Export JSON through the project page's link; the download holds the notes.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Projects", exact=True).click()
    page.get_by_role("link", name="Payments API").click()
    page.get_by_role("link", name="Export").click()
    page.get_by_role("heading", name="Export Payments API").wait_for()
    page.get_by_label("JSON").check()
    screenshot(page, "12-export")
    with page.expect_download() as started:
        page.get_by_role("button", name="Export").click()
    download = started.value
    assert download.suggested_filename == "payments.knownbase.json"
    exported = json.loads(Path(download.path()).read_text())
    by_title = {n["title"]: n for n in exported["notes"]}
    assert set(by_title) >= {written.title for written in WEEK + CONFLICT}
    assert by_title[WEBHOOK_NOTE]["body"] == mine


def test_the_reading_path_and_a_basic_edit_without_javascript(no_script_page, site_url, cast, week):
    page = no_script_page
    sign_in(page, "mia@acme.test")
    page.get_by_role("heading", name="Acme", level=1).wait_for()
    assert "1 open conflict" in page.content()

    page.get_by_role("link", name="Payments API").click()
    page.get_by_label("Search").fill("payout")
    page.get_by_role("button", name="Show notes").click()  # a plain GET with the query string
    page.wait_for_url("**/projects/payments/?*q=payout*")
    assert "Answered by" in page.locator(".result-summary").inner_text()
    results = page.locator("#note-results")
    assert results.get_by_role("link", name="Replay a failed payout").is_visible()
    screenshot(page, "12-search-no-javascript")

    results.get_by_role("link", name="Replay a failed payout").click()
    page.get_by_role("heading", name="Replay a failed payout", level=1).wait_for()
    assert "replay_payout" in page.locator(".note-body").inner_text()

    page.get_by_role("link", name="Edit", exact=True).click()
    page.get_by_label("Title").fill("Replay a failed payout safely")
    page.get_by_label("Tags").fill("payouts, runbook")
    page.get_by_role("button", name="Save", exact=True).click()
    page.get_by_text("Note saved.").wait_for()
    page.get_by_role("heading", name="Replay a failed payout safely", level=1).wait_for()
    screenshot(page, "12-note-no-javascript")
    edited = note(week["Replay a failed payout"])
    assert (edited.title, edited.tags, edited.version) == (
        "Replay a failed payout safely",
        ["payouts", "runbook"],
        2,
    )
    assert edited.last_edited_by == cast.member and edited.last_edited_client == "web"


SECRET_TITLE = "Oscar's private hunch about the lab"
SECRET_BODY = "Nobody else should read this."


@pytest.fixture
def moderation_world(cast: Any, settings: Any) -> dict[str, str]:
    """A disputed team note in Globex (whose member the staff user is not), a private disputed note
    beside it, and a contradiction in Acme."""
    settings.EMBEDDINGS_PROVIDER = "none"
    oscar = cast.principal(cast.outsider).with_client("claude-code")
    disputed = store.create_note(
        oscar, "lab", "Centrifuge runs need two operators", "Two people must be present.", status="disputed"
    )["note"]["id"]
    private = store.create_note(
        oscar, "lab", SECRET_TITLE, SECRET_BODY, status="disputed", visibility="private"
    )["note"]["id"]
    mia = cast.principal(cast.member).with_client("cursor")
    a = store.create_note(mia, "payments", "Tokens are opaque", "Sessions use opaque tokens.")["note"]["id"]
    b = store.create_note(mia, "payments", "Tokens are JWTs", "Sessions use JWTs.")["note"]["id"]
    store.relate_notes(mia, a, b, "contradicts")
    return {"disputed": disputed, "private": private, "a": a}


def test_a_staff_moderation_pass_in_the_admin(browser_page, site_url, cast, moderation_world):
    staff = User.objects.create_user("sam@knownbase.test", PASSWORD, name="Sam Staff")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    staff.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="memory", codename__in=["view_note", "change_note"]
        )
    )
    page = browser_page
    page.goto("/admin/")
    page.get_by_label("Email").fill(staff.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    visited = [page.content()]

    page.get_by_role("link", name="Notes", exact=True).click()
    visited.append(page.content())
    page.get_by_role("link", name="Moderation: open conflicts").click()
    page.get_by_role("heading", name="Moderation: open conflicts").wait_for()
    visited.append(page.content())
    globex = page.locator(".module").filter(has_text="Centrifuge runs need two operators")
    assert globex.count() == 1
    assert "Tokens are opaque" in page.content()  # Acme's contradiction is listed too
    screenshot(page, "12-admin-moderation")

    globex.get_by_role("button", name="Keep as current").click()
    page.get_by_text("Resolved (Keep as current).").wait_for()
    visited.append(page.content())
    screenshot(page, "12-admin-moderation-resolved")
    settled = note(moderation_world["disputed"])
    assert (settled.status, settled.version, settled.last_edited_by) == (NoteStatus.CURRENT, 2, staff)
    event = AuditEvent.objects.get(action="conflict.resolved")
    assert (event.actor, event.team, event.auth_method) == (staff, cast.globex, "staff")
    assert event.object_id == moderation_world["disputed"]

    page.goto("/admin/memory/note/?conflict=disputed")
    visited.append(page.content())
    page.goto("/admin/memory/note/?q=hunch")
    visited.append(page.content())
    for html in visited:
        assert SECRET_TITLE not in html and moderation_world["private"] not in html
        assert SECRET_BODY not in html
    assert note(moderation_world["private"]).status == NoteStatus.DISPUTED  # untouched
