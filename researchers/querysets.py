from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models

if TYPE_CHECKING:
    from researchers.models import Researcher


class ResearcherQuerySet(models.QuerySet):
    def with_same_name_as(self, researcher: Researcher) -> ResearcherQuerySet:
        return self.filter(normalised_name=researcher.normalised_name).exclude(pk=researcher.pk)
