from analysis.models import Topic
from analysis.querysets import TopicQuerySet
from core.sitemaps import CanonicalSitemap


class TopicSitemap(CanonicalSitemap):
    lastmod_field = "updated_at"

    def items(self) -> TopicQuerySet:
        # A merged topic's address redirects to the survivor's, so only current topics are listed.
        return Topic.objects.current().order_by("pk").only("label", "updated_at")
