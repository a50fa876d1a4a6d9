"""Follow now belongs to accounts (see accounts 0002): only the model state leaves; the table stays."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("researchers", "0003_researcher_index_most_cited"),
        ("accounts", "0002_follow_moves_here"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Follow")]),
    ]
