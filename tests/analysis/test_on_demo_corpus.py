"""The analysis on real demo papers with known answers: a survey is a survey, a dataset paper a dataset
paper, a near-duplicate of an earlier paper has low novelty, and a paper without a citation count has no
significance (and its page says so). Slow: it needs the demo corpus (run last)."""

import datetime

import numpy as np
import pytest
from django.db.models import Count

from analysis.services import papers_analyse
from chat.sentences import split_sentences
from papers.models import Paper
from tests.factories import make_paper
from tests.html import text_of, tree

pytestmark = pytest.mark.django_db

KNOWN_TYPES = {
    "2504.21853": "survey",  # "A Survey of Interactive Generative Video"
    "2505.02527": "survey",  # "Text to Image Generation and Editing: A Survey"
    "2504.21017": "benchmark",  # "ViQA-COVID: COVID-19 Machine Reading Comprehension Dataset for Vietnamese"
    "2505.00337": "benchmark",  # "T2VPhysBench: A First-Principles Benchmark for Physical Consistency…"
    "0704.0018": "theory",  # "In quest of a generalized Callias index theorem"
}


def test_real_papers_get_their_known_types_fields_and_summaries(demo_corpus):
    papers = Paper.objects.filter(arxiv_id__in=KNOWN_TYPES)
    assert papers.count() == len(KNOWN_TYPES)
    papers_analyse(paper_ids=papers.values_list("pk", flat=True))
    for paper in Paper.objects.filter(arxiv_id__in=KNOWN_TYPES).select_related("analysis"):
        assert paper.analysis.paper_type == KNOWN_TYPES[paper.arxiv_id], paper.arxiv_id
        assert paper.analysis.summary in split_sentences(paper.abstract)
    survey = Paper.objects.get(arxiv_id="2504.21853")
    assert (
        survey.analysis.research_field == "Computer Vision and Pattern Recognition (cs.CV), Computer Science"
    )


def test_a_near_duplicate_of_a_real_paper_has_low_novelty(demo_corpus):
    # A field and year of a few dozen papers, all analysed, so the percentile has something to rank.
    field = (
        Paper.objects.filter(published__year=2025, embedding__isnull=False)
        .values("primary_category")
        .annotate(papers=Count("pk"))
        .filter(papers__range=(20, 60))
        .order_by("papers", "primary_category")
        .values_list("primary_category", flat=True)
        .first()
    )
    papers = Paper.objects.filter(primary_category=field, published__year=2025)
    original = papers.order_by("published", "arxiv_id").first()
    vector = np.asarray(original.embedding) + 0.002 * np.random.default_rng(7).normal(size=384)
    duplicate = make_paper(
        title=original.title,
        abstract=original.abstract,
        primary_category=field,
        published=datetime.date(2025, 12, 31),
        embedding=vector / np.linalg.norm(vector),
    )
    papers_analyse(paper_ids=papers.values_list("pk", flat=True))
    duplicate.refresh_from_db()
    assert duplicate.analysis.closest_earlier[0] == original.pk
    # Noise of 0.01 a dimension has a norm of about 0.2 in 384 dimensions: a cosine distance near 0.02, where
    # different papers of one field are 0.3 and more apart.
    assert duplicate.analysis.novelty_distance < 0.05
    assert duplicate.analysis.novelty < 10  # among the least novel of its field and year
    assert max(papers.exclude(analysis__novelty=None).values_list("analysis__novelty", flat=True)) > 90


def test_a_real_paper_without_a_citation_count_has_no_significance(client, demo_corpus):
    uncounted = Paper.objects.filter(cited_by_count__isnull=True, published__year=2025).order_by("arxiv_id")[
        0
    ]
    counted = Paper.objects.filter(cited_by_count__isnull=False).order_by("arxiv_id")[0]
    papers_analyse(paper_ids=[uncounted.pk, counted.pk])
    uncounted.refresh_from_db()
    counted.refresh_from_db()
    assert uncounted.analysis.significance_score is None
    assert counted.analysis.significance_score is not None
    page = tree(client.get(uncounted.get_absolute_url()))
    [box] = page.xpath("//section[@aria-labelledby='analysis-heading']")
    assert "No citation count known yet." in text_of(box)
