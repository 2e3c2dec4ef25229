from django.db import migrations

from accounts.validators import lookalike_keys


def add_keys(apps, schema_editor):
    User = apps.get_model("auth", "User")
    LookalikeKey = apps.get_model("accounts", "LookalikeKey")
    for user in User.objects.only("pk", "username").iterator():
        LookalikeKey.objects.bulk_create(
            [LookalikeKey(user=user, key=key) for key in lookalike_keys(user.username)],
            ignore_conflicts=True,
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(add_keys, migrations.RunPython.noop)]
