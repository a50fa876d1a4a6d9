"""arXiv into the corpus: OAI-PMH lists by set and date (the daily harvest), the API by id (on demand)."""

from __future__ import annotations

import datetime
import queue
import threading
from collections.abc import Callable, Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.progress import Progress, no_progress
from harvest.clients import ARXIV_API_BATCH, ArxivApiClient, ArxivOaiClient
from harvest.models import HarvestRun
from harvest.parsers.arxiv import ParsedPage
from harvest.records import PaperRecord
from harvest.runs import RunRecorder, Summary
from harvest.sweeps.common import finished, guarded, locked, record_skipped, store_papers
from harvest.upstream import Fetched, UpstreamError

OAI_SOURCE = "arXiv OAI-PMH"
API_SOURCE = "arXiv API"
# badResumptionToken (tokens expire daily) restarts the list from the run's date; a few times at most,
# so a source that keeps refusing cannot keep a run going for ever.
MAX_LIST_RESTARTS = 3
# At most this many waiting pages are stored in one transaction: their names are grouped once, and the
# paper-writes lock (lock_paper_writes) is held for as long as about five seconds of storing at the most.
PAGES_STORED_TOGETHER = 4


def arxiv_oai_harvest(
    *,
    set_spec: str,
    from_date: datetime.date,
    until: datetime.date | None = None,
    metadata_prefix: str = "arXiv",
    dry_run: bool = False,
    progress: Progress = no_progress,
) -> Summary:
    """Harvest ListRecords of a set from a date, page by page through resumption tokens. A run with the
    same parameters that did not finish is resumed from its stored token."""
    parameters = {
        "set": set_spec,
        "from": from_date.isoformat(),
        "until": until.isoformat() if until else None,
        "metadata_prefix": metadata_prefix,
    }
    with locked(HarvestRun.Source.ARXIV_OAI, dry_run=dry_run) as lease:
        recorder = RunRecorder.start(HarvestRun.Source.ARXIV_OAI, parameters, dry_run=dry_run, lease=lease)
        with guarded(recorder, OAI_SOURCE), ArxivOaiClient() as client:
            return _list_records(recorder, client, parameters, progress)
        return recorder.summary


def _list_records(
    recorder: RunRecorder, client: ArxivOaiClient, parameters: dict, progress: Progress
) -> Summary:
    """The list's pages in order, fetched and parsed ahead on a thread of their own (_PagesAhead) while
    the pages before are stored: the requests (and arXiv's 3 s between two) and the parsing overlap the
    database's work. The pages that are waiting when a transaction starts, up to PAGES_STORED_TOGETHER,
    are stored in it together, with the last one's checkpoint: a daily harvest, whose pages come 3 s
    apart, stores each alone; a backlog served faster than it is stored groups its names once for
    several pages (on the ingest benchmark, 1.34 -> 1.12 s a page of 1,000 at 100,000 papers). The
    thread only reads HTTP and parses; every write stays here."""
    from_date = datetime.date.fromisoformat(parameters["from"])
    until = datetime.date.fromisoformat(parameters["until"]) if parameters["until"] else None
    token = recorder.checkpoint.get("resumption_token")
    page_number = recorder.checkpoint.get("page", 0) if token else 0
    restarts = 0

    def fetch_page(resumption_token: str | None) -> Fetched[ParsedPage]:
        if resumption_token:
            return client.resume(resumption_token)
        return client.list_records(
            set_spec=parameters["set"],
            from_date=from_date,
            until=until,
            metadata_prefix=parameters["metadata_prefix"],
        )

    pages = _PagesAhead(fetch_page, token)
    try:
        while True:
            upcoming: Fetched[ParsedPage] | UpstreamError | None = next_page(pages)
            records: list[PaperRecord] = []
            together = 0
            while isinstance(upcoming, Fetched) and upcoming.page.oai_error is None:
                page_number += 1
                together += 1
                record_skipped(
                    recorder, OAI_SOURCE, upcoming.request, f"page {page_number}", upcoming.page.skipped
                )
                records += upcoming.page.records
                token = upcoming.page.resumption_token
                progress(
                    "records",
                    len(upcoming.page.records) + len(upcoming.page.skipped),
                    upcoming.page.complete_list_size,
                )
                if not token:
                    # The last page and the end of the run commit together: stored apart, a run killed
                    # between them kept a checkpoint with no token and started the whole list again.
                    with transaction.atomic():
                        store_papers(recorder, records, {"resumption_token": None, "page": page_number})
                        return finished(recorder, _harvested_through(until))
                upcoming = pages.waiting() if together < PAGES_STORED_TOGETHER else None
            if together:
                store_papers(recorder, records, {"resumption_token": token, "page": page_number})
            if upcoming is None:
                continue
            where = f"page {page_number + 1}"
            if isinstance(upcoming, UpstreamError):
                return recorder.fail(
                    source=upcoming.source, request=upcoming.request, position=where, message=upcoming.message
                )
            code, message = upcoming.page.oai_error
            if code == "noRecordsMatch":
                break  # nothing (more) in this range: a clean end
            if code == "badResumptionToken" and token and restarts < MAX_LIST_RESTARTS:
                restarts += 1
                recorder.error(
                    source=OAI_SOURCE,
                    request=upcoming.request,
                    position=where,
                    message=f"badResumptionToken ({message or 'expired'}): restarting from {from_date}",
                    count=False,
                )
                token, page_number = None, 0
                pages.close()
                pages = _PagesAhead(fetch_page, None)
                continue
            detail = f"OAI-PMH error {code}" + (f": {message}" if message else "")
            return recorder.fail(source=OAI_SOURCE, request=upcoming.request, position=where, message=detail)
    finally:
        pages.close()
    return finished(recorder, _harvested_through(until))


