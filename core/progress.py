"""Progress of long work: a callback the work reports to, and a bar for commands that show it."""

from __future__ import annotations

from collections.abc import Callable

from tqdm import tqdm

# progress(stage, advance, total): in this stage ("records", "works", "authors"…), how many more items are
# done, and the stage's total when it is known.
Progress = Callable[[str, int, int | None], None]


def no_progress(stage: str, advance: int, total: int | None) -> None:
    """For scheduled runs, which nobody watches."""


def progress_bar(label: str, *, verbosity: int) -> tuple[tqdm, Progress]:
    """A tqdm bar for a harvest; each stage (works, then authors…) starts it afresh with its own total."""
    bar = tqdm(desc=label, unit=" items", disable=verbosity == 0, dynamic_ncols=True)
    current = {"stage": ""}

    def advance(stage: str, done: int, total: int | None) -> None:
        if stage != current["stage"]:
            current["stage"] = stage
            bar.reset(total=total)
            bar.set_description(f"{label}: {stage}")
        elif total is not None and bar.total != total:
            bar.total = total
            bar.refresh()
        bar.update(done)

    return bar, advance
