"""A synthetic arXiv OAI-PMH endpoint for the ingest benchmark: ListRecords in metadataPrefix `arXiv`,
paged with resumption tokens, served over HTTP on 127.0.0.1 by a process of its own (as arXiv's server
is not the harvester's process: making the XML costs the harvest no CPU time of its own).

The records have the real records' shape (tests/fixtures/arxiv/oai_pmh/): a header with identifier,
datestamp and setSpec; `<arXiv>` metadata with id, created, sometimes updated, authors as keyname and
forenames (sometimes a suffix or a printed affiliation, now and then a collaboration), a title and an
abstract wrapped at 80 columns as arXiv wraps them, categories, comments, sometimes a journal-ref and a
DOI, a licence. Text and names are the demo listing's (bench/sources.py), recombined.

Researchers write with their own group: each has a name, a lab of LAB_SIZE researchers and an
institution; a paper's first author is drawn with a long tail (a few write hundreds of papers), most
co-authors come from the first author's lab, and one in ten writes their first name as an initial, so
grouping by name has the evidence it has with arXiv's records (shared co-authors, printed affiliations,
initials).

Everything is decided by the seed, page by page: a page is made when it is asked for (and the next one
while the client stores it), so memory stays bounded whatever the number of records, and any page can
be asked for again. Record i's datestamp is FIRST_DAY + i // RECORDS_PER_DAY, and `from` and `until`
select records by it as OAI-PMH says, so a harvest of a few days re-reads the first records.

`python -m bench.oai_stream --records N` serves a stream and prints its address.
"""

from __future__ import annotations

import argparse
import bisect
import datetime
import itertools
import random
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape, quoteattr

from bench.sources import Sources, load_sources

FIRST_DAY = datetime.date(2024, 1, 1)
RECORDS_PER_DAY = 2000  # about arXiv's: new papers and new versions of a weekday
PAGE_SIZE = 1000  # records in one ListRecords page, as arXiv's
LAB_SIZE = 8
LIST_ID = 7351  # the first half of every token, as arXiv's "6960524|1001"
LICENCES = (
    "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
    "http://creativecommons.org/licenses/by/4.0/",
    "http://creativecommons.org/licenses/by-nc-sa/4.0/",
    "http://creativecommons.org/publicdomain/zero/1.0/",
)
SUFFIXES = ("Jr", "III", "II")
COLLABORATIONS = ("ATLAS Collaboration", "The LIGO Scientific Collaboration", "Open Catalyst Team")
INSTITUTION_FORMS = ("University of {}", "{} University", "{} Institute of Technology", "{} Research Centre")
JOURNALS = ("Phys. Rev. D", "J. Mach. Learn. Res.", "IEEE Trans. Pattern Anal. Mach. Intell.", "Nature")
_NOT_XML = dict.fromkeys(c for c in range(32) if c not in (9, 10, 13))  # characters XML 1.0 refuses
_TOKEN = re.compile(r"^(\d+)\|(\d+)-(\d+)-(\d+)$")  # list id | first - stop - cursor (record indexes)

ENVELOPE_START = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n'
    "<responseDate>{date}T12:00:00Z</responseDate>\n"
    "{request}\n"
)
METADATA_START = (
    ' <arXiv xmlns="http://arxiv.org/OAI/arXiv/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://arxiv.org/OAI/arXiv/ http://arxiv.org/OAI/arXiv.xsd">\n'
)


def _text(value: str) -> str:
    return escape(value.translate(_NOT_XML))


