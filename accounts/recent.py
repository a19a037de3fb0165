"""Credentials resolved in the last second, kept per process so a warm call asks the database nothing.

Every MCP and REST call turns its Bearer credential into a Principal (key → membership → plan). The
entry points keep what they resolved here, keyed by the credential's digest (never the secret), for
RECENT_SECONDS. Each entry is tagged with the team and user it depends on; saving or deleting one of
the rows a resolution reads (keys, memberships, teams, users, OAuth connections and tokens,
subscriptions, plans, projects) forgets the affected entries in this process at once, and again when
the transaction commits. Other processes see the change when their entry expires, within
RECENT_SECONDS. Writes that bypass signals (queryset.update) are seen by expiry only.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import models, transaction
from django.db.models.signals import post_delete, post_save

from accounts.limits import RECENT_MAX_ENTRIES, RECENT_SECONDS
from accounts.principal import Principal

# The clock entries expire by: monotonic, so a wall-clock step never keeps an entry alive. Tests
# replace it (tests/conftest.py stops it) to move time without sleeping.
clock: Callable[[], float] = time.monotonic

Tag = tuple[str, int]
V = TypeVar("V")


def team_tag(team_id: int) -> Tag:
    return ("team", team_id)


def user_tag(user_id: int) -> Tag:
    return ("user", user_id)


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@dataclass(frozen=True)
class _Entry(Generic[V]):
    value: V
    expires: float
    tags: frozenset[Tag]


class Recent(Generic[V]):
    """A bounded map whose entries live RECENT_SECONDS and can be forgotten by tag; thread-safe."""

    def __init__(self, max_entries: int = RECENT_MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, _Entry[V]] = OrderedDict()
        self._lock = threading.Lock()
        # Counts forgets: a resolution that began before one may have read rows it changed.
        self._generation = 0

    @property
    def generation(self) -> int:
        """Read before resolving; pass to put, which keeps nothing if a forget happened since."""
        return self._generation

    def get(self, key: Hashable) -> V | None:
        """The live value under `key`, or None."""
        now = clock()
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry.expires <= now:
                del self._entries[key]
                return None
            return entry.value

    def put(self, key: Hashable, value: V, tags: Iterable[Tag], generation: int) -> None:
        entry = _Entry(value, clock() + RECENT_SECONDS, frozenset(tags))
        with self._lock:
            if generation != self._generation:
                return
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def forget(self, tags: Iterable[Tag]) -> None:
        """Drop every entry that depends on one of `tags`."""
        wanted = frozenset(tags)
        with self._lock:
            self._generation += 1
            for key in [key for key, entry in self._entries.items() if entry.tags & wanted]:
                del self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


# Bearer credential → its Principal (plan rate included), for edge.principals.
principals: Recent[Principal] = Recent()


def forget(tags: Iterable[Tag]) -> None:
    """Forget now and again when the current transaction commits: a resolution that ran in between
    read the rows as they were before the change."""
    tags = tuple(tags)
    principals.forget(tags)
    transaction.on_commit(lambda: principals.forget(tags))


def forget_all() -> None:
    principals.clear()
    transaction.on_commit(principals.clear)


def _tags_of(instance: Any) -> list[Tag]:
    """The teams and users whose resolved credentials a changed row may alter."""
    tags = []
    team_id = getattr(instance, "team_id", None)
    if isinstance(team_id, int):
        tags.append(team_tag(team_id))
    user_id = getattr(instance, "user_id", None)
    if isinstance(user_id, int):
        tags.append(user_tag(user_id))
    return tags


def _changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget(_tags_of(instance))


def _team_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget([team_tag(instance.pk)])


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget([user_tag(instance.pk)])


def _everything_changed(sender: Any, **kwargs: Any) -> None:
    forget_all()


def forget_on_change(sender: type[models.Model], *, everything: bool = False) -> None:
    """Saving or deleting a `sender` row forgets the entries of its team and user (its `team_id`
    and `user_id`), or every entry with `everything`. Each app wires its own models in ready():
    accounts here, billing its subscriptions and plans, memory its projects."""
    receiver = _everything_changed if everything else _changed
    for name, signal in (("save", post_save), ("delete", post_delete)):
        signal.connect(
            receiver, sender=sender, weak=False, dispatch_uid=f"recent:{name}:{sender._meta.label}"
        )


def connect() -> None:
    """Wire the rows of accounts and the OAuth provider that a resolution reads (AccountsConfig.ready)."""
    from oauth2_provider.models import AccessToken, RefreshToken

    from accounts.models import ApiKey, Membership, OAuthConnection, Team, User

    for model in (ApiKey, Membership, OAuthConnection, AccessToken, RefreshToken):
        forget_on_change(model)
    for name, signal in (("save", post_save), ("delete", post_delete)):
        signal.connect(_team_changed, sender=Team, weak=False, dispatch_uid=f"recent:{name}:team")
        signal.connect(_user_changed, sender=User, weak=False, dispatch_uid=f"recent:{name}:user")
