from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from core.backups import BackupError, backup_restore
from core.commands import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = (
        "Restore a backup made by `manage.py backup` into the empty database DATABASE_URL names. Without "
        "embeddings in the backup, run `manage.py embed` afterwards."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("backup", type=Path, help="The backup file.")

    def handle(self, *args: Any, backup: Path, **options: Any) -> None:
        if not backup.is_file():
            raise CommandError(f"no backup file at {backup}")
        try:
            restored = backup_restore(database_url=settings.DATABASE_URL, path=backup)
        except BackupError as error:
            raise CommandError(str(error)) from None
        then = "" if restored.with_embeddings else "; run `manage.py embed` to compute the embeddings"
        self.stdout.write(f"restore: {restored.papers} papers from {backup}{then}")
