"""The HNSW index built again with ef_construction 200 (see Paper.Meta). Concurrently, so harvests and
embedding go on writing papers while it builds; semantic search reads without the index meanwhile
(exact, slower). At a million papers the build takes tens of minutes: plan the deploy for it."""

import pgvector.django.indexes
from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run inside a transaction

    dependencies = [
        ("papers", "0003_authorship_affiliations_collaboration"),
    ]

    operations = [
        RemoveIndexConcurrently(model_name="paper", name="paper_embedding_hnsw"),
        AddIndexConcurrently(
            model_name="paper",
            index=pgvector.django.indexes.HnswIndex(
                ef_construction=200,
                fields=["embedding"],
                m=16,
                name="paper_embedding_hnsw",
                opclasses=["vector_cosine_ops"],
            ),
        ),
    ]
