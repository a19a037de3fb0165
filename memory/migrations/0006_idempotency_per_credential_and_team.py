"""Idempotency records name the caller's credential, and a record may belong to the team (no project).

Records written before this migration get an empty credential, which no API key, OAuth connection or
session has: a retry of a call made before the upgrade runs once more, as a call without a key would.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_team_public_id"),
        ("memory", "0005_idempotency_per_project_and_request"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="idempotencyrecord",
            name="idempotency_project_unique",
        ),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="credential",
            field=models.CharField(blank=True, default="", max_length=120),
        ),
        migrations.AlterField(
            model_name="idempotencyrecord",
            name="project",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="memory.project",
            ),
        ),
        migrations.AddConstraint(
            model_name="idempotencyrecord",
            constraint=models.UniqueConstraint(
                condition=models.Q(("project__isnull", False)),
                fields=("team", "user", "credential", "project", "operation", "key"),
                name="idempotency_project_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="idempotencyrecord",
            constraint=models.UniqueConstraint(
                condition=models.Q(("project__isnull", True)),
                fields=("team", "user", "credential", "operation", "key"),
                name="idempotency_team_unique",
            ),
        ),
    ]
