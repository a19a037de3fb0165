"""The whole path a new team takes, in a real headless Chromium at desktop and phone width: sign up
on the live server's port (not 8000) → confirm the address → create a key → an agent writes through
MCP → the dashboard shows it → a conflict is settled → a project is imported from a file with its
progress → the cap warning → the upgrade (a local fake Stripe) → staff set a plan in the admin by the
team's name. Every page visited is checked for sideways scrolling, and a screenshot of each step is
saved under test-artifacts/journey-<width>/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.core import mail

from accounts import site
from accounts.models import Team, User
from accounts.principal import principal_for_session
from billing.models import Plan
from memory.transfer.exporting import export_document
from tests.billing.conftest import fake_stripe  # noqa: F401 - the fixture, for the upgrade step
from tests.live_mcp import McpCaller
from tests.web.browser import ARTIFACTS, STEP_TIMEOUT_MS, WIDTHS, sideways_overflow, sized_page
from tests.web.conftest import link_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

PASSWORD = "plum tree harbour"


class Journey:
    """One person's browser tab at one width; each step is checked and photographed."""

    def __init__(self, page: Any, width: str) -> None:
        self.page = page
        self.width_name = width
        self.folder = ARTIFACTS / f"journey-{width}"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.step = 0
        self.visited: list[str] = []

    def look(self, name: str) -> Path:
        """The page as it is now: no sideways scroll at this width, and a screenshot."""
        self.step += 1
        wide = sideways_overflow(self.page, self.width_name)
        assert wide is None, f"{self.page.url} scrolls sideways: {wide} px on a {self.width_name} screen"
        self.visited.append(self.page.url)
        path = self.folder / f"{self.step:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture(params=sorted(WIDTHS))
def journey(request: Any, browser: Any, site_url: str, settings: Any) -> Iterator[Journey]:
    # Every URL the product prints names this server, on the free port the live server took.
    settings.SITE_URL = site_url
    page = sized_page(browser, site_url, request.param)
    yield Journey(page, request.param)
    page.context.close()


def _agent(mcp_url: str, key: str, tool: str, **arguments: Any) -> dict[str, Any]:
    # The MCP client runs an event loop of its own: off this thread, which carries Playwright's.
    with ThreadPoolExecutor(max_workers=1) as pool:
        result: dict[str, Any] = pool.submit(McpCaller(mcp_url).ok, key, tool, arguments).result(timeout=60)
    return result


