"""Names staff renamed people away from, kept out of use with their look-alikes; the renames
made before are read from the audit log."""

import django.db.models.deletion
from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from accounts.validators import lookalike_keys


def reserve_earlier_renames(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    AuditEntry = apps.get_model("moderation", "AuditEntry")
    ReservedName = apps.get_model("accounts", "ReservedName")
    renames = AuditEntry.objects.using(alias).filter(action="rename", user__isnull=False)
    for user_id, details in renames.order_by("at", "pk").values_list("user_id", "details"):
        old_name = (details or {}).get("old_name")
        if not old_name:
            continue
        ReservedName.objects.using(alias).bulk_create(
            [
                ReservedName(key=key, name=old_name, user_id=user_id)
                for key in lookalike_keys(old_name)
            ],
            ignore_conflicts=True,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_lookalike_keys_of_existing_users"),
        ("moderation", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ReservedName",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=200, unique=True)),
                ("name", models.CharField(max_length=150)),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(reserve_earlier_renames, migrations.RunPython.noop),
    ]
