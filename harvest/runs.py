"""Every harvest is recorded as a HarvestRun: what it was asked, its counts, its errors (each naming the
source, the request and the position) and its checkpoint. The checkpoint is saved in the same transaction
as the page it follows, so a run killed at any moment resumes exactly after the last page it stored."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from harvest.models import HarvestRun

MAX_ERRORS_KEPT = 200  # a run that skips thousands of records keeps the first ones and the count


class HarvestBusy(RuntimeError):
    """Another run of the same harvester holds its lock."""


def lock_key(name: str) -> int:
    """The PostgreSQL advisory lock key of `name`, the same in every process."""
    return zlib.crc32(f"wovepaper-harvest:{name}".encode())


@contextmanager
def source_lock(name: str) -> Iterator[None]:
    """One run per harvester at a time, across machines. A PostgreSQL advisory lock belongs to the
    database session, so a killed run releases it the moment its connection drops."""
    key = lock_key(name)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        if not cursor.fetchone()[0]:
            raise HarvestBusy(f"another {name} harvest is running")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


@dataclass
class Summary:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    errors: int = 0
    state: str = HarvestRun.State.SUCCEEDED
    resumed: bool = False
    last_error: str = ""
    extra: Counter[str] = field(default_factory=Counter)  # "citations added", "researchers linked"…

    def line(self, label: str) -> str:
        """The one-line summary a command ends with."""
        parts = [
            f"{self.created} new",
            f"{self.updated} updated",
            f"{self.unchanged} unchanged",
            f"{self.skipped} skipped",
            *(f"{count} {what}" for what, count in self.extra.items()),
        ]
        outcome = "resumed, " if self.resumed else ""
        outcome += str(self.state) + (f" with {self.errors} errors" if self.errors else "")
        return f"{label}: {', '.join(parts)} ({outcome})"


class RunRecorder:
    """A HarvestRun while it happens. With dry_run nothing is written, but the counts are kept."""

    def __init__(self, run: HarvestRun, *, dry_run: bool, resumed: bool) -> None:
        self.run = run
        self.dry_run = dry_run
        self.summary = Summary(resumed=resumed)

    @classmethod
    def start(cls, source: str, parameters: dict[str, Any], *, dry_run: bool = False) -> RunRecorder:
        """A new run, or the unfinished run with the same parameters, which continues from its checkpoint."""
        if dry_run:
            return cls(HarvestRun(source=source, parameters=parameters), dry_run=True, resumed=False)
        run = HarvestRun.objects.unfinished_with(source, parameters)
        if run is None:
            return cls(
                HarvestRun.objects.create(source=source, parameters=parameters), dry_run=False, resumed=False
            )
        run.state, run.finished_at = HarvestRun.State.RUNNING, None
        run.save(update_fields=["state", "finished_at"])
        recorder = cls(run, dry_run=False, resumed=True)
        recorder.summary.created, recorder.summary.updated = run.created_count, run.updated_count
        recorder.summary.skipped = run.skipped_count
        return recorder

    @property
    def checkpoint(self) -> dict[str, Any]:
        return self.run.checkpoint

    def error(self, *, source: str, request: str, position: str, message: str, count: bool = True) -> None:
        if count:
            self.summary.errors += 1
            self.summary.last_error = f"{position}: {message}" if position else message
        if len(self.run.errors) < MAX_ERRORS_KEPT:
            self.run.errors.append(
                {
                    "at": timezone.now().isoformat(timespec="seconds"),
                    "source": source,
                    "request": request,
                    "position": position,
                    "message": message,
                }
            )

    def count(self, *, created: int = 0, updated: int = 0, unchanged: int = 0, skipped: int = 0) -> None:
        self.summary.created += created
        self.summary.updated += updated
        self.summary.unchanged += unchanged
        self.summary.skipped += skipped

    def save(self, checkpoint: dict[str, Any] | None = None) -> None:
        """Store counts, errors and (if given) the checkpoint: call inside the page's transaction."""
        if checkpoint is not None:
            self.run.checkpoint = checkpoint
        if self.dry_run:
            return
        self.run.created_count = self.summary.created
        self.run.updated_count = self.summary.updated
        self.run.skipped_count = self.summary.skipped
        self.run.save(
            update_fields=["created_count", "updated_count", "skipped_count", "errors", "checkpoint"]
        )

    def finish(self, state: str, checkpoint: dict[str, Any] | None = None) -> Summary:
        """The run's end: its last checkpoint and its state commit together (and with the caller's page,
        when called inside its transaction), so no run is left holding a final checkpoint while it
        still says it is running."""
        self.summary.state = state
        self.run.state = state
        self.run.finished_at = timezone.now()
        if not self.dry_run:
            with transaction.atomic():
                self.save(checkpoint)
                self.run.save(update_fields=["state", "finished_at"])
        return self.summary

    def fail(self, *, source: str, request: str, position: str, message: str) -> Summary:
        """Stop here: the error is recorded and the checkpoint kept, so the next run starts at this page."""
        self.error(source=source, request=request, position=position, message=message)
        return self.finish(HarvestRun.State.FAILED)
