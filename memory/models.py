"""Projects and the notes they hold, with revisions, links, idempotency records and screening rules.

Notes are written only through memory.store; these models keep the rules that belong to the data.
Every query made for a caller starts from a `visible_to(principal)` manager method, so an unscoped
query is the one that looks wrong in review.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models.functions import Upper
from django.utils import timezone

from accounts.ids import new_public_id
from accounts.limits import CLIENT_NAME, DIGEST, PROJECT_SLUG, PUBLIC_ID
from accounts.principal import Principal
from memory.fields import EmbeddingField
from memory.ids import new_note_id
from memory.limits import (
    BODY,
    COMMIT,
    CREDENTIAL,
    DELETE_REASON,
    EMBEDDING_MODEL,
    IDEMPOTENCY_KEY,
    OPERATION,
    PATH_PATTERN,
    PROJECT_NAME,
    PROJECT_TEXT,
    RULE_NAME,
    RULE_VALUE,
    SOURCE,
    TAG,
    TITLE,
    TRANSFER_FORMAT,
)


class NoteType(models.TextChoices):
    DECISION = "decision"
    CONSTRAINT = "constraint"
    ARCHITECTURE = "architecture"
    FACT = "fact"
    INCIDENT = "incident"
    FAILED_APPROACH = "failed_approach"
    PROCEDURE = "procedure"
    STATUS = "status"
    TASK = "task"
    HANDOFF = "handoff"
    PREFERENCE = "preference"
    REFERENCE = "reference"
    NOTE = "note"


class NoteStatus(models.TextChoices):
    CURRENT = "current"
    SUPERSEDED = "superseded"
    HISTORICAL = "historical"
    DISPUTED = "disputed"
    PENDING = "pending"


class Visibility(models.TextChoices):
    TEAM = "team"
    PRIVATE = "private"


class LinkKind(models.TextChoices):
    RELATES_TO = "relates_to"
    DEPENDS_ON = "depends_on"
    CONTRADICTS = "contradicts"
    DERIVED_FROM = "derived_from"


def new_project_id() -> str:
    return new_public_id("p_")


class ProjectQuerySet(models.QuerySet["Project"]):
    def visible_to(self, principal: Principal) -> ProjectQuerySet:
        """The caller's team's projects, narrowed to one for a project-scoped credential."""
        projects = self.filter(team_id=principal.team_id)
        if principal.project_id is not None:
            projects = projects.filter(pk=principal.project_id)
        return projects


class Project(models.Model):
    # Stable across renames (slugs change): what REST URLs, cursors and links carry.
    public_id = models.CharField(
        max_length=PUBLIC_ID.max_length, unique=True, default=new_project_id, editable=False
    )
    team = models.ForeignKey("accounts.Team", on_delete=models.CASCADE, related_name="projects")
    slug = models.SlugField(max_length=PROJECT_SLUG.max_length)
    name = models.CharField(max_length=PROJECT_NAME.max_length)
    summary = models.TextField(max_length=PROJECT_TEXT.max_length, blank=True)
    agent_instructions = models.TextField(max_length=PROJECT_TEXT.max_length, blank=True)
    default_context_budget = models.PositiveIntegerField(
        null=True, blank=True, help_text="Token budget for get_context when the caller gives none."
    )
    # The last change sequence number given to one of the project's notes (see Note.change_seq).
    change_seq = models.BigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = ProjectQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "slug"], name="project_team_slug_unique")]
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


def _search_document() -> models.Expression:
    """Weighted full-text document: title (A) > tags (B) > body (C)."""
    tags_text = models.Func(models.F("tags"), function="knownbase_tags_text", output_field=models.TextField())
    return (
        SearchVector("title", config="english", weight="A")
        + SearchVector(tags_text, config="english", weight="B")
        + SearchVector("body", config="english", weight="C")
    )


class NoteQuerySet(models.QuerySet["Note"]):
    def visible_to(self, principal: Principal) -> NoteQuerySet:
        """Notes of the caller's visible projects: team notes plus the caller's own private ones,
        deleted ones included (chain .live() to drop them). Staff see team notes only: moderation
        never opens anyone's private notes, not even ones a staff member wrote as a member."""
        shared = models.Q(visibility=Visibility.TEAM)
        notes = self.filter(team_id=principal.team_id).filter(
            shared if principal.is_staff else shared | models.Q(author_id=principal.user_id)
        )
        if principal.project_id is not None:
            notes = notes.filter(project_id=principal.project_id)
        # The embedding (hundreds of floats) and the full-text document are for the database's own
        # ranking; loading them into every Note would dominate read latency.
        return notes.defer("embedding", "search_document")

    def live(self) -> NoteQuerySet:
        return self.filter(deleted_at__isnull=True)


