"""The harvest's writes: records from upstream sources turned into rows, each a module by what it writes
(papers, upstream works, author profiles, institutions, citations, upstream checks). Every write is an
idempotent upsert, and each page of records is stored in one transaction."""
