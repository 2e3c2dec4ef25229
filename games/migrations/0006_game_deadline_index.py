"""The clock's sweep finds the running games whose deadline is near through an index of their
deadlines alone."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_game_void"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("status", "playing")),
                fields=["deadline"],
                name="game_deadline_playing",
            ),
        ),
    ]
