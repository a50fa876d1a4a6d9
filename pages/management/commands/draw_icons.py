"""`python manage.py draw_icons`: the site's icons in static/icons/, drawn from the mark in core/cards.py.

The files are committed; run this again only when the mark changes (icon.svg is drawn by hand to match).
"""

from django.conf import settings
from django.core.management.base import BaseCommand

from core.cards import icon_image

ICONS = settings.BASE_DIR / "static" / "icons"


class Command(BaseCommand):
    help = "Draw favicon.ico, apple-touch-icon.png and the web manifest's icons into static/icons/."

    def handle(self, *args: object, **options: object) -> None:
        ICONS.mkdir(parents=True, exist_ok=True)
        icon_image(48, background=None).save(ICONS / "favicon.ico", sizes=[(48, 48), (32, 32), (16, 16)])
        icon_image(180).convert("RGB").save(ICONS / "apple-touch-icon.png", optimize=True)
        for size in (192, 512):
            icon_image(size).convert("RGB").save(ICONS / f"icon-{size}.png", optimize=True)
        self.stdout.write(f"icons drawn in {ICONS}")
