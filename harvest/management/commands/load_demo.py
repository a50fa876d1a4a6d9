from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.progress import progress_bar
from harvest.demo import demo_corpus_load, demo_corpus_loaded
from harvest.models import HarvestRun
from papers.models import Paper
from papers.tasks import embed_missing_papers


class Command(BaseCommand):
    help = (
        "Load the real demo corpus shipped in harvest/demo_data (idempotent: a second run changes nothing)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--limit", type=int, default=None, help="Load at most this many papers from the big listing."
        )
        parser.add_argument("--no-embed", action="store_true", help="Do not queue embeddings afterwards.")
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help=(
                "Load only into a corpus without papers, or finish a load that was interrupted; do nothing "
                "once a load has finished or when the papers came from elsewhere (make run)."
            ),
        )

    def handle(self, *args: Any, limit: int | None, no_embed: bool, if_empty: bool, **options: Any) -> None:
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1")
        if if_empty and not _load_wanted():
            self.stdout.write("demo corpus: the corpus already has papers; nothing to do")
            return
        bar, progress = progress_bar("demo corpus", verbosity=options["verbosity"])
        with bar:
            loaded = demo_corpus_load(limit=limit, progress=progress)
        if loaded.touched and not no_embed:
            embed_missing_papers.delay()
        if loaded.resumed:
            self.stdout.write("demo corpus: finishing a load that was interrupted")
        for problem in loaded.problems:
            self.stderr.write(f"skipped {problem}")
        counts, upstream = loaded.papers, loaded.upstream
        self.stdout.write(
            f"demo corpus: {counts.created} created, {counts.updated} updated, {counts.unchanged} unchanged, "
            f"{len(loaded.problems)} skipped; {loaded.linked} authorships linked to researchers"
        )
        self.stdout.write(
            f"upstream demo: {upstream.papers.created} created, {upstream.papers.unchanged} unchanged papers "
            "from OpenAlex and Semantic Scholar records; "
            f"{upstream.researchers_linked} researchers identified upstream, "
            f"{upstream.citations_added} citations added, {upstream.institutions} institutions from ROR"
        )


def _load_wanted() -> bool:
    """For --if-empty: a corpus without papers, or one whose demo load started and did not finish (killed
    part-way, its papers may lack researchers)."""
    if demo_corpus_loaded():
        return False
    return not Paper.objects.exists() or HarvestRun.objects.filter(source=HarvestRun.Source.DEMO).exists()
