"""The Moderators group may ban people from chat and lift chat bans, and read the chat bans and
what was written in the tables' chats (what a chat message's report points at)."""

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

MODERATORS = "Moderators"

GRANTED = {
    "moderation": ["chat_ban_user", "lift_chat_bans", "view_chatban"],
    "chat": ["view_chatmessage"],
}


def grant(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    # As in 0003: the permissions are made after the whole run (post_migrate); now, here.
    for label in GRANTED:
        config = apps.get_app_config(label)
        config.models_module = True  # type: ignore[assignment]
        create_permissions(config, apps=apps, verbosity=0, using=alias)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(alias).get_or_create(name=MODERATORS)
    for label, codenames in GRANTED.items():
        permissions = Permission.objects.using(alias).filter(
            content_type__app_label=label, codename__in=codenames
        )
        group.permissions.add(*permissions)


def revoke(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    alias = schema_editor.connection.alias
    group = Group.objects.using(alias).filter(name=MODERATORS).first()
    if group is None:
        return
    for label, codenames in GRANTED.items():
        permissions = Permission.objects.using(alias).filter(
            content_type__app_label=label, codename__in=codenames
        )
        group.permissions.remove(*permissions)


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0005_chat_bans"),
        ("chat", "0001_initial"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
