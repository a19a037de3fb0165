"""Teams gain an opaque public id. Existing rows get one each before the column becomes unique."""

from django.db import migrations, models

import accounts.models


def fill_public_ids(apps, schema_editor):
    Team = apps.get_model("accounts", "Team")
    for team in Team.objects.filter(public_id__isnull=True).only("pk"):
        team.public_id = accounts.models.new_team_public_id()
        team.save(update_fields=["public_id"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_email_verification_invitations")]

    operations = [
        migrations.AddField(
            model_name="team",
            name="public_id",
            field=models.CharField(editable=False, max_length=24, null=True),
        ),
        migrations.RunPython(fill_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="team",
            name="public_id",
            field=models.CharField(
                default=accounts.models.new_team_public_id, editable=False, max_length=24, unique=True
            ),
        ),
    ]
