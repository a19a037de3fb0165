"""Idempotency records are scoped to a project and bound to a digest of the request.

Records written before this migration name neither, so none could ever match a new look-up; they are
deleted first (a retry of a call made before the upgrade then runs once more, as a call without a key
would) so the new columns can be required.
"""

import django.db.models.deletion
from django.db import migrations, models


def forget_unscoped_records(apps, schema_editor):
    apps.get_model("memory", "IdempotencyRecord").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0004_note_last_edited_client"),
    ]

    operations = [
        migrations.RunPython(forget_unscoped_records, migrations.RunPython.noop, elidable=True),
        migrations.RemoveConstraint(
            model_name="idempotencyrecord",
            name="idempotency_unique",
        ),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="project",
            field=models.ForeignKey(
                default=None,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="memory.project",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="request_hash",
            field=models.CharField(default=None, max_length=64),
            preserve_default=False,
        ),
        migrations.AddConstraint(
            model_name="idempotencyrecord",
            constraint=models.UniqueConstraint(
                fields=("team", "user", "project", "operation", "key"), name="idempotency_project_unique"
            ),
        ),
    ]
