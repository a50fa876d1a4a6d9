from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from core.backups import BackupError, backup_create
from core.commands import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = (
        "Back the database up into one file (pg_dump's custom format). The papers' embeddings are left out "
        "unless asked for: `manage.py embed` computes them again after a restore."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output",
            type=Path,
            default=None,
            help="The backup file to write (default: wovepaper-<date-time>.backup in the current directory).",
        )
        parser.add_argument(
            "--with-embeddings", action="store_true", help="Keep the embeddings too (much larger)."
        )

    def handle(self, *args: Any, output: Path | None, with_embeddings: bool, **options: Any) -> None:
        path = output or Path(f"wovepaper-{timezone.now():%Y-%m-%dT%H%M%S}.backup")
        try:
            made = backup_create(
                database_url=settings.DATABASE_URL, path=path, with_embeddings=with_embeddings
            )
        except BackupError as error:
            raise CommandError(str(error)) from None
        size = made.path.stat().st_size / 1_000_000
        what = "with" if made.with_embeddings else "without"
        self.stdout.write(f"backup: {made.papers} papers {what} embeddings in {made.path} ({size:.1f} MB)")
