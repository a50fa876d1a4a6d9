from django.conf import settings
from django.core import checks
from django.core.checks import CheckMessage, Error

from papers.model_files import model_dimensions, model_location


def register() -> None:
    """Called when the app is ready (PapersConfig.ready)."""
    checks.register(embedding_model_matches_column)


def embedding_model_matches_column(**kwargs: object) -> list[CheckMessage]:
    """A model whose vectors do not fit vector(384) would fail on the first write; say so at start-up."""
    dimensions = model_dimensions(model_location())
    if dimensions is not None and dimensions != settings.EMBEDDING_DIMENSIONS:
        return [
            Error(
                f"EMBEDDING_MODEL {settings.EMBEDDING_MODEL!r} gives {dimensions}-dimensional vectors, "
                f"but the embedding column holds {settings.EMBEDDING_DIMENSIONS}",
                id="papers.E002",
            )
        ]
    return []
