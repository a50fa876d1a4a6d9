from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db import models

if TYPE_CHECKING:
    from institutions.models import Institution

# word_similarity of a query to the closest stretch of a name: "stanford" is 1.0 to "Stanford University".
NAME_WORD_SIMILARITY_THRESHOLD = 0.6
ROR_ID = re.compile(r"^(?:https?://ror\.org/)?(0[a-z0-9]{6}[0-9]{2})/?$", re.IGNORECASE)


def ror_id_from(text: str) -> str | None:
    """The bare ROR id in `042nb2s44` or `https://ror.org/042nb2s44`; None when it is not one."""
    match = ROR_ID.match(text.strip())
    return match.group(1).lower() if match else None


class InstitutionQuerySet(models.QuerySet):
    def resolve(self, key: str) -> Institution | None:
        """The institution an address names: its id, its ROR id (bare or as a URL), or its exact name."""
        key = key.strip()
        if key.isdigit():
            return self.filter(pk=int(key)).first()
        ror_id = ror_id_from(key)
        if ror_id:
            return self.filter(ror_id=ror_id).first()
        return self.filter(name__iexact=key).order_by("id").first()

    def matching_name(self, text: str) -> InstitutionQuerySet:
        """Institutions named like `text` (trigram word similarity, most similar first), or the one whose
        ROR id or ROR URL it is."""
        text = text.strip()
        ror_id = ror_id_from(text)
        if ror_id:
            return self.filter(ror_id=ror_id).annotate(similarity=models.Value(1.0))
        if len(text) < 3:
            return self.none()
        return (
            self.annotate(similarity=TrigramWordSimilarity(text, "name"))
            .filter(similarity__gte=NAME_WORD_SIMILARITY_THRESHOLD)
            .order_by("-similarity", "name", "id")
        )
