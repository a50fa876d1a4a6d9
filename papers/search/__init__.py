"""Search over papers, with the researchers and institutions whose names match.

- query.py: the query language, read into a ParsedQuery (`parse`), and how it was understood (`describe`).
- engine.py: `run(parsed_query, page=…)` gives SearchResults; keyword, semantic and hybrid search.
- vectors.py: query vectors through the embedding model, cached in Redis.
- querysets.py: the ORM expressions (full-text ranking, filters, pgvector distances).
- keyword_index.py: the BM25 index (tantivy) that ranks keyword matches over the whole corpus.
- snippets.py: titles and abstract passages with the query's words marked, made from the rows read.
- views.py, urls.py: /search, a page and its htmx fragment.
"""
