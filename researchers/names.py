"""Author names as arXiv writes them, reduced to a form that compares equal across spellings."""

import re

from unidecode import unidecode

from core.latex import detex
from core.text import slug_of

_NOT_NAME = re.compile(r"[^a-z0-9]+")


def normalise_name(name: str) -> str:
    """Lower-case ASCII words: 'José  García-López' and 'Jose Garcia Lopez' both give 'jose garcia lopez'."""
    return " ".join(_NOT_NAME.sub(" ", unidecode(detex(name)).lower()).split())


def name_slug(name: str) -> str:
    return slug_of(detex(name), fallback="researcher")
