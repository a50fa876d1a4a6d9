"""Social cards: the 1200×630 PNG a link to a page shows where it is shared (og:image).

A card is data (`Card`: an eyebrow, a title, a byline, a few figures, a footer line), drawn in the site's
typography (Source Serif 4 and Instrument Sans, TrueType copies of the vendored web fonts) with the
wovepaper mark. Each app says what its pages' cards hold (`papers/cards.py`, …); this module knows no model.
A card is cached on disk under CARDS_DIR by a digest of what it shows, so a page whose figures change gets a
new card, and the stale file of the same page is removed when the new one is written.

Harvested text is only ever drawn as text: a title too long for four lines is cut with an ellipsis, and a
character none of the fonts has is left out rather than drawn as a box.
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import math
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

logger = logging.getLogger(__name__)

WIDTH, HEIGHT = 1200, 630
# Bump when the drawing changes: every card is drawn again.
DESIGN = "2"

PAPER = "#fbf8f1"
PAPER_DEEP = "#f3eee2"
INK = "#1d1b18"
INK_SOFT = "#4a463f"
INK_FAINT = "#6b665c"
ACCENT = "#8c2f1b"
HAIRLINE = "#d9d2c3"

FONT_DIR = settings.BASE_DIR / "static" / "vendor" / "fonts" / "ttf"
SERIF = FONT_DIR / "SourceSerif4_600SemiBold.ttf"
SANS = FONT_DIR / "InstrumentSans_400Regular.ttf"
SANS_MEDIUM = FONT_DIR / "InstrumentSans_500Medium.ttf"
# Where a character is in neither of the site's fonts (maths, other scripts): Debian's DejaVu, when the
# machine has it; otherwise the character is left out.
FALLBACKS = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")]

MARGIN = 80
TITLE_SIZES = (64, 58, 52, 46, 40)
TITLE_LINES = 4
TITLE_TOP, TITLE_BOTTOM = 190, 448  # the title and byline stay between these
BYLINE_LINE = 40
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Card:
    name: str  # the page's own part of the file name: "paper-2401.01234", one file per page
    eyebrow: str  # "Paper · cs.LG"
    title: str
    byline: str = ""  # authors, or where a researcher works
    figures: tuple[tuple[str, str], ...] = ()  # (number, label), at most four
    footer: str = ""  # "arXiv:2401.01234"
    alt: str = field(default="", compare=False)  # og:image:alt

    @property
    def digest(self) -> str:
        parts = [DESIGN, self.eyebrow, self.title, self.byline, repr(self.figures), self.footer]
        return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]

    @property
    def file_name(self) -> str:
        return f"{_UNSAFE_NAME.sub('_', self.name)[:80]}-{self.digest}.png"


# Fonts


@dataclass(frozen=True)
class _Face:
    font: ImageFont.FreeTypeFont
    characters: frozenset[int]


@functools.cache
def _characters(path: Path) -> frozenset[int]:
    font = TTFont(path, lazy=True)
    return frozenset(font.getBestCmap())


@functools.cache
def _faces(path: Path, size: int) -> tuple[_Face, ...]:
    """The face at `path` and the fallbacks after it, at `size` pixels."""
    paths = [path, SERIF, *[fallback for fallback in FALLBACKS if fallback.exists()]]
    unique = list(dict.fromkeys(paths))
    return tuple(_Face(ImageFont.truetype(str(each), size), _characters(each)) for each in unique)


def _runs(text: str, faces: tuple[_Face, ...]) -> list[tuple[_Face, str]]:
    """`text` cut into runs each drawn with the first face that has its characters."""
    runs: list[tuple[_Face, str]] = []
    for character in text:
        face = next((face for face in faces if ord(character) in face.characters), None)
        if face is None:
            continue
        if runs and runs[-1][0] is face:
            runs[-1] = (face, runs[-1][1] + character)
        else:
            runs.append((face, character))
    return runs


def _width(text: str, faces: tuple[_Face, ...]) -> float:
    return sum(face.font.getlength(run) for face, run in _runs(text, faces))


def _draw_text(draw: ImageDraw.ImageDraw, x: float, baseline: float, text: str, faces, fill: str) -> float:
    for face, run in _runs(text, faces):
        draw.text((x, baseline), run, font=face.font, fill=fill, anchor="ls")
        x += face.font.getlength(run)
    return x


def _ellipsised(text: str, faces: tuple[_Face, ...], width: float) -> str:
    """`text` cut to `width` with an ellipsis, after a whole word when one fits."""
    if _width(text, faces) <= width:
        return text
    while text and _width(text + "…", faces) > width:
        text = text[:-1]
    words = text.rsplit(" ", 1)
    if len(words) == 2 and len(words[0]) > len(text) * 0.6:
        text = words[0]
    return text.rstrip(" ,;:·-") + "…"


def _wrapped(text: str, faces: tuple[_Face, ...], width: float, max_lines: int) -> tuple[list[str], bool]:
    """Lines of at most `width` pixels, at most `max_lines`; True when the text had to be cut."""
    words = text.split()
    lines: list[str] = []
    line = ""
    for at, word in enumerate(words):
        candidate = f"{line} {word}" if line else word
        if _width(candidate, faces) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while _width(line, faces) > width:  # a word longer than the line: break it
            cut = max(1, len(_ellipsised(line, faces, width)) - 1)
            lines.append(line[:cut])
            line = line[cut:]
        if len(lines) >= max_lines:
            rest = " ".join([line, *words[at + 1 :]])
            return _cut(lines[:max_lines], rest, faces, width), True
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        return _cut(lines[:max_lines], " ".join(lines[max_lines:]), faces, width), True
    return lines, False


def _cut(lines: list[str], rest: str, faces: tuple[_Face, ...], width: float) -> list[str]:
    last = f"{lines[-1]} {rest}".strip()
    return [*lines[:-1], _ellipsised(last, faces, width)]


# Drawing


def draw_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float) -> None:
    """The wovepaper mark ◍: a circle of paper filled with vertical threads (static/icons/icon.svg)."""
    cx, cy = centre
    stroke = max(1, round(radius / 7))
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=PAPER)
    threads = 5
    gap = 2 * radius / (threads + 1)
    for number in range(1, threads + 1):
        dx = -radius + number * gap
        half = math.sqrt(max(radius**2 - dx**2, 0)) - stroke * 0.6
        draw.line(
            [(cx + dx, cy - half), (cx + dx, cy + half)], fill=ACCENT, width=max(1, round(stroke * 0.8))
        )
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], outline=ACCENT, width=stroke)


def icon_image(size: int, *, background: str | None = PAPER) -> Image.Image:
    """The site's icon at `size` pixels: the mark, on a square of paper (touch and app icons, where the
    platform rounds the corners and the mark stays inside the safe circle) or alone (the favicon)."""
    scale = 4  # drawn large and scaled down: Pillow draws without anti-aliasing
    big = size * scale
    image = Image.new("RGBA", (big, big), background or (0, 0, 0, 0))
    radius = big * (0.34 if background else 0.47)
    draw_mark(ImageDraw.Draw(image), (big / 2, big / 2), radius)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def render(card: Card) -> bytes:
    """The card as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, 14, HEIGHT], fill=ACCENT)
    text_width = WIDTH - 2 * MARGIN

    # The mark and the wordmark, top left; the eyebrow under them.
    draw_mark(draw, (MARGIN + 22, 78), 22)
    serif_mark = _faces(SERIF, 40)
    x = _draw_text(draw, MARGIN + 60, 92, "wove", serif_mark, INK)
    _draw_text(draw, x, 92, "paper", serif_mark, ACCENT)
    eyebrow = _faces(SANS_MEDIUM, 24)
    _draw_text(draw, MARGIN, 160, _ellipsised(card.eyebrow.upper(), eyebrow, text_width), eyebrow, INK_FAINT)

    # The title, as large as the room above the figures allows (at most four lines), then the byline.
    byline_faces = _faces(SANS, 28)
    byline_lines = _wrapped(card.byline, byline_faces, text_width, 2)[0] if card.byline else []
    room = TITLE_BOTTOM - TITLE_TOP - BYLINE_LINE * len(byline_lines)
    for size in TITLE_SIZES:
        title_faces = _faces(SERIF, size)
        line_height = round(size * 1.18)
        lines, cut = _wrapped(card.title, title_faces, text_width, min(TITLE_LINES, room // line_height))
        if not cut:
            break
    baseline = TITLE_TOP + line_height - round(size * 0.22)
    for line in lines:
        _draw_text(draw, MARGIN, baseline, line, title_faces, INK)
        baseline += line_height
    baseline += 20 - line_height + BYLINE_LINE
    for line in byline_lines:
        _draw_text(draw, MARGIN, baseline, line, byline_faces, INK_SOFT)
        baseline += BYLINE_LINE

    # Figures along the foot, above a hairline and the footer line.
    draw.line([(MARGIN, HEIGHT - 78), (WIDTH - MARGIN, HEIGHT - 78)], fill=HAIRLINE, width=2)
    number_faces, label_faces = _faces(SERIF, 40), _faces(SANS, 22)
    x = MARGIN
    for number, label in card.figures[:4]:
        _draw_text(draw, x, HEIGHT - 120, number, number_faces, INK)
        label_x = x + _width(number, number_faces) + 10
        end = _draw_text(draw, label_x, HEIGHT - 121, label, label_faces, INK_FAINT)
        x = end + 44
    footer = _faces(SANS, 22)
    host = settings.SITE_URL.split("://", 1)[-1].rstrip("/")
    _draw_text(
        draw, MARGIN, HEIGHT - 36, _ellipsised(card.footer, footer, text_width - 300), footer, INK_FAINT
    )
    _draw_text(draw, WIDTH - MARGIN - _width(host, footer), HEIGHT - 36, host, footer, INK_FAINT)

    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


# Cache and response


def card_png(card: Card) -> bytes:
    """The card's PNG from the disk cache, drawn and stored when missing. Writing is atomic (a reader never
    sees half a file) and best effort: a cache that cannot be written only costs drawing it again."""
    directory = Path(settings.CARDS_DIR)
    path = directory / card.file_name
    try:
        return path.read_bytes()
    except OSError:
        pass
    png = render(card)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        prefix = card.file_name.rsplit("-", 1)[0]
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".card-", delete=False) as temporary:
            temporary.write(png)
        os.replace(temporary.name, path)
        for stale in directory.glob(f"{glob_escape(prefix)}-*.png"):
            if stale != path and len(stale.name) == len(path.name):
                stale.unlink(missing_ok=True)
    except OSError:
        logger.warning("social cards cannot be cached in %s", directory, exc_info=True)
    return png


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def card_response(request: HttpRequest, card: Card) -> HttpResponse:
    """The card as image/png; a day in shared caches (the address carries the digest, see `card_url`)."""
    etag = f'"{card.digest}"'
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(card_png(card), content_type="image/png")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=86400)
    return response


def card_url(path: str, card: Card) -> str:
    """The card's address with its digest, so a page whose card changed is fetched again by those who
    cache images by URL (the sharing sites)."""
    return f"{path}?v={card.digest}"
