from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse

from analysis.models import Topic
from core.links import absolute_url
from papers.feeds import FEED_LENGTH, PaperFeed
from papers.models import Paper


def _feed_of(topic_id: int) -> str:
    return reverse("analysis:feed", kwargs={"topic_id": topic_id})


class TopicFeed(PaperFeed):
    """A topic's latest papers. A topic merged by a recomputation moves, like its page, to the survivor.
    Its label is made of the corpus's own words: the feed generator escapes it as XML like any title."""

    def __call__(self, request: HttpRequest, topic_id: int) -> HttpResponse:
        topic = get_object_or_404(Topic.objects.only("id", "merged_into"), pk=topic_id)
        if topic.merged_into_id is not None:
            return HttpResponsePermanentRedirect(_feed_of(topic.merged_into_id))
        return super().__call__(request, topic_id=topic_id)

    def get_object(self, request: HttpRequest, topic_id: int) -> Topic:
        return get_object_or_404(Topic, pk=topic_id)

    def title(self, topic: Topic) -> str:
        return f"{settings.SITE_NAME}: papers on {topic.label}"

    def description(self, topic: Topic) -> str:
        return f"The {FEED_LENGTH} latest papers in the topic {topic.label} on {settings.SITE_NAME}."

    def link(self, topic: Topic) -> str:
        return absolute_url(topic.get_absolute_url())

    def feed_url(self, topic: Topic) -> str:
        return absolute_url(_feed_of(topic.pk))

    def items(self, topic: Topic) -> list[Paper]:
        return list(Paper.objects.with_topic(topic.pk).newest_first()[:FEED_LENGTH])
