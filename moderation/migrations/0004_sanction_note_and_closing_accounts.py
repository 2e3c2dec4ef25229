"""A sanction's note for staff (never shown to the person), and the permission to close an
account, given to the "Moderators" group with the other actions on people."""

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

MODERATORS = "Moderators"


def give_moderators_closing(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    # As in 0003: the permission is made now rather than after the whole migration run.
    config = apps.get_app_config("moderation")
    config.models_module = True  # type: ignore[assignment]
    create_permissions(config, apps=apps, verbosity=0, using=alias)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    closing = Permission.objects.using(alias).filter(
        content_type__app_label="moderation", codename="close_account"
    )
    for group in Group.objects.using(alias).filter(name=MODERATORS):
        group.permissions.add(*closing)


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_permissions_and_moderators"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="auditentry",
            options={
                "ordering": ["-at", "-pk"],
                "permissions": [
                    ("suspend_user", "Can suspend people"),
                    ("ban_user", "Can ban people"),
                    ("lift_sanctions", "Can lift suspensions and bans"),
                    ("rename_user", "Can rename people"),
                    ("mark_user", "Can mark players"),
                    ("unmark_user", "Can lift marks"),
                    ("close_account", "Can close accounts"),
                ],
                "verbose_name_plural": "audit entries",
            },
        ),
        migrations.AddField(
            model_name="sanction",
            name="note",
            field=models.TextField(blank=True),
        ),
        migrations.RunPython(give_moderators_closing, migrations.RunPython.noop),
    ]
