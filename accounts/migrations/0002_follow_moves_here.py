"""Follow moves from researchers to accounts: the model's state changes apps, its table stays
(researchers_follow), and the admin's content type follows it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="researchers", model="follow").update(app_label="accounts")


def move_content_type_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.filter(app_label="accounts", model="follow").update(app_label="researchers")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_account_settings_and_saved_searches"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("researchers", "0003_researcher_index_most_cited"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Follow",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="follows", to=settings.AUTH_USER_MODEL)),
                        ("researcher", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="follows", to="researchers.researcher")),
                    ],
                    options={
                        "db_table": "researchers_follow",
                        "constraints": [models.UniqueConstraint(fields=("user", "researcher"), name="follow_unique")],
                    },
                ),
            ],
            database_operations=[migrations.RunPython(move_content_type, move_content_type_back)],
        ),
    ]
