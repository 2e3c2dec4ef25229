"""The Moderators group may create and change arenas."""

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

MODERATORS = "Moderators"
CODENAMES = ["run_arenas", "view_arena", "view_entrant", "view_arenagame"]


def grant(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    # The permissions are made after the whole run (post_migrate); now, here.
    config = apps.get_app_config("arenas")
    config.models_module = True  # type: ignore[assignment]
    create_permissions(config, apps=apps, verbosity=0, using=alias)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(alias).get_or_create(name=MODERATORS)
    group.permissions.add(
        *Permission.objects.using(alias).filter(
            content_type__app_label="arenas", codename__in=CODENAMES
        )
    )


def revoke(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    alias = schema_editor.connection.alias
    group = Group.objects.using(alias).filter(name=MODERATORS).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.using(alias).filter(
                content_type__app_label="arenas", codename__in=CODENAMES
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("arenas", "0001_initial"),
        ("moderation", "0006_moderators_ban_from_chat"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
