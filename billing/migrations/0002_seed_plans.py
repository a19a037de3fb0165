from django.db import migrations


def seed_plans(apps, schema_editor):
    from billing.plans import ensure_catalogue

    ensure_catalogue(apps.get_model("billing", "Plan"))


class Migration(migrations.Migration):
    dependencies = [("billing", "0001_initial")]

    operations = [migrations.RunPython(seed_plans, migrations.RunPython.noop)]
