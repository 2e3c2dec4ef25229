"""Two-factor sign-in's recovery codes (the app's devices are django-otp's), and the list of
where each account is signed in, filled with the sessions signed in now: "Sign out everywhere
else" reaches them too, though their browser and network were never seen."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def list_the_signed_in_sessions(apps, schema_editor):
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    Session = apps.get_model("sessions", "Session")
    SignIn = apps.get_model("accounts", "SignIn")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    alias = schema_editor.connection.alias
    now = timezone.now()
    live = Session.objects.using(alias).filter(expire_date__gt=now)
    store = SessionStore()
    batch = []
    for key, data in live.values_list("session_key", "session_data").iterator():
        user_id = store.decode(data).get("_auth_user_id")
        if user_id is None or not str(user_id).isdigit():
            continue
        batch.append((key, int(user_id)))
    known = set(User.objects.using(alias).values_list("pk", flat=True))
    SignIn.objects.using(alias).bulk_create(
        [
            SignIn(session_id=key, user_id=user_id, signed_in_at=now, seen_at=now)
            for key, user_id in batch
            if user_id in known
        ],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_addresses"),
        ("sessions", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RecoveryCodes",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "name",
                    models.CharField(
                        help_text="The human-readable name of this device.", max_length=64
                    ),
                ),
                (
                    "confirmed",
                    models.BooleanField(default=True, help_text="Is this device ready for use?"),
                ),
                (
                    "throttling_failure_timestamp",
                    models.DateTimeField(
                        blank=True,
                        default=None,
                        help_text="A timestamp of the last failed verification attempt. Null if last attempt succeeded.",
                        null=True,
                    ),
                ),
                (
                    "throttling_failure_count",
                    models.PositiveIntegerField(
                        default=0, help_text="Number of successive failed attempts."
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        help_text="The user that this device belongs to.",
                        on_delete=django.db.models.deletion.CASCADE,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "recovery codes",
                "verbose_name_plural": "recovery codes",
                "abstract": False,
            },
        ),
        migrations.CreateModel(
            name="RecoveryCode",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64)),
                ("used_at", models.DateTimeField(blank=True, null=True)),
                (
                    "device",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="codes",
                        to="accounts.recoverycodes",
                    ),
                ),
            ],
            options={
                "verbose_name": "recovery code",
                "verbose_name_plural": "recovery codes",
            },
        ),
        migrations.CreateModel(
            name="SignIn",
            fields=[
                (
                    "session",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="sign_in",
                        serialize=False,
                        to="sessions.session",
                    ),
                ),
                ("browser", models.CharField(blank=True, max_length=100, verbose_name="browser")),
                ("network", models.CharField(blank=True, max_length=50, verbose_name="network")),
                ("signed_in_at", models.DateTimeField(verbose_name="signed in at")),
                ("seen_at", models.DateTimeField(verbose_name="last seen at")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sign_ins",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="person",
                    ),
                ),
            ],
            options={
                "verbose_name": "sign-in",
                "verbose_name_plural": "sign-ins",
            },
        ),
        migrations.RunPython(list_the_signed_in_sessions, migrations.RunPython.noop),
    ]
