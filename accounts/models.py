"""Users, teams (the tenant), memberships, API keys, OAuth connections and the audit log."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.db import models
from django.utils import timezone
from oauth2_provider.models import AccessToken, RefreshToken

from accounts import key_format, limits
from accounts.ids import new_public_id
from accounts.tokens import invitation_max_age, read_invitation_token, sign_invitation_secret

if TYPE_CHECKING:
    from accounts.principal import Principal


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
    email = models.EmailField(max_length=limits.EMAIL.max_length, unique=True)
    name = models.CharField(max_length=limits.DISPLAY_NAME.max_length, blank=True)
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)
    # Set when the user followed a signed link sent to `email`; inviting others needs it.
    email_verified_at = models.DateTimeField(null=True, blank=True)

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    objects = UserManager()

    def __str__(self) -> str:
        return self.email

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None


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
    public_id = models.CharField(
        max_length=limits.PUBLIC_ID.max_length, unique=True, default=new_team_public_id, editable=False
    )
    name = models.CharField(max_length=limits.TEAM_NAME.max_length)
    slug = models.SlugField(max_length=limits.TEAM_SLUG.max_length, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        # How staff find a team in the admin (lists, the plan form's autocomplete): name and slug.
        return f"{self.name} ({self.slug})"

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


def new_invitation_id() -> str:
    return new_public_id("inv_")


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def pending(self, now: datetime | None = None) -> InvitationQuerySet:
        now = now or timezone.now()
        return self.filter(accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now)


class Invitation(models.Model):
    """An invitation to join a team with a role, sent to one address.

    The emailed link carries a random secret, signed and timestamped (accounts.tokens); only the
    secret's SHA-256 digest is stored, and accepting marks the row used, so a link works once.
    """

    public_id = models.CharField(
        max_length=limits.PUBLIC_ID.max_length, unique=True, default=new_invitation_id, editable=False
    )
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(max_length=limits.EMAIL.max_length)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    invited_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")
    digest = models.CharField(max_length=limits.DIGEST.max_length, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["team", "email"], name="invitation_team_email_idx")]

    def __str__(self) -> str:
        return f"{self.email} to {self.team_id} ({self.role})"

    @classmethod
    def issue(cls, *, team: Team, email: str, role: str, invited_by: User | None) -> tuple[Invitation, str]:
        """Create an invitation and return it with the link token, which is never stored."""
        secret = secrets.token_urlsafe(32)
        invitation = cls.objects.create(
            team=team,
            email=email.lower(),
            role=role,
            invited_by=invited_by,
            digest=_digest(secret),
            expires_at=timezone.now() + invitation_max_age(),
        )
        return invitation, sign_invitation_secret(secret)

    @classmethod
    def for_token(cls, token: str) -> Invitation | None:
        """The invitation a link names, whatever its state, or None for a forged or stale link."""
        secret = read_invitation_token(token)
        if secret is None:
            return None
        return cls.objects.select_related("team", "invited_by").filter(digest=_digest(secret)).first()

    @property
    def state(self) -> str:
        if self.accepted_at is not None:
            return "accepted"
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        return "pending"


API_KEY_PREFIX = key_format.PREFIX
_LOOKUP_LENGTH = key_format.LOOKUP_LENGTH
LAST_USED_RESOLUTION = timedelta(minutes=1)


def _digest(raw_key: str) -> str:
    return hashlib.sha256(raw_key.encode()).hexdigest()


class ApiKeyQuerySet(models.QuerySet["ApiKey"]):
    def visible_to(self, principal: Principal) -> ApiKeyQuerySet:
        """The team's keys for owners and admins; a member's or viewer's own keys otherwise."""
        keys = self.filter(team_id=principal.team_id)
        return keys if principal.can_manage else keys.filter(user_id=principal.user_id)

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
    name = models.CharField(max_length=limits.API_KEY_NAME.max_length, default="API key")
    lookup = models.CharField(max_length=_LOOKUP_LENGTH, unique=True)
    digest = models.CharField(max_length=limits.DIGEST.max_length)
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
        lookup, raw = key_format.mint()
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
    def authenticate(
        cls, raw: str, now: datetime | None = None, *, keys: ApiKeyQuerySet | None = None
    ) -> ApiKey | None:
        """The usable key for `raw`, or None. Digests are compared in constant time.

        The key comes with its team, user and `member_role` (the user's role in the key's team, None
        when they left it) in one query; `keys` may load more alongside (edge.principals: the plan)."""
        if not raw.startswith(API_KEY_PREFIX) or len(raw) < len(API_KEY_PREFIX) + _LOOKUP_LENGTH + 16:
            return None
        lookup = raw[len(API_KEY_PREFIX) : len(API_KEY_PREFIX) + _LOOKUP_LENGTH]
        role = Membership.objects.filter(
            team_id=models.OuterRef("team_id"), user_id=models.OuterRef("user_id")
        )
        key = (
            (keys if keys is not None else cls.objects.all())
            .usable(now)
            .select_related("team", "user")
            .annotate(member_role=models.Subquery(role.values("role")[:1]))
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


# The product's OAuth scopes (DOT's SCOPES setting): every token that reaches /mcp carries `read`;
# `write` is granted when the user chose read-write on the consent page.
OAUTH_READ_SCOPE = "read"
OAUTH_WRITE_SCOPE = "write"


def new_oauth_connection_id() -> str:
    return new_public_id("oc_")


def same_resource(a: str, b: str) -> bool:
    """RFC 8707 resource indicators naming the same resource: scheme and host compared without
    case, a trailing slash aside; everything else byte for byte."""
    left, right = urlsplit(a), urlsplit(b)
    return (
        left.scheme.lower() == right.scheme.lower()
        and left.netloc.lower() == right.netloc.lower()
        and left.path.rstrip("/") == right.path.rstrip("/")
        and left.query == right.query
        and not left.fragment
        and not right.fragment
    )


def code_digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


class OAuthConnectionQuerySet(models.QuerySet["OAuthConnection"]):
    def live(self) -> OAuthConnectionQuerySet:
        """Connections whose tokens still work: not revoked, and their refresh-token family still
        has an unrevoked member (a reused refresh token revokes the whole family)."""
        live_family = RefreshToken.objects.filter(token_family=models.OuterRef("token_family"), revoked=None)
        return self.filter(revoked_at__isnull=True, token_family__isnull=False).filter(
            models.Exists(live_family)
        )


class OAuthConnection(models.Model):
    """What a user approved on the consent page for one OAuth client: the team it acts in, optionally
    one project, and read-only or read-write. The tokens it produced (one refresh-token family) act
    exactly like an API key of that scope."""

    public_id = models.CharField(
        max_length=limits.PUBLIC_ID.max_length, unique=True, default=new_oauth_connection_id, editable=False
    )
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="oauth_connections")
    application = models.ForeignKey("oauth2_provider.Application", on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="oauth_connections")
    # memory.Project's primary key, a plain column for the same reason as ApiKey.project_id.
    project_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    read_only = models.BooleanField(default=False)
    # The authorization code the consent produced, until the client exchanges it for tokens.
    code = models.ForeignKey("oauth2_provider.Grant", on_delete=models.SET_NULL, null=True, related_name="+")
    # Set when the code is exchanged: every later access and refresh token belongs to this family.
    token_family = models.UUIDField(null=True, blank=True, unique=True)
    # SHA-256 of the exchanged code: DOT deletes the grant, and a later replay of that code must still
    # find the tokens it produced to revoke them (RFC 6749 §4.1.2).
    code_digest = models.CharField(max_length=limits.DIGEST.max_length, blank=True, default="", db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = OAuthConnectionQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"], name="oauth_conn_user_time_idx")]

    def __str__(self) -> str:
        return self.public_id

    @classmethod
    def bind_token_family(cls, code: str, token_family: uuid.UUID) -> None:
        """Tie the tokens minted for `code` to the connection the consent for that code created."""
        cls.objects.filter(code__code=code, token_family__isnull=True).update(
            token_family=token_family, code=None, code_digest=code_digest(code)
        )

    @classmethod
    def authenticate(
        cls, raw_token: str, resource: str, now: datetime | None = None
    ) -> tuple[OAuthConnection, AccessToken] | None:
        """The live connection and access token for `raw_token`, or None when the token is unknown,
        expired, not issued for `resource`, lacks the product's scope (the registration token of
        dynamic client registration has only its own), or its connection was revoked."""
        token = (
            AccessToken.objects.select_related("application")
            .filter(token_checksum=hashlib.sha256(raw_token.encode()).hexdigest())
            .first()
        )
        now = now or timezone.now()
        if token is None or token.user_id is None or token.expires <= now:
            return None
        if OAUTH_READ_SCOPE not in token.scope.split():
            return None
        if not any(same_resource(issued, resource) for issued in token.resource or []):
            return None
        # Every live access token is paired with the refresh token minted with it (rotation
        # revokes the pair together), which names the family.
        family = (
            RefreshToken.objects.filter(access_token_id=token.pk, revoked__isnull=True)
            .values_list("token_family", flat=True)
            .first()
        )
        if family is None:
            return None
        connection = (
            cls.objects.select_related("application")
            .filter(
                token_family=family,
                revoked_at__isnull=True,
                user_id=token.user_id,
                application_id=token.application_id,
                user__is_active=True,
            )
            .first()
        )
        if connection is None:
            return None
        return connection, token

    @property
    def client_name(self) -> str:
        return str(self.application.name or self.application.client_id)

    def touch(self, now: datetime | None = None) -> None:
        """Record use, writing at most once per LAST_USED_RESOLUTION."""
        now = now or timezone.now()
        if self.last_used_at and now - self.last_used_at < LAST_USED_RESOLUTION:
            return
        OAuthConnection.objects.filter(pk=self.pk).filter(
            models.Q(last_used_at__isnull=True) | models.Q(last_used_at__lt=now - LAST_USED_RESOLUTION)
        ).update(last_used_at=now)
        self.last_used_at = now


def new_audit_event_id() -> str:
    return new_public_id("ev_")


class AuditEventQuerySet(models.QuerySet["AuditEvent"]):
    def for_team(self, team_id: int) -> AuditEventQuerySet:
        return self.filter(team_id=team_id)


class AuditEvent(models.Model):
    """Who did what, where and through which client. Never holds note text or secrets.

    The project is kept as its id and slug at the time, so the row outlives the project."""

    public_id = models.CharField(
        max_length=limits.PUBLIC_ID.max_length, unique=True, default=new_audit_event_id, editable=False
    )
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, related_name="+")
    project_id = models.BigIntegerField(null=True, blank=True)
    project_slug = models.CharField(max_length=limits.PROJECT_SLUG.max_length, blank=True)
    actor = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")
    client = models.CharField(max_length=limits.CLIENT_NAME.max_length, blank=True)
    auth_method = models.CharField(max_length=limits.AUTH_METHOD.max_length, blank=True)
    action = models.CharField(max_length=limits.ACTION.max_length)
    object_id = models.CharField(max_length=limits.AUDIT_OBJECT_ID.max_length, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["team", "-created_at"], name="audit_team_time_idx")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.action} {self.object_id}"
