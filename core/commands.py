"""What management commands share: one line naming a bad argument instead of a usage dump, and argument
types."""

from __future__ import annotations

import argparse
import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser


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
