"""Users, teams (the tenant), memberships, API keys and the audit log."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.db import models
from django.utils import timezone

from accounts.ids import new_public_id


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:
        if not email:
            raise ValueError("users need an email address")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(unique=True)
    name = models.CharField(max_length=150, blank=True)
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    objects = UserManager()

    def __str__(self) -> str:
        return self.email


class Role(models.TextChoices):
    OWNER = "owner"
    ADMIN = "admin"
    MEMBER = "member"
    VIEWER = "viewer"


WRITE_ROLES = frozenset({Role.OWNER, Role.ADMIN, Role.MEMBER})
MANAGE_ROLES = frozenset({Role.OWNER, Role.ADMIN})


def new_team_public_id() -> str:
    return new_public_id("t_")


class Team(models.Model):
    """The tenant: it owns projects, memberships, keys and the plan."""

    # Shown to outside systems (Stripe's client_reference_id, subscription metadata) instead of the
    # primary key, so nothing there reveals how many teams exist or lets one team's id be guessed.
    public_id = models.CharField(max_length=24, unique=True, default=new_team_public_id, editable=False)
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.slug

    def members_used(self) -> int:
        return int(self.memberships.count())

    def api_keys_used(self) -> int:
        return int(self.api_keys.usable().count())


class Membership(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "user"], name="membership_team_user_unique")]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} ({self.role})"

    @property
    def can_write(self) -> bool:
        return self.role in WRITE_ROLES


API_KEY_PREFIX = "kb_"
_LOOKUP_LENGTH = 12
LAST_USED_RESOLUTION = timedelta(minutes=1)


def _digest(raw_key: str) -> str:
    return hashlib.sha256(raw_key.encode()).hexdigest()


class ApiKeyQuerySet(models.QuerySet["ApiKey"]):
    def usable(self, now: datetime | None = None) -> ApiKeyQuerySet:
        now = now or timezone.now()
        return self.filter(revoked_at__isnull=True).filter(
            models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now)
        )


class ApiKey(models.Model):
    """A credential for one user in one team, optionally narrowed to a project and to reads.

    The raw key is `kb_<lookup><secret>`: only the lookup part and a SHA-256 digest of the whole
    key are stored, so the key is shown once and can't be recovered from the database.
    """

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="api_keys")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_keys")
    # The project a key is narrowed to (memory.Project's primary key). A plain column, not a foreign
    # key: accounts sits below memory, and memory revokes a project's keys when it deletes the project.
    project_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    name = models.CharField(max_length=100, default="API key")
    lookup = models.CharField(max_length=_LOOKUP_LENGTH, unique=True)
    digest = models.CharField(max_length=64)
    read_only = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects = ApiKeyQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{API_KEY_PREFIX}{self.lookup}… ({self.name})"

    @property
    def display_prefix(self) -> str:
        return f"{API_KEY_PREFIX}{self.lookup}"

    @classmethod
    def issue(
        cls,
        *,
        team: Team,
        user: User,
        project_id: int | None = None,
        name: str = "API key",
        read_only: bool = False,
        expires_at: datetime | None = None,
    ) -> tuple[ApiKey, str]:
        """Create a key and return it with the raw value, which is never stored."""
        lookup = secrets.token_hex(_LOOKUP_LENGTH // 2)
        raw = f"{API_KEY_PREFIX}{lookup}{secrets.token_urlsafe(32)}"
        key = cls.objects.create(
            team=team,
            user=user,
            project_id=project_id,
            name=name,
            lookup=lookup,
            digest=_digest(raw),
            read_only=read_only,
            expires_at=expires_at,
        )
        return key, raw

    @classmethod
    def authenticate(cls, raw: str, now: datetime | None = None) -> ApiKey | None:
        """The usable key for `raw`, or None. Digests are compared in constant time."""
        if not raw.startswith(API_KEY_PREFIX) or len(raw) < len(API_KEY_PREFIX) + _LOOKUP_LENGTH + 16:
            return None
        lookup = raw[len(API_KEY_PREFIX) : len(API_KEY_PREFIX) + _LOOKUP_LENGTH]
        key = (
            cls.objects.usable(now)
            .select_related("team", "user")
            .filter(lookup=lookup, user__is_active=True)
            .first()
        )
        if key is None or not hmac.compare_digest(key.digest, _digest(raw)):
            return None
        return key

    def touch(self, now: datetime | None = None) -> None:
        """Record use, writing at most once per LAST_USED_RESOLUTION."""
        now = now or timezone.now()
        if self.last_used_at and now - self.last_used_at < LAST_USED_RESOLUTION:
            return
        ApiKey.objects.filter(pk=self.pk).filter(
            models.Q(last_used_at__isnull=True) | models.Q(last_used_at__lt=now - LAST_USED_RESOLUTION)
        ).update(last_used_at=now)
        self.last_used_at = now

    def revoke(self, now: datetime | None = None) -> None:
        if self.revoked_at is None:
            self.revoked_at = now or timezone.now()
            self.save(update_fields=["revoked_at"])


def new_audit_event_id() -> str:
    return new_public_id("ev_")


class AuditEventQuerySet(models.QuerySet["AuditEvent"]):
    def for_team(self, team_id: int) -> AuditEventQuerySet:
        return self.filter(team_id=team_id)


class AuditEvent(models.Model):
    """Who did what, where and through which client. Never holds note text or secrets.

    The project is kept as its id and slug at the time, so the row outlives the project."""

    public_id = models.CharField(max_length=24, unique=True, default=new_audit_event_id, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, related_name="+")
    project_id = models.BigIntegerField(null=True, blank=True)
    project_slug = models.CharField(max_length=60, blank=True)
    actor = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")
    client = models.CharField(max_length=100, blank=True)
    auth_method = models.CharField(max_length=20, blank=True)
    action = models.CharField(max_length=60)
    object_id = models.CharField(max_length=40, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["team", "-created_at"], name="audit_team_time_idx")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.action} {self.object_id}"
