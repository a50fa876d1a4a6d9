#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.management import execute_from_command_line


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wovepaper.settings")
    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        # A bad environment variable is one line, not a traceback.
        sys.exit(f"wovepaper: configuration error: {error}")


if __name__ == "__main__":
    main()
