"""accounts.recent: entries live RECENT_SECONDS on its clock, are forgotten by tag, are bounded in
number, and a resolution that raced a forget keeps nothing."""

from __future__ import annotations

from accounts import recent
from accounts.limits import RECENT_SECONDS
from accounts.recent import Recent, team_tag, user_tag


def test_an_entry_lives_recent_seconds_on_the_clock(recent_clock):
    cache: Recent[str] = Recent()
    cache.put("k", "v", [team_tag(1)], cache.generation)
    recent_clock.advance(RECENT_SECONDS * 0.99)
    assert cache.get("k") == "v"
    recent_clock.advance(RECENT_SECONDS * 0.02)
    assert cache.get("k") is None
    assert len(cache) == 0


def test_forgetting_a_tag_drops_only_the_entries_that_carry_it(recent_clock):
    cache: Recent[str] = Recent()
    cache.put("acme-mia", "a", [team_tag(1), user_tag(10)], cache.generation)
    cache.put("acme-olivia", "b", [team_tag(1), user_tag(11)], cache.generation)
    cache.put("globex-oscar", "c", [team_tag(2), user_tag(12)], cache.generation)
    cache.forget([user_tag(10)])
    assert (cache.get("acme-mia"), cache.get("acme-olivia")) == (None, "b")
    cache.forget([team_tag(1)])
    assert (cache.get("acme-olivia"), cache.get("globex-oscar")) == (None, "c")


def test_a_resolution_that_began_before_a_forget_is_not_kept(recent_clock):
    cache: Recent[str] = Recent()
    before = cache.generation
    cache.forget([team_tag(1)])  # a revocation lands while the rows were being read
    cache.put("k", "stale", [team_tag(1)], before)
    assert cache.get("k") is None
    cache.put("k", "fresh", [team_tag(1)], cache.generation)
    assert cache.get("k") == "fresh"


def test_the_least_recently_resolved_go_first_beyond_the_bound(recent_clock):
    cache: Recent[int] = Recent(max_entries=3)
    for i in range(5):
        cache.put(i, i, [team_tag(i)], cache.generation)
    assert len(cache) == 3
    assert [cache.get(i) for i in range(5)] == [None, None, 2, 3, 4]


def test_the_module_clock_is_the_one_tests_stop(recent_clock):
    assert recent.clock() == recent.clock()
    recent_clock.advance(5)
    assert recent.clock() == recent_clock.now