class Note(models.Model):
    public_id = models.CharField(
        max_length=PUBLIC_ID.max_length, unique=True, default=new_note_id, editable=False
    )
    team = models.ForeignKey("accounts.Team", on_delete=models.CASCADE, related_name="notes")
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="notes")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    last_edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    type = models.CharField(max_length=20, choices=NoteType.choices, default=NoteType.NOTE)
    status = models.CharField(max_length=12, choices=NoteStatus.choices, default=NoteStatus.CURRENT)
    title = models.CharField(max_length=TITLE.max_length)
    body = models.TextField(max_length=BODY.max_length, blank=True)
    importance = models.FloatField(default=0.5)
    tags = ArrayField(models.CharField(max_length=TAG.max_length), default=list, blank=True)
    # Globs of the code the note is about (memory.notes.paths), relative to the repository root.
    paths = ArrayField(models.CharField(max_length=PATH_PATTERN.max_length), default=list, blank=True)
    # Set when a reported code change touched one of `paths`: the note may no longer be true. A flag,
    # not a status: the note stays where it was. An edit or a confirmation clears both.
    review_commit = models.CharField(max_length=COMMIT.max_length, blank=True)
    review_flagged_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=SOURCE.max_length, blank=True, help_text="Which client wrote it.")
    last_edited_client = models.CharField(
        max_length=CLIENT_NAME.max_length, blank=True, help_text="Which client made the current version."
    )
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.TEAM)
    superseded_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="supersedes"
    )
    version = models.PositiveIntegerField(default=1)
    content_hash = models.CharField(max_length=DIGEST.max_length, db_index=True)
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)
    delete_reason = models.CharField(max_length=DELETE_REASON.max_length, blank=True)
    embedding = EmbeddingField(null=True, blank=True)
    embedding_model = models.CharField(max_length=EMBEDDING_MODEL.max_length, blank=True)
    embedding_hash = models.CharField(
        max_length=DIGEST.max_length, blank=True, help_text="content_hash the embedding is of."
    )
    search_document = models.GeneratedField(
        expression=_search_document(), output_field=SearchVectorField(), db_persist=True
    )
    # Set by a database trigger (migration 0003) on every insert and every change a reader can see,
    # from the project's counter under the project row's lock: within a project, sequence order is
    # commit order, so the change feed never passes a change that commits later.
    change_seq = models.BigIntegerField(default=0, editable=False)
    created_seq = models.BigIntegerField(default=0, editable=False)

    objects = NoteQuerySet.as_manager()

    class Meta:
        indexes = [
            # Change feed: a project's changes in sequence (commit) order; `since` starts by time.
            models.Index(fields=["project", "change_seq"], name="note_feed_seq_idx"),
            models.Index(fields=["project", "updated_at", "id"], name="note_feed_idx"),
            models.Index(fields=["project", "status", "type"], name="note_project_status_type_idx"),
            models.Index(fields=["project", "content_hash"], name="note_project_hash_idx"),
            # The dashboard: the team's latest changes, and the notes written today.
            models.Index(fields=["team", "-updated_at"], name="note_team_updated_idx"),
            models.Index(fields=["team", "-created_at"], name="note_team_created_idx"),
            GinIndex(fields=["search_document"], name="note_search_gin"),
            GinIndex(OpClass(Upper("title"), name="gin_trgm_ops"), name="note_title_trgm"),
            GinIndex(fields=["tags"], name="note_tags_gin"),
            # get_context's sections: the top live notes of one type by importance, then recency.
            models.Index(
                "project",
                "type",
                models.F("importance").desc(),
                models.F("updated_at").desc(),
                name="note_live_type_rank_idx",
                condition=models.Q(deleted_at__isnull=True, status__in=["current", "disputed", "pending"]),
            ),
            # The notes cap checked on every write counts the team's live notes: an index-only scan
            # (~1.5 ms at 20,000 notes) instead of reading every row (~25 ms; README, "Query plans").
            models.Index(
                fields=["team"], name="note_team_live_idx", condition=models.Q(deleted_at__isnull=True)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.public_id} {self.title[:40]}"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None


class NoteRevision(models.Model):
    """The state of a note before an edit; kept up to the plan's cap per note, oldest pruned first."""

    note = models.ForeignKey(Note, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=20, choices=NoteType.choices)
    status = models.CharField(max_length=12, choices=NoteStatus.choices)
    title = models.CharField(max_length=TITLE.max_length)
    body = models.TextField(max_length=BODY.max_length, blank=True)
    tags = ArrayField(models.CharField(max_length=TAG.max_length), default=list, blank=True)
    importance = models.FloatField(default=0.5)
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    client = models.CharField(max_length=CLIENT_NAME.max_length, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["note", "version"], name="revision_note_version_unique")
        ]
        ordering = ["-version"]

    def __str__(self) -> str:
        return f"{self.note_id} v{self.version}"


class NoteLinkQuerySet(models.QuerySet["NoteLink"]):
    def visible_to(self, principal: Principal) -> NoteLinkQuerySet:
        """Links whose two ends the caller can both see (a private note's links stay private)."""
        visible = Note.objects.visible_to(principal).live().values("pk")
        return self.filter(from_note_id__in=visible, to_note_id__in=visible)


