"""Keep each paper's search vector inside its row.

Keyword search reads the vector of every paper it checks or ranks. By default PostgreSQL moves it out of
line into the TOAST table (rows of ~4.7 kB are squeezed below 2 kB, and the 1.6 kB vector hardly
compresses), so each check cost a TOAST index lookup: ~5 buffer reads a paper. With STORAGE MAIN and
rows toasted only above 4 kB, the embedding (read from the HNSW index, not the row) is the one moved
out, and a check is one buffer. Rows written before this migration keep their old layout until they
are rewritten (`VACUUM FULL papers_paper`, which locks the table while it runs).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("papers", "0001_initial")]

    operations = [
        migrations.RunSQL(
            sql=[
                "ALTER TABLE papers_paper ALTER COLUMN search_vector SET STORAGE MAIN",
                "ALTER TABLE papers_paper SET (toast_tuple_target = 4080)",
            ],
            reverse_sql=[
                "ALTER TABLE papers_paper RESET (toast_tuple_target)",
                "ALTER TABLE papers_paper ALTER COLUMN search_vector SET STORAGE EXTENDED",
            ],
        ),
    ]