def test_a_new_team_from_sign_up_to_an_upgrade(
    journey: Journey,
    site_url: str,
    mcp_url: str,
    request: Any,
    settings: Any,
    tmp_path: Any,
    browser: Any,
) -> None:
    page = journey.page
    assert not site_url.endswith(":8000")
    email = f"rae-{journey.folder.name}@example.test"

    page.goto("/signup/")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Your name").fill("Rae Journey")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Team name").fill("Rae's studio")
    journey.look("sign-up")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_role("heading", name="Rae's studio").wait_for()
    journey.look("first-dashboard")

    [message] = mail.outbox
    link = link_in(str(message.body))
    assert f"{site_url}{link}" in str(message.body)  # the mail names this server's port
    page.goto(link)
    journey.look("confirm-address")
    page.get_by_role("button", name=f"Confirm {email}").click()
    page.get_by_text(f"{email} is confirmed").wait_for()

    page.goto("/keys/")
    page.get_by_label("Name").fill("studio laptop")
    journey.look("keys")
    page.get_by_role("button", name="Create key").click()
    page.get_by_role("heading", name="Your new API key").wait_for()
    journey.look("key-created")
    key = page.locator("#raw-key").input_value()
    assert site.mcp_url() == f"{site_url}/mcp" and f"{site_url}/mcp" in page.content()

    project = _agent(mcp_url, key, "list_projects")["projects"][0]["slug"]
    first = _agent(
        mcp_url, key, "remember", project=project, type="decision", title="Deploys",
        content="We deploy the studio site with Kubernetes on our own cluster.",
    )  # fmt: skip
    second = _agent(
        mcp_url, key, "remember", project=project, type="decision", title="Deploy target",
        content="Deploys go to Fly.io from the main branch; the Kubernetes cluster is gone.",
        force=True,
    )  # fmt: skip
    _agent(
        mcp_url,
        key,
        "relate_notes",
        from_id=second["note"]["id"],
        to_id=first["note"]["id"],
        kind="contradicts",
    )

    page.goto("/")
    page.get_by_text("Deploy target").first.wait_for()
    journey.look("dashboard-after-agent")
    page.goto(f"/projects/{project}/")
    page.get_by_role("link", name="Deploys", exact=True).first.wait_for()
    journey.look("project")

    page.goto("/conflicts/")
    page.get_by_role("heading", name="Conflicts", level=1).wait_for()
    journey.look("conflicts")
    page.get_by_role("button", name="A supersedes B").first.click()
    page.get_by_text("now supersedes").wait_for()
    page.goto("/")
    assert "No open conflicts." in page.content()
    journey.look("dashboard-settled")

    # A project from a file, from the dashboard, followed as a background job.
    settings.TRANSFER_TASK_THRESHOLD = 1
    team = Team.objects.get(name="Rae's studio")
    owner = User.objects.get(email=email)
    owner_principal = principal_for_session(owner, team.pk)
    assert owner_principal is not None
    document = export_document(owner_principal, team.projects.get(slug=project))
    document["project"]["slug"] = "studio-copy"
    export = tmp_path / "studio.knownbase.json"
    export.write_text(json.dumps(document))
    page.goto("/")
    page.get_by_role("link", name="New project from a file").click()
    page.get_by_label("Export file (JSON)").set_input_files(str(export))
    journey.look("import-from-a-file")
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("heading", name="What the file would create").wait_for()
    assert "(1 current, 1 superseded)" in page.locator("#would-notes").inner_text()
    journey.look("import-preview")
    page.get_by_role("button", name="Import 2 notes").click()
    page.get_by_text("Imported 2 notes").wait_for()
    assert page.get_by_role("progressbar").get_attribute("value") == "100"
    journey.look("import-done")

    # The cap warning, then the way out: an upgrade through Checkout.
    stripe = request.getfixturevalue("fake_stripe")  # Stripe on from here: the way out is Checkout
    stripe.checkout_page = f"{site_url}/billing/?checkout=success&session="
    free = Plan.default()
    free.max_notes = 4
    free.save()
    page.goto("/")
    warning = page.get_by_role("complementary", name="Plan caps")
    assert "This team has reached its cap of 4 notes on the Free plan" in warning.inner_text()
    journey.look("cap-warning")
    warning.get_by_role("link", name="Go to billing").click()
    journey.look("billing")
    page.get_by_role("button", name="Upgrade to Pro").click()
    page.wait_for_url("**/billing/?checkout=success*")
    assert page.locator("#checkout-success").is_visible()
    journey.look("checkout-returned")

    # Every other page the owner reaches from the navigation, at this width too.
    for path, name in (
        ("/teams/members/", "members"),
        ("/teams/settings/", "team-settings"),
        ("/team/usage/", "usage"),
        ("/team/screening/", "screening"),
        ("/team/audit/", "audit"),
        ("/apps/", "connected-apps"),
        (f"/projects/{project}/bring-in/", "bring-in"),
        (f"/projects/{project}/context/", "context-preview"),
        (f"/projects/{project}/notes/{first['note']['id']}/", "note"),
        ("/teams/", "teams"),
        ("/password/change/", "password"),
    ):
        page.goto(path)
        journey.look(name)

    # Staff set the plan in the admin, choosing the team by its name.
    staff = User.objects.create_superuser(f"staff-{journey.folder.name}@knownbase.test", PASSWORD)
    admin = browser.new_context(base_url=site_url, viewport=page.viewport_size)  # a second person
    admin_page = admin.new_page()
    admin_page.set_default_timeout(STEP_TIMEOUT_MS)
    admin_page.goto("/admin/login/?next=/admin/billing/subscription/add/")
    admin_page.get_by_label("Email").fill(staff.email)
    admin_page.get_by_label("Password").fill(PASSWORD)
    admin_page.get_by_role("button", name="Log in").click()
    admin_page.locator(".select2-selection").first.click()
    admin_page.locator(".select2-search__field").fill("Rae")
    admin_page.locator(".select2-results__option", has_text="Rae's studio").click()
    admin_page.get_by_label("Plan").select_option(label=Plan.objects.get(code="team").name)
    admin_page.get_by_role("button", name="Save", exact=True).click()
    admin_page.get_by_text("was added successfully").wait_for()
    team.refresh_from_db()
    assert Team.objects.get(pk=team.pk).subscription.plan.code == "team"
    admin_page.goto(f"/admin/billing/subscription/{team.subscription.pk}/change/")
    assert staff.email in admin_page.locator(".field-plan_history").inner_text()
    admin.close()
