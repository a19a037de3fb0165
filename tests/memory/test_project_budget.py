"""A project's default context budget: set through update_project, used by get_context when the
caller gives no max_tokens."""

from __future__ import annotations

import pytest

from accounts.errors import Forbidden, InvalidArgument
from memory import store
from memory.models import Project
from tests.mcp_gateway.state import save


def test_update_project_sets_and_clears_the_budget(cast):
    result = store.update_project(cast.principal(cast.member), "payments", default_context_budget=1500)
    assert result["project"]["default_context_budget"] == 1500
    assert Project.objects.get(pk=cast.payments.pk).default_context_budget == 1500
    cleared = store.update_project(cast.principal(cast.member), "payments", default_context_budget=0)
    assert cleared["project"]["default_context_budget"] is None


@pytest.mark.parametrize("budget", [50, -1, 50_001, "1000", 1.5, True])
def test_bad_budgets_are_refused(cast, budget):
    with pytest.raises(InvalidArgument):
        store.update_project(cast.principal(cast.member), "payments", default_context_budget=budget)
    assert Project.objects.get(pk=cast.payments.pk).default_context_budget is None


def test_viewers_cannot_set_it(cast):
    with pytest.raises(Forbidden):
        store.update_project(cast.principal(cast.viewer), "payments", default_context_budget=1000)


def test_get_context_uses_it_unless_max_tokens_is_given(cast):
    for n in range(30):
        save(cast, f"Constraint {n}", "A rule that matters. " * 20, type="constraint")
    store.update_project(cast.principal(cast.member), "payments", default_context_budget=300)
    context = store.get_context(cast.principal(cast.member), "payments")
    assert context["meta"]["budget"] == 300
    assert context["meta"]["estimated_tokens"] <= 300
    explicit = store.get_context(cast.principal(cast.member), "payments", max_tokens=2000)
    assert explicit["meta"]["budget"] == 2000


def test_get_project_can_skip_the_note_count(cast):
    save(cast, "One", "one")
    assert store.get_project(cast.principal(cast.member), "payments")["project"]["notes"] == 1
    lean = store.get_project(cast.principal(cast.member), "payments", count_notes=False)["project"]
    assert "notes" not in lean and lean["slug"] == "payments"
    with pytest.raises(InvalidArgument):
        store.get_project(cast.principal(cast.member), "payments", count_notes="no")  # type: ignore[arg-type]
