from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db import models
from django.db.models import Count, F, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

if TYPE_CHECKING:
    from institutions.models import Institution
    from researchers.models import Researcher

# A proxy that merges slashes turns https://ror.org/… inside a path into https:/ror.org/….
ROR_ID = re.compile(r"^(?:https?:/{1,2}ror\.org/)?(0[a-z0-9]{6}[0-9]{2})/?$", re.IGNORECASE)


def ror_id_from(text: str) -> str | None:
    """The bare ROR id in `042nb2s44` or `https://ror.org/042nb2s44`; None when it is not one."""
    match = ROR_ID.match(text.strip())
    return match.group(1).lower() if match else None


class InstitutionQuerySet(models.QuerySet):
    def resolve(self, key: str) -> Institution | None:
        """The institution an address names: its id, its ROR id (bare or as a URL), or its exact name."""
        key = key.strip()
        if key.isascii() and key.isdigit():  # '①'.isdigit() too, and int() refuses it
            return self.filter(pk=int(key)).first()
        ror_id = ror_id_from(key)
        if ror_id:
            return self.filter(ror_id=ror_id).first()
        return self.filter(name__iexact=key).order_by("id").first()

    def of_researcher(self, researcher: Researcher) -> InstitutionQuerySet:
        """The researcher's institutions, annotated with `last_known` and `years` of the affiliation:
        the current ones first."""
        return (
            self.filter(affiliations__researcher=researcher)
            .annotate(last_known=F("affiliations__last_known"), years=F("affiliations__years"))
            .order_by("-last_known", "name", "id")
        )

    def last_known_for(self, researcher: Researcher) -> InstitutionQuerySet:
        return self.filter(affiliations__researcher=researcher, affiliations__last_known=True).order_by(
            "name"
        )

    def name_contains(self, text: str) -> InstitutionQuerySet:
        """Institutions whose name contains `text`, in any case (served by the trigram index)."""
        text = " ".join(text.split())
        return self.filter(name__icontains=text) if text else self.none()

    def with_researcher_counts(self) -> InstitutionQuerySet:
        """Annotates `researcher_count`, as a correlated subquery so a paginated list counts only its page."""
        from institutions.models import Affiliation  # cycle: institutions.models imports this module

        researchers = (
            Affiliation.objects.filter(institution=OuterRef("pk"))
            .order_by()
            .values("institution")
            .annotate(count=Count("researcher"))
            .values("count")
        )
        return self.annotate(researcher_count=Coalesce(Subquery(researchers), Value(0)))

    def matching_name(self, text: str) -> InstitutionQuerySet:
        """Institutions whose name holds every word of `text` (three letters or more), most similar
        first (trigram word similarity); or the institution whose ROR id or ROR URL it is. Each word is
        a name__icontains, which the trigram index on UPPER(name) answers at any size."""
        ror_id = ror_id_from(text)
        if ror_id:
            return self.filter(ror_id=ror_id).annotate(similarity=models.Value(1.0))
        words = [word for word in re.findall(r"\w+", text) if len(word) >= 3]
        if not words:
            return self.none()
        return (
            self.filter(*[models.Q(name__icontains=word) for word in words])
            .annotate(similarity=TrigramWordSimilarity(text, "name"))
            .order_by("-similarity", "name", "id")
        )