def _wrapped(text: str, width: int = 80) -> str:
    """Lines of at most `width` characters, as arXiv's records print titles and abstracts."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def set_spec_of(category: str) -> str:
    """The OAI set of an arXiv category: cs.LG in cs, hep-th in physics:hep-th."""
    archive = category.split(".")[0]
    if archive in ("cs", "math", "stat", "eess", "econ", "q-bio", "q-fin", "nlin"):
        return archive
    return f"physics:{archive}"


@dataclass(frozen=True)
class Stream:
    records: int
    seed: int = 1
    page_size: int = PAGE_SIZE

    @property
    def pages(self) -> int:
        return -(-self.records // self.page_size)

    @property
    def researchers(self) -> int:
        return max(LAB_SIZE * 4, self.records // 2)  # as the bench corpus: two papers a researcher

    @property
    def days(self) -> int:
        return -(-self.records // RECORDS_PER_DAY)


class Maker:
    """Makes records and pages of a stream; the researchers' names and labs are drawn once."""

    def __init__(self, stream: Stream, sources: Sources) -> None:
        self.stream, self.sources = stream, sources
        rng = random.Random(f"{stream.seed}:researchers")
        self.names = [
            (rng.choice(sources.first_names), rng.choice(sources.last_names))
            for _ in range(stream.researchers)
        ]
        self.middle = [rng.choice("ABCDEFGHJKLMNPRSTW") if rng.random() < 0.2 else "" for _ in self.names]
        self.suffix = [rng.choice(SUFFIXES) if rng.random() < 0.005 else "" for _ in self.names]
        places = [rng.choice(sources.last_names) for _ in range(max(20, stream.researchers // 200))]
        self.institution = [
            INSTITUTION_FORMS[number % len(INSTITUTION_FORMS)].format(place)
            for number, place in enumerate(places)
        ]
        # First authors with a long tail: weight 1/(rank+50)^0.9, as the bench corpus draws its authors.
        self.first_author_weights = list(
            itertools.accumulate(1.0 / (rank + 50.0) ** 0.9 for rank in range(stream.researchers))
        )

    def _first_author(self, rng: random.Random) -> int:
        point = rng.random() * self.first_author_weights[-1]
        return bisect.bisect_left(self.first_author_weights, point)

    def _team(self, rng: random.Random) -> list[int]:
        first = self._first_author(rng)
        lab = first - first % LAB_SIZE
        size = min(40, 1 + sum(1 for _ in range(12) if rng.random() < 0.3))  # about 4.6, a long tail
        team = [first]
        while len(team) < size:
            if rng.random() < 0.8:
                member = min(self.stream.researchers - 1, lab + rng.randrange(LAB_SIZE))
            else:
                member = self._first_author(rng)
            if member not in team:
                team.append(member)
        return team

    def _author(self, researcher: int, rng: random.Random) -> str:
        first, last = self.names[researcher]
        if rng.random() < 0.1:
            first = f"{first[0]}."  # the same person, once with an initial
        elif self.middle[researcher]:
            first = f"{first} {self.middle[researcher]}."
        parts = [f"<keyname>{_text(last)}</keyname><forenames>{_text(first)}</forenames>"]
        if self.suffix[researcher]:
            parts.append(f"<suffix>{self.suffix[researcher]}</suffix>")
        if rng.random() < 0.15:
            institution = self.institution[researcher % len(self.institution)]
            parts.append(f"<affiliation>{_text(institution)}</affiliation>")
        return f"<author>{''.join(parts)}</author>"

    def record(self, index: int) -> str:
        """Record `index` of the stream (0-based), as the XML of one <record>."""
        rng = random.Random(f"{self.stream.seed}:record:{index}")
        sources = self.sources
        source = sources.papers[rng.randrange(len(sources.papers))]
        words = [
            rng.choice(sources.title_words) if rng.random() < 0.25 else word for word in source.title.split()
        ]
        own = list(source.sentences[: rng.randint(2, 5)])
        borrowed = [
            sources.papers[rng.randrange(len(sources.papers))].sentences[0] for _ in range(rng.randint(2, 4))
        ]
        datestamp = FIRST_DAY + datetime.timedelta(days=index // RECORDS_PER_DAY)
        # New-style ids numbered within the month of their datestamp (at most 62,000: five digits).
        month_start = datestamp.replace(day=1)
        number = index - (month_start - FIRST_DAY).days * RECORDS_PER_DAY + 1
        arxiv_id = f"{month_start:%y%m}.{number:05d}"
        created = datestamp - datetime.timedelta(days=rng.randrange(0, 30) if rng.random() < 0.3 else 0)
        authors = "".join(self._author(researcher, rng) for researcher in self._team(rng))
        if rng.random() < 0.01:
            authors += f"<author><keyname>{rng.choice(COLLABORATIONS)}</keyname></author>"
        fields = [
            f"<id>{arxiv_id}</id><created>{created.isoformat()}</created>",
            f"<updated>{datestamp.isoformat()}</updated>" if created != datestamp else "",
            f"<authors>{authors}</authors>",
            f"<title>{_text(_wrapped(' '.join(words)))}</title>",
            f"<categories>{' '.join(source.categories)}</categories>",
            f"<comments>{rng.randint(4, 40)} pages, {rng.randint(1, 12)} figures</comments>"
            if rng.random() < 0.7
            else "",
        ]
        if rng.random() < 0.2:
            fields.append(
                f"<journal-ref>{rng.choice(JOURNALS)} {rng.randint(10, 120)} ({datestamp.year}) "
                f"{rng.randint(1, 9999):04d}</journal-ref><doi>10.{rng.randint(1000, 9999)}/"
                f"bench.{arxiv_id}</doi>"
            )
        fields.append(f"<license>{rng.choice(LICENCES)}</license>")
        fields.append(f"<abstract>  {_text(_wrapped(' '.join(own + borrowed)))}\n</abstract>")
        return (
            f"<record>\n<header>\n <identifier>oai:arXiv.org:{arxiv_id}</identifier>\n"
            f" <datestamp>{datestamp.isoformat()}</datestamp>\n"
            f" <setSpec>{set_spec_of(source.categories[0])}</setSpec>\n</header>\n<metadata>\n"
            f"{METADATA_START} {''.join(fields)}</arXiv>\n</metadata>\n</record>\n"
        )

    def page(self, first: int, stop: int, cursor: int, request: str) -> bytes:
        """The page of records [cursor, cursor + page size) of the list [first, stop), with the token of
        the next page (empty on the last page, as arXiv ends a list)."""
        end = min(stop, cursor + self.stream.page_size)
        body = [ENVELOPE_START.format(date=FIRST_DAY.isoformat(), request=request), "<ListRecords>\n"]
        body += [self.record(index) for index in range(cursor, end)]
        size, at = stop - first, cursor - first
        token = f"{LIST_ID}|{first}-{stop}-{end}" if end < stop else ""
        body.append(f'<resumptionToken cursor="{at}" completeListSize="{size}">{token}</resumptionToken>\n')
        body.append("</ListRecords>\n</OAI-PMH>\n")
        return "".join(body).encode()

    def selected(self, from_date: str | None, until: str | None) -> tuple[int, int]:
        """The records [first, stop) whose datestamps fall within from and until (both included)."""
        first, stop = 0, self.stream.records
        if from_date:
            days = (datetime.date.fromisoformat(from_date) - FIRST_DAY).days
            first = min(stop, max(0, days * RECORDS_PER_DAY))
        if until:
            days = (datetime.date.fromisoformat(until) - FIRST_DAY).days + 1
            stop = max(first, min(stop, days * RECORDS_PER_DAY))
        return first, stop


def error(code: str, message: str) -> bytes:
    request = '<request verb="ListRecords">http://export.arxiv.org/oai2</request>'
    return (
        ENVELOPE_START.format(date=FIRST_DAY.isoformat(), request=request)
        + f'<error code="{code}">{_text(message)}</error>\n</OAI-PMH>\n'
    ).encode()


class _Pages:
    """Pages made ahead: after page k is asked for, a thread makes page k+1 of the same list while the
    client stores page k, so the harvest does not wait for the XML to be written (arXiv's pages are
    ready too). At most one page is kept."""

    def __init__(self, maker: Maker) -> None:
        self.maker = maker
        self.ready: dict[tuple[int, int, int], bytes] = {}
        self.lock = threading.Lock()

    def get(self, first: int, stop: int, cursor: int, request: str) -> bytes:
        with self.lock:
            body = self.ready.pop((first, stop, cursor), None)
        if body is None:
            body = self.maker.page(first, stop, cursor, request)
        following = cursor + self.maker.stream.page_size
        if following < stop:
            threading.Thread(target=self._make, args=(first, stop, following, request), daemon=True).start()
        return body

    def _make(self, first: int, stop: int, cursor: int, request: str) -> None:
        body = self.maker.page(first, stop, cursor, request)
        with self.lock:
            self.ready = {(first, stop, cursor): body}


def _answer(pages: _Pages, query: dict[str, str]) -> bytes:
    if query.get("verb") != "ListRecords":
        return error("badVerb", "this server answers ListRecords only")
    token = query.get("resumptionToken")
    if token is not None:
        match = _TOKEN.match(token)
        if match is None or int(match[1]) != LIST_ID:
            return error("badResumptionToken", f"unknown token {token}")
        first, stop, cursor = int(match[2]), int(match[3]), int(match[4])
        request = f'<request verb="ListRecords" resumptionToken={quoteattr(token)}>http://export.arxiv.org/oai2</request>'
        return pages.get(first, stop, cursor, request)
    if query.get("metadataPrefix") != "arXiv":
        return error("cannotDisseminateFormat", "this server has metadataPrefix arXiv only")
    try:
        first, stop = pages.maker.selected(query.get("from"), query.get("until"))
    except ValueError:
        return error("badArgument", "from and until are dates (YYYY-MM-DD)")
    if first >= stop:
        return error("noRecordsMatch", "no records in this range")
    attributes = " ".join(f"{name}={quoteattr(value)}" for name, value in sorted(query.items()))
    request = f"<request {attributes}>http://export.arxiv.org/oai2</request>"
    return pages.get(first, stop, first, request)


def server(stream: Stream, sources: Sources, port: int = 0) -> ThreadingHTTPServer:
    pages = _Pages(Maker(stream, sources))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: a hundred pages would print a hundred lines."""

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
            body = _answer(pages, query) if parts.path == "/oai" else error("badVerb", "ask /oai")
            self.send_response(200)  # OAI-PMH answers its errors with 200 and an <error> element
            self.send_header("Content-Type", "text/xml; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    httpd.daemon_threads = True
    return httpd


def records(stream: Stream, sources: Sources) -> Iterator[str]:
    """Every record of the stream in order, as XML (what the server sends, without the pages)."""
    maker = Maker(stream, sources)
    return (maker.record(index) for index in range(stream.records))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.oai_stream", description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, required=True, help="records in the stream")
    parser.add_argument("--seed", type=int, default=1, help="seed of everything random (default 1)")
    parser.add_argument(
        "--page-size", type=int, default=PAGE_SIZE, help=f"records a page (default {PAGE_SIZE})"
    )
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    args = parser.parse_args(argv)
    httpd = server(Stream(args.records, args.seed, args.page_size), load_sources(), args.port)
    # The first line says where: the benchmark reads it to know the server is up.
    print(f"http://127.0.0.1:{httpd.server_address[1]}/oai", flush=True)
    httpd.serve_forever()  # until the benchmark terminates it
    return 0


if __name__ == "__main__":
    sys.exit(main())
