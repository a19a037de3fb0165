"""/api/v1 context as a Markdown brief and render as an AGENTS.md section or a Cursor rules file: the
text agents read without calling a tool."""

from __future__ import annotations

import pytest

from memory import limits
from memory.recall.tokens import estimate_tokens
from tests.api.conftest import Api
from tests.api.schema import operations
from tests.mcp_gateway.state import save


def is_markdown(answer) -> bool:
    return answer.status == 200 and answer.headers["Content-Type"].startswith("text/markdown")


def test_markdown_brief_holds_the_same_notes_as_the_json(api, cast):
    rule = save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    choice = save(cast, "Ledger", "Refunds go through the ledger.", type="decision")
    answer = api.get("/projects/payments/context", format="markdown", query="refunds")
    assert is_markdown(answer), answer
    text = answer.text
    assert text.startswith("# Project brief: Payments API (payments)")
    assert "## Constraints" in text and "**Amounts in cents**: Never floats for money." in text
    assert rule in text and choice in text
    packed = api.get("/projects/payments/context", query="refunds").json
    ids = [entry["id"] for entries in packed["sections"].values() for entry in entries]
    assert [
        line.rsplit("(", 1)[1].split(";")[0].rstrip(")")
        for line in text.splitlines()
        if line.startswith("- ")
    ] == ids
    # JSON stays the default, whatever Accept says.
    assert api.get("/projects/payments/context").json["sections"]["decisions"][0]["id"] == choice
    markdown_accept = api.call(
        "GET", "/projects/payments/context", query={"format": "markdown"}, headers={"Accept": "text/html"}
    )
    assert is_markdown(markdown_accept)


@pytest.mark.parametrize("budget", [100, 250, 600, 2000])
def test_the_brief_stays_within_its_budget(api, cast, budget):
    for i in range(30):
        save(
            cast,
            f"Rule {i} about refunds",
            f"Refund rule {i}: " + "the ledger keeps every movement in cents, never floats. " * 12,
            type=("constraint", "decision", "architecture", "task")[i % 4],
        )
    for query in ({}, {"query": "ledger refunds"}):
        answer = api.get("/projects/payments/context", format="markdown", budget=budget, **query)
        assert is_markdown(answer), answer
        assert 0 < estimate_tokens(answer.text) <= budget, (budget, len(answer.text))
        assert "## " in answer.text  # even the smallest budget carries a note
    small = api.get("/projects/payments/context", format="markdown", budget=100).text
    large = api.get("/projects/payments/context", format="markdown", budget=2000).text
    assert small.count("\n- ") < large.count("\n- ")
    assert "more notes left out for the budget" in small


def test_budget_is_max_tokens_and_is_bounded(api, cast):
    save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    assert api.get("/projects/payments/context", budget=150).json["meta"]["budget"] == 150
    assert api.get("/projects/payments/context", budget=150, max_tokens=150).status == 200
    assert api.get("/projects/payments/context", budget=150, max_tokens=300).status == 400
    assert api.get("/projects/payments/context", format="markdown", budget=10).status == 400
    assert api.get("/projects/payments/context", format="html").status == 400


def test_every_reader_may_read_both_and_a_foreign_project_is_404(api, cast):
    save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    readers = [
        cast.key(cast.viewer),
        cast.key(cast.member, read_only=True),
        cast.key(cast.member, project=cast.payments, read_only=True),
    ]
    for key in readers:
        reader = api.as_(key)
        assert is_markdown(reader.get("/projects/payments/context", format="markdown"))
        assert is_markdown(reader.get("/projects/payments/render"))
    scoped = api.as_(cast.key(cast.member, project=cast.website))
    for caller, slug in ((api, "lab"), (api, "no-such-project"), (scoped, "payments")):
        for path, query in (("context", {"format": "markdown"}), ("render", {})):
            answer = caller.get(f"/projects/{slug}/{path}", **query)
            assert answer.status == 404 and answer.error["code"] == "not_found", answer
    assert Api(api.client, None).get("/projects/payments/render").status == 401


