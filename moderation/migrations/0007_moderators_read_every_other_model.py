"""The Moderators group may read what the admin added to its pages: reserved names and the
look-alike keys of names, language choices, the rated queue, the games' tallies, mutes and
chat settings (the context of a report). Keeping a name out of use and letting it go take
"Can rename people", which the group holds."""

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

MODERATORS = "Moderators"

GRANTED = {
    "accounts": ["view_reservedname", "view_lookalikekey", "view_spokenlanguage"],
    "pairing": ["view_seeker"],
    "ratings": ["view_gametally"],
    "chat": ["view_mute", "view_chatsetting"],
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
        ("moderation", "0006_moderators_ban_from_chat"),
        ("accounts", "0005_names_in_the_admin"),
        ("pairing", "0002_names_in_the_admin"),
        ("ratings", "0002_names_in_the_admin"),
        ("chat", "0002_names_in_the_admin"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
