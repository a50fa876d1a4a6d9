"""Every harvest is recorded as a HarvestRun: what it was asked, its counts, its errors (each naming the
source, the request and the position) and its checkpoint. The checkpoint is saved in the same transaction
as the page it follows, so a run killed at any moment resumes exactly after the last page it stored."""

from __future__ import annotations

import datetime
import logging
import os
import socket
import threading
import uuid
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models.functions import Now
from django.utils import timezone

from harvest.models import HarvestRun, RunLease

logger = logging.getLogger(__name__)

MAX_ERRORS_KEPT = 200  # a run that skips thousands of records keeps the first ones and the count


class HarvestBusy(RuntimeError):
    """Another run of the same harvester holds its lease."""


class LeaseLost(HarvestBusy):
    """This run's lease ran out and another run took it: the page that found out is rolled back, and the
    run stops writing, leaving the run's record to the run that holds the lease now."""


def lock_key(name: str) -> int:
    """The PostgreSQL advisory lock key of `name`, the same in every process (transaction-level locks
    only: they end with their transaction, so they hold behind PgBouncer in transaction mode too)."""
    return zlib.crc32(f"wovepaper-harvest:{name}".encode())


@dataclass(frozen=True)
class Lease:
    """One harvester's RunLease while this process holds it. Every statement stands alone or inside the
    caller's transaction, so nothing depends on the database session: the same whether a connection is
    the server's own or one of PgBouncer's pool, handed to another client after each transaction."""

    name: str
    owner: str
    seconds: int

    def renew(self) -> None:
        """Moves the expiry on; inside a page's transaction this is also the page's fence: the row stays
        locked until the page commits, and a run whose lease another run took cannot commit at all."""
        renewed = RunLease.objects.filter(name=self.name, owner=self.owner).update(
            renewed_at=Now(), expires_at=Now() + datetime.timedelta(seconds=self.seconds)
        )
        if not renewed:
            raise LeaseLost(f"the {self.name} lease of {self.owner} ran out and was taken by another run")

    def release(self) -> None:
        RunLease.objects.filter(name=self.name, owner=self.owner).delete()


def lease_take(name: str, seconds: int) -> Lease:
    """The lease of `name` for this process, if nobody holds it, its holder let it run out (killed, or its
    machine lost), or its holder was a process of this machine that is gone (killed, so the next run on
    the same machine need not wait out the term). One statement each way, so two machines asking at once
    cannot both get it."""
    lease = Lease(name, f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}", seconds)
    if _lease_claim(lease, ""):
        return lease
    holder = RunLease.objects.filter(name=name).first()
    if holder is not None and _gone_from_this_machine(holder.owner) and _lease_claim(lease, holder.owner):
        logger.warning(
            "took over the %s lease of %s, a process of this machine that is gone", name, holder.owner
        )
        return lease
    raise HarvestBusy(f"another {name} harvest is running ({holder or 'just finished'})")


def _lease_claim(lease: Lease, dead_owner: str) -> bool:
    """Inserts the lease, or takes it from a holder whose term is over (or, given, from that dead owner)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO harvest_runlease AS held (name, owner, acquired_at, renewed_at, expires_at)"
            " VALUES (%s, %s, statement_timestamp(), statement_timestamp(),"
            " statement_timestamp() + make_interval(secs => %s))"
            " ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, acquired_at = EXCLUDED.acquired_at,"
            " renewed_at = EXCLUDED.renewed_at, expires_at = EXCLUDED.expires_at"
            " WHERE held.expires_at < statement_timestamp() OR held.owner = %s"
            " RETURNING owner",
            [lease.name, lease.owner, lease.seconds, dead_owner],
        )
        return cursor.fetchone() is not None


def _gone_from_this_machine(owner: str) -> bool:
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # alive, another user's
    return False


class _Heartbeat(threading.Thread):
    """Renews a lease a few times per term while its run waits on upstream (a page's retries can take
    minutes), on a connection of its own. A renewal that cannot get the row soon (a page holds it until
    it commits, which renews it anyway) is skipped; a lost lease is left to the next page to find."""

    RENEWALS_PER_TERM = 3

    def __init__(self, lease: Lease) -> None:
        super().__init__(name=f"lease {lease.name}", daemon=True)
        self.lease = lease
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(self.lease.seconds / self.RENEWALS_PER_TERM):
                try:
                    with transaction.atomic():
                        with connection.cursor() as cursor:
                            cursor.execute("SET LOCAL lock_timeout = '5s'")
                        self.lease.renew()
                except LeaseLost as error:
                    logger.error("%s", error)
                    return
                except DatabaseError as error:
                    logger.warning("could not renew the %s lease this time: %s", self.lease.name, error)
        finally:
            connection.close()


@contextmanager
def source_lock(name: str) -> Iterator[Lease]:
    """One run per harvester at a time, across machines, through a RunLease: a run that is killed or
    loses its machine holds it until it expires (HARVEST_LEASE_SECONDS), and pass the lease to
    RunRecorder.start so each page it stores renews it and fails if it was lost."""
    lease = lease_take(name, settings.HARVEST_LEASE_SECONDS)
    heartbeat = _Heartbeat(lease)
    heartbeat.start()
    try:
        yield lease
    finally:
        heartbeat.stopped.set()
        heartbeat.join()
        lease.release()


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

    def __init__(self, run: HarvestRun, *, dry_run: bool, resumed: bool, lease: Lease | None = None) -> None:
        self.run = run
        self.dry_run = dry_run
        self.lease = lease
        self.summary = Summary(resumed=resumed)

    @classmethod
    def start(
        cls, source: str, parameters: dict[str, Any], *, dry_run: bool = False, lease: Lease | None = None
    ) -> RunRecorder:
        """A new run, or the unfinished run with the same parameters, which continues from its checkpoint.
        With the run's lease (source_lock), every save renews it and fails once it is lost."""
        if dry_run:
            return cls(HarvestRun(source=source, parameters=parameters), dry_run=True, resumed=False)
        run = HarvestRun.objects.unfinished_with(source, parameters)
        if run is None:
            run = HarvestRun.objects.create(source=source, parameters=parameters)
            return cls(run, dry_run=False, resumed=False, lease=lease)
        run.state, run.finished_at = HarvestRun.State.RUNNING, None
        run.save(update_fields=["state", "finished_at"])
        recorder = cls(run, dry_run=False, resumed=True, lease=lease)
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
        if self.lease is not None:
            self.lease.renew()
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
