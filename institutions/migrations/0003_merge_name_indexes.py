# The pages work (plain trigram index on name) and the search work (trigram index on UPPER(name), for
# name__icontains) each added an index to Institution as 0002; they have different names and both apply.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("institutions", "0002_institution_name_trgm"),
        ("institutions", "0002_institution_name_trigram_index"),
    ]

    operations = []
