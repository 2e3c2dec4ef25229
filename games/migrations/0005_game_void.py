"""A game staff voided stays in the history, marked void (and when), and is never rated."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_game_snapshot"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="void",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="game",
            name="voided_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
