"""Author names as arXiv writes them, reduced to a form that compares equal across spellings."""

import re
import unicodedata

from django.utils.text import slugify
from unidecode import unidecode

# arXiv metadata writes accents in TeX: Bal\'azs, G\"{o}del, \v{S}koda.
_TEX_ACCENT = re.compile(r"\\([`'^\"~=.uvHckr])\s*\{?([A-Za-z])\}?")
_COMBINING = {
    "`": "\u0300", "'": "\u0301", "^": "\u0302", "~": "\u0303", "=": "\u0304", "u": "\u0306", ".": "\u0307",
    '"': "\u0308", "r": "\u030a", "H": "\u030b", "v": "\u030c", "c": "\u0327", "k": "\u0328",
}  # fmt: skip
_TEX_COMMAND = re.compile(r"\\[a-zA-Z]+\s*")
_NOT_NAME = re.compile(r"[^a-z0-9]+")


def clean_display_name(name: str) -> str:
    """Readable form of an author string: TeX accents made letters (Bal\\'azs is Balázs), braces and
    spacing tidied."""
    text = _TEX_ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _COMBINING[m.group(1)]), name)
    text = _TEX_COMMAND.sub("", text).replace("{", "").replace("}", "")
    return " ".join(text.split())


def normalise_name(name: str) -> str:
    """Lower-case ASCII words: 'José  García-López' and 'Jose Garcia Lopez' both give 'jose garcia lopez'."""
    return " ".join(_NOT_NAME.sub(" ", unidecode(clean_display_name(name)).lower()).split())


def name_slug(name: str) -> str:
    return slugify(unidecode(clean_display_name(name)))[:80] or "researcher"
