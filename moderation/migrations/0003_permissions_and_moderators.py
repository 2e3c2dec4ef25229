"""A permission for each action staff take on people, and the "Moderators" group holding them
with what a moderator reads and the permissions voiding a game and handling reports check."""

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

MODERATORS = "Moderators"

# As they stood when the group was made; a later permission is given to the group by hand.
GRANTED = {
    "moderation": [
        "suspend_user",
        "ban_user",
        "lift_sanctions",
        "rename_user",
        "mark_user",
        "unmark_user",
        "view_auditentry",
        "view_sanction",
        "view_mark",
    ],
    "games": [
        "view_table",
        "view_seat",
        "view_game",
        "change_game",  # voiding a game
        "view_gameplayer",
        "view_moverecord",
    ],
    "ratings": ["view_rating", "view_ratingchange"],
    "fairplay": ["view_abandonment"],
    "reports": ["view_report", "change_report"],  # deciding a report
}


def make_moderators(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    # Permissions are made after the whole migration run (post_migrate); a fresh database
    # needs them now, so they are made here, as post_migrate would.
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


def remove_moderators(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(name=MODERATORS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0002_mark_sanction"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0006_game_deadline_index"),
        ("ratings", "0001_initial"),
        ("fairplay", "0001_initial"),
        ("reports", "0001_initial"),
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
                ],
                "verbose_name_plural": "audit entries",
            },
        ),
        migrations.RunPython(make_moderators, remove_moderators),
    ]
