"""What the harvest and embed commands share: one-line errors for bad arguments, and a progress bar."""

from __future__ import annotations

import argparse
import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from harvest.harvesters.common import Progress


class OneLineErrorParser(CommandParser):
    """A bad argument ends in one line naming it and exit status 2, not a usage dump."""

    def error(self, message: str) -> None:  # type: ignore[override]
        if self.called_from_command_line:
            self.exit(2, f"{self.prog}: error: {message}\n")
        raise CommandError(f"Error: {message}")


class OneLineErrorCommand(BaseCommand):
    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        # The parser is built by Django; only its error() is ours (subparsers are made with our class).
        parser.__class__ = OneLineErrorParser
        return parser


def iso_date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date like 2026-11-01") from None


def positive_int(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of at least 1")
    return int(value)


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
