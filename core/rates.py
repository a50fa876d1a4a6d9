"""The notation of inbound rate limits (django-ratelimit's): N requests per s, m, h or d, the period
optionally a multiple, e.g. 600/m, 100/5m, 10/h. Read by the settings, so nothing here imports Django."""

from __future__ import annotations

import re
from dataclasses import dataclass

_RATE = re.compile(r"^([1-9]\d*)/([1-9]\d*)?([smhd])$")
_PERIODS = {"s": ("second", 1), "m": ("minute", 60), "h": ("hour", 3600), "d": ("day", 86400)}


@dataclass(frozen=True)
class Rate:
    count: int
    multiple: int
    unit: str

    @classmethod
    def parse(cls, text: str) -> Rate:
        """A rate in the notation above; ValueError for anything else, 0/m (which would refuse every
        request) included."""
        match = _RATE.fullmatch(text.strip())
        if match is None:
            raise ValueError(f"{text!r} is not a rate like 600/m, 100/5m or 10/h (requests per s, m, h or d)")
        count, multiple, unit = match.groups()
        return cls(int(count), int(multiple or 1), unit)

    @property
    def window_seconds(self) -> int:
        return self.multiple * _PERIODS[self.unit][1]

    def in_words(self, one: str = "request", many: str = "requests") -> str:
        """600/m → 600 requests a minute; 1/h → 1 request an hour; 100/5m → 100 requests every 5
        minutes."""
        name = _PERIODS[self.unit][0]
        things = f"{self.count} {one if self.count == 1 else many}"
        if self.multiple > 1:
            return f"{things} every {self.multiple} {name}s"
        return f"{things} {'an' if name == 'hour' else 'a'} {name}"