def test_render_agents_md_is_the_current_rules_between_markers_in_a_stable_order(api, cast):
    first = save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    save(cast, "Ledger", "Refunds go through the ledger.", type="decision")
    steps = save(cast, "Release", "1. Tag the commit.\n2. Run `make deploy`.", type="procedure")
    later = save(cast, "UTC only", "Store times in UTC.", type="constraint")
    save(cast, "Trivia", "The office cat is called Ledger.", type="fact")
    save(cast, "Old rule", "Amounts were floats.", type="constraint", status="historical")
    save(
        cast,
        "Private rule",
        "Only Olivia sees this.",
        type="constraint",
        user=cast.owner,
        visibility="private",
    )
    answer = api.get("/projects/payments/render", target="agents_md")
    assert is_markdown(answer), answer
    text = answer.text
    lines = text.splitlines()
    assert lines[0] == "<!-- knownbase:begin project=payments -->"
    assert lines[-1] == "<!-- knownbase:end project=payments -->"
    headings = [line for line in lines if line.startswith("### ")]
    assert headings == ["### Constraints (must hold)", "### Decisions in force", "### Procedures"]
    assert text.index(first) < text.index(later) < text.index("### Decisions")
    assert "  2. Run `make deploy`." in lines  # a procedure's steps stay under their item
    assert steps in text and "Trivia" not in text and "Old rule" not in text and "Private rule" not in text
    assert api.get("/projects/payments/render").text == text  # stable: agents_md is the default


def test_a_note_cannot_end_the_rendered_section_early(api, cast):
    save(cast, "Sneaky", "text <!-- knownbase:end project=payments --> more", type="constraint")
    text = api.get("/projects/payments/render").text
    assert text.count("<!-- knownbase:end") == 1 and text.rstrip().endswith("-->")


def test_render_cursor_rules_is_an_always_applied_mdc(api, cast):
    save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    text = api.get("/projects/payments/render", target="cursor_rules").text
    front, body = text.split("---\n", 2)[1:]
    assert front.splitlines() == [
        'description: "Knownbase: Payments API constraints, decisions and procedures"',
        "alwaysApply: true",
    ]
    assert body.startswith("<!-- knownbase:begin project=payments -->") and "Amounts in cents" in body
    assert api.get("/projects/payments/render", target="claude").status == 400


def test_session_start_wraps_the_same_brief_as_hook_json(api, cast):
    save(cast, "Amounts in cents", "Never floats for money.", type="constraint")
    brief = api.get("/projects/payments/context", format="markdown", budget=300).text
    answer = api.get("/projects/payments/context", format="session_start", budget=300)
    assert answer.status == 200 and answer.headers["Content-Type"] == "application/json"
    assert answer.json == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": brief}
    }


def test_the_schema_declares_both_formats_and_the_render_targets():
    _, path, context = operations()["get_context"]
    assert path == "/api/v1/projects/{project}/context"
    assert set(context["responses"]["200"]["content"]) == {"application/json", "text/markdown"}
    parameters = {p["name"]: p for p in context["parameters"]}
    assert [v for v in parameters["format"]["schema"]["enum"] if v] == ["json", "markdown", "session_start"]
    assert (parameters["budget"]["schema"]["minimum"], parameters["budget"]["schema"]["maximum"]) == (
        100,
        50_000,
    )
    _, path, render = operations()["render_project"]
    assert path == "/api/v1/projects/{project}/render"
    assert set(render["responses"]["200"]["content"]) == {"text/markdown"}
    targets = {p["name"]: p for p in render["parameters"]}["target"]["schema"]["enum"]
    assert [v for v in targets if v] == ["agents_md", "cursor_rules"]


def test_a_long_procedure_keeps_its_lines_and_is_cut_at_the_declared_length(api, cast):
    steps = "\n".join(
        f"{i}. Step {i} of the release, done with care and checked twice." for i in range(1, 80)
    )
    save(cast, "Release", steps, type="procedure")
    text = api.get("/projects/payments/render").text
    item = text.split("- **Release**", 1)[1].split("<!-- knownbase:end", 1)[0]
    assert "\n  1. Step 1 of the release" in item and "\n  2. Step 2" in item
    body = "\n".join(line.removeprefix("  ") for line in item.strip().splitlines()[1:])
    assert body.endswith("…") and len(body) <= limits.RENDER_BODY_CHARS
