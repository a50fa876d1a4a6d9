"""The corpus papers the recorded OpenAlex and Semantic Scholar answers are about, with the author lists
arXiv gives them. The demo corpus may hold some of them already: tests start from a clean slate inside
their own transaction."""

from __future__ import annotations

import datetime

from django.utils import timezone

from harvest.models import UpstreamCheck
from papers.models import Paper
from researchers.models import Researcher
from tests.factories import make_paper

ARXIV_AUTHORS = {
    "2007.14454": ["James Ravenscroft", "Amanda Clare", "Maria Liakata"],
    "1806.03537": ["Andrey Kutuzov", "Lilja Øvrelid", "Terrence Szymanski", "Erik Velldal"],
    "1310.4546": ["Tomas Mikolov", "Ilya Sutskever", "Kai Chen", "Greg Corrado", "Jeffrey Dean"],
    "1609.08144": [
        "Yonghui Wu", "Mike Schuster", "Zhifeng Chen", "Quoc V. Le", "Mohammad Norouzi", "Wolfgang Macherey",
        "Maxim Krikun", "Yuan Cao", "Qin Gao", "Klaus Macherey", "Jeff Klingner", "Apurva Shah",
        "Melvin Johnson", "Xiaobing Liu", "Łukasz Kaiser", "Stephan Gouws", "Yoshikiyo Kato", "Taku Kudo",
        "Hideto Kazawa", "Keith Stevens", "George Kurian", "Nishant Patil", "Wei Wang", "Cliff Young",
        "Jason Smith", "Jason Riesa", "Alex Rudnick", "Oriol Vinyals", "Greg Corrado", "Macduff Hughes",
        "Jeffrey Dean",
    ],
    "2312.07559": [
        "Jakub Lála", "Odhran O'Donoghue", "Aleksandar Shtedritski", "Sam Cox", "Samuel G. Rodriques",
        "Andrew D. White",
    ],
}  # fmt: skip
PUBLISHED = {
    "2007.14454": datetime.date(2020, 7, 28),
    "1806.03537": datetime.date(2018, 6, 9),
    "1310.4546": datetime.date(2013, 10, 16),
    "1609.08144": datetime.date(2016, 9, 26),
    "2312.07559": datetime.date(2023, 12, 8),
}


def clean_slate() -> None:
    """No recorded paper or upstream researcher yet, and no other paper due for enrichment: sweeps then
    ask about the papers a test makes, whatever else the database holds."""
    Paper.objects.filter(arxiv_id__in=ARXIV_AUTHORS).delete()
    Researcher.objects.exclude(openalex_id=None, s2_id=None).delete()
    UpstreamCheck.objects.filter(subject="paper").delete()
    now = timezone.now()
    UpstreamCheck.objects.bulk_create(
        UpstreamCheck(subject="paper", source=source, subject_id=pk, checked_at=now, found=True)
        for pk in Paper.objects.values_list("pk", flat=True)
        for source in ("openalex", "s2")
    )


def corpus_paper(arxiv_id: str, authors: list[str] | None = None) -> Paper:
    return make_paper(
        arxiv_id=arxiv_id,
        authors=authors or ARXIV_AUTHORS[arxiv_id],
        published=PUBLISHED[arxiv_id],
        title=f"arXiv {arxiv_id}",
    )
