from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models

if TYPE_CHECKING:
    from papers.models import Paper
    from papers.querysets import PaperQuerySet


class TopicQuerySet(models.QuerySet):
    def current(self) -> TopicQuerySet:
        """Topics of the latest computation (not merged into another), largest first."""
        return self.filter(merged_into=None, size__gt=0).order_by("-size", "id")

    def choices(self) -> list[tuple[str, str]]:
        """(id as text, label) of the current topics by label, for a form's control."""
        return [
            (str(pk), label)
            for pk, label in self.current().order_by("label", "id").values_list("pk", "label")
        ]

    def most_common_among(self, papers: PaperQuerySet, *, limit: int) -> list:
        """The current topics most of these papers have among their nearest, most first, each annotated
        with `paper_count`: one aggregate over the papers' topic rows in SQL, then the topics themselves."""
        counts = {
            row["topic_id"]: row["paper_count"]
            for row in papers.topic_counts()[: limit * 2]  # room for topics merged since
        }
        topics = list(self.current().filter(pk__in=counts).only("id", "label"))
        for topic in topics:
            topic.paper_count = counts[topic.pk]
        return sorted(topics, key=lambda topic: (-topic.paper_count, topic.label))[:limit]

    def of_paper(self, paper: Paper) -> list:
        """A paper's topics, nearest first."""
        return list(self.filter(paper_links__paper=paper).order_by("paper_links__rank").only("id", "label"))