class NoteLink(models.Model):
    from_note = models.ForeignKey(Note, on_delete=models.CASCADE, related_name="links_out")
    to_note = models.ForeignKey(Note, on_delete=models.CASCADE, related_name="links_in")
    kind = models.CharField(max_length=20, choices=LinkKind.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = NoteLinkQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["from_note", "to_note", "kind"], name="link_unique"),
            models.CheckConstraint(condition=~models.Q(from_note=models.F("to_note")), name="link_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.from_note_id} {self.kind} {self.to_note_id}"


class IdempotencyRecord(models.Model):
    """The stored result of a write made with an idempotency key, returned again on a retry."""

    team = models.ForeignKey("accounts.Team", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The Principal's credential_id: a key belongs to one credential, so another key or session of the
    # same user never replays this answer (a created API key's secret above all).
    credential = models.CharField(max_length=CREDENTIAL.max_length, default="", blank=True)
    # A key is the caller's within one project: the answer of one project's write is never replayed
    # to a request about another. Null for writes that belong to the team, not to a project that
    # exists yet (creating or importing a project, creating an API key).
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="+", null=True, blank=True)
    key = models.CharField(max_length=IDEMPOTENCY_KEY.max_length)
    operation = models.CharField(max_length=OPERATION.max_length)
    # SHA-256 of the validated request: the same key with a different request is refused.
    request_hash = models.CharField(max_length=DIGEST.max_length)
    response = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["team", "user", "credential", "project", "operation", "key"],
                condition=models.Q(project__isnull=False),
                name="idempotency_project_unique",
            ),
            models.UniqueConstraint(
                fields=["team", "user", "credential", "operation", "key"],
                condition=models.Q(project__isnull=True),
                name="idempotency_team_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.operation}:{self.key}"


def new_screening_rule_id() -> str:
    return new_public_id("sr_")


class ScreeningRuleQuerySet(models.QuerySet["ScreeningRule"]):
    def visible_to(self, principal: Principal) -> ScreeningRuleQuerySet:
        return self.filter(team_id=principal.team_id)


class ScreeningRule(models.Model):
    """A team's own screening pattern, or an exact value the team allows through the gate."""

    class Kind(models.TextChoices):
        PATTERN = "pattern"
        ALLOW = "allow"

    public_id = models.CharField(
        max_length=PUBLIC_ID.max_length, unique=True, default=new_screening_rule_id, editable=False
    )
    team = models.ForeignKey("accounts.Team", on_delete=models.CASCADE, related_name="screening_rules")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=RULE_NAME.max_length)
    value = models.CharField(max_length=RULE_VALUE.max_length)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = ScreeningRuleQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "kind", "value"], name="screening_rule_unique")
        ]

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"


def new_transfer_job_id() -> str:
    return new_public_id("tj_")


class TransferJobQuerySet(models.QuerySet["TransferJob"]):
    def visible_to(self, principal: Principal) -> TransferJobQuerySet:
        """A job is its requester's own, in the team (and the project scope) it was asked in."""
        jobs = self.filter(team_id=principal.team_id, user_id=principal.user_id)
        if principal.project_id is not None:
            jobs = jobs.filter(project_id=principal.project_id)
        return jobs


class TransferJob(models.Model):
    """An export or import run in the background, with its progress for the page that waits on it.

    Written only by memory.transfer.jobs. An export keeps the file it produced (`content`) for its
    download link; an import keeps the validated document it was given (`document`) until it has
    succeeded, so a failed import can be retried.
    """

    class Kind(models.TextChoices):
        EXPORT = "export"
        IMPORT = "import"

    class Status(models.TextChoices):
        STAGED = "staged"  # an import checked by a dry run, waiting for the person to confirm it
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    public_id = models.CharField(
        max_length=PUBLIC_ID.max_length, unique=True, default=new_transfer_job_id, editable=False
    )
    team = models.ForeignKey("accounts.Team", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The export's project, or the project an import created; an import starts without one.
    project = models.ForeignKey(Project, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # The credential that asked (a Principal's credential_id): the worker acts as it, if still live.
    credential_id = models.CharField(max_length=CREDENTIAL.max_length)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    format = models.CharField(max_length=TRANSFER_FORMAT.max_length, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # Plain-data summary: the dry run's counts, then what was exported or imported.
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    slug = models.CharField(
        max_length=PROJECT_SLUG.max_length, blank=True
    )  # an import's requested slug and name, if any
    name = models.CharField(max_length=PROJECT_NAME.max_length, blank=True)
    document = models.JSONField(null=True, blank=True)
    content = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # When the person last asked (start, confirm, retry) or the job last moved.
    updated_at = models.DateTimeField(default=timezone.now)
    # When a message for it was last sent to the queue (by the person's request or the sweeper).
    queued_at = models.DateTimeField(null=True, blank=True)
    # Written every TRANSFER_JOB_HEARTBEAT_SECONDS by the worker running it: its sign of life.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Runs started; a run writes only while the count is still its own, so a run the sweeper gave up
    # on cannot overwrite the retry that followed it.
    attempts = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = TransferJobQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["team", "user", "-created_at"], name="transfer_job_owner_idx"),
            # The sweeper's every-minute look at unfinished jobs reads only these.
            models.Index(
                fields=["status"],
                name="transfer_job_active_idx",
                condition=models.Q(status__in=["queued", "running"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.public_id} {self.status}"