class _PagesAhead:
    """A list's pages from a resumption token on, each fetched and parsed on a thread of its own as soon
    as the one before has come, up to PAGES_STORED_TOGETHER ahead of the storing. Each page comes as its
    Fetched, or as the UpstreamError that ended the list there; the thread stops after a page with an
    OAI-PMH error or without a token, and when closed."""

    def __init__(self, fetch_page: Callable[[str | None], Fetched[ParsedPage]], token: str | None) -> None:
        self._pages: queue.Queue[Fetched[ParsedPage] | BaseException] = queue.Queue(PAGES_STORED_TOGETHER)
        self._closed = threading.Event()
        self._thread = threading.Thread(
            target=self._read, args=(fetch_page, token), name="oai-pages-ahead", daemon=True
        )
        self._thread.start()

    def _read(self, fetch_page: Callable[[str | None], Fetched[ParsedPage]], token: str | None) -> None:
        while not self._closed.is_set():
            try:
                fetched = fetch_page(token)
            except BaseException as error:  # the storing thread raises it, or records an UpstreamError
                self._hand_over(error)
                return
            self._hand_over(fetched)
            token = fetched.page.resumption_token
            if fetched.page.oai_error is not None or not token:
                return

    def _hand_over(self, item: Fetched[ParsedPage] | BaseException) -> None:
        while not self._closed.is_set():
            try:
                self._pages.put(item, timeout=0.1)  # again and again, so that closing never waits on a put
                return
            except queue.Full:
                continue

    def next(self) -> Fetched[ParsedPage] | UpstreamError:
        """The next page, once it is here."""
        return self._opened(self._pages.get())

    def waiting(self) -> Fetched[ParsedPage] | UpstreamError | None:
        """The next page if it is here already, else None."""
        try:
            return self._opened(self._pages.get_nowait())
        except queue.Empty:
            return None

    @staticmethod
    def _opened(item: Fetched[ParsedPage] | BaseException) -> Fetched[ParsedPage] | UpstreamError:
        if isinstance(item, BaseException) and not isinstance(item, UpstreamError):
            raise item
        return item

    def close(self) -> None:
        """Stops the thread once its request in flight, if any, has its answer (or has timed out)."""
        self._closed.set()
        self._thread.join()


def next_page(pages: _PagesAhead) -> Fetched[ParsedPage] | UpstreamError:
    """The next page of the list, once it is here (the benchmark clocks the wait)."""
    return pages.next()


def _harvested_through(until: datetime.date | None) -> dict[str, str]:
    return {"harvested_through": (until or timezone.now().date()).isoformat()}


def arxiv_daily_from(set_spec: str) -> datetime.date:
    """Where the daily harvest of a set starts: the day its last successful harvest reached (that day
    again, since records of it may have come after the run), or a couple of days back the first time."""
    last = HarvestRun.objects.last_succeeded(HarvestRun.Source.ARXIV_OAI, set=set_spec)
    through = last.checkpoint.get("harvested_through") if last else None
    if through:
        return datetime.date.fromisoformat(through)
    return timezone.now().date() - datetime.timedelta(days=settings.ARXIV_FIRST_HARVEST_DAYS)


def arxiv_ids_fetch(
    *, arxiv_ids: Sequence[str], dry_run: bool = False, progress: Progress = no_progress
) -> Summary:
    """Fetch papers by id from the arXiv API (a reader asked for a paper we do not have, or by hand)."""
    ids = list(dict.fromkeys(arxiv_ids))
    recorder = RunRecorder.start(HarvestRun.Source.ARXIV_API, {"ids": ids}, dry_run=dry_run)
    with guarded(recorder, API_SOURCE), ArxivApiClient() as client:
        for start in range(recorder.checkpoint.get("done", 0), len(ids), ARXIV_API_BATCH):
            batch = ids[start : start + ARXIV_API_BATCH]
            where = f"ids {start + 1}-{start + len(batch)}"
            try:
                fetched = client.papers(batch)
            except UpstreamError as error:
                return recorder.fail(
                    source=error.source, request=error.request, position=where, message=error.message
                )
            record_skipped(recorder, API_SOURCE, fetched.request, where, fetched.page.skipped)
            returned = {record.arxiv_id for record in fetched.page.records}
            for missing in (arxiv_id for arxiv_id in batch if arxiv_id not in returned):
                recorder.error(
                    source=API_SOURCE,
                    request=fetched.request,
                    position=where,
                    message=f"{missing}: not on arXiv",
                )
                recorder.count(skipped=1)
            store_papers(recorder, fetched.page.records, {"done": start + len(batch)})
            progress("papers", len(batch), len(ids))
        return finished(recorder)
    return recorder.summary
