"""Chat's test data: a few papers about weaving, embedded (so retrieval can rank them), and readers."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from papers.models import Paper
from papers.services import papers_embed
from tests.factories import make_citation, make_paper


@dataclass
class Weaving:
    twill: Paper
    looms: Paper
    dyes: Paper
    unrelated: Paper


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def weaving(db) -> Weaving:
    """Four papers, three about weaving (the looms paper cites the twill one), embedded."""
    twill = make_paper(
        title="Strength of twill weaves",
        abstract=(
            "We study woven fabrics made on hand looms. We measure the tensile strength of forty twill and "
            "plain weaves with a universal testing machine. Twill weaves were fourteen percent stronger "
            "than plain weaves of the same yarn."
        ),
    )
    looms = make_paper(
        title="A history of the loom",
        abstract=(
            "Looms have been used to weave cloth for millennia. We trace the jacquard loom's punched cards "
            "to early computing machines."
        ),
    )
    dyes = make_paper(
        title="Natural dyes for cotton",
        abstract="Madder and indigo dye cotton yarn in fast colours. We compare their wash fastness.",
    )
    unrelated = make_paper(
        title="Sparse attention for long documents",
        abstract="Transformers attend to every token. We propose sparse attention that scales linearly.",
    )
    make_citation(citing=looms, cited=twill)
    papers_embed(paper_ids=[twill.pk, looms.pk, dyes.pk, unrelated.pk])
    return Weaving(twill, looms, dyes, unrelated)
