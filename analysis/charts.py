"""A topic's papers per month as a small bar chart, drawn on the server as SVG: the bars' geometry in
the drawing's own units (the page scales it to its width), the words about it in HTML beside it, so
they stay readable on a narrow phone and without JavaScript."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

MONTHS_SHOWN = 60  # five years: older months are summed into the text, not drawn
CHART_WIDTH = 600
CHART_HEIGHT = 120
BAR_GAP = 0.2  # of a month's width


@dataclass(frozen=True)
class MonthBar:
    month: datetime.date
    paper_count: int
    x: float
    y: float
    width: float
    height: float

    @property
    def label(self) -> str:
        return self.month.strftime("%B %Y")


@dataclass(frozen=True)
class MonthlyChart:
    bars: list[MonthBar]  # every month from the first shown to the last, those without papers included
    earlier_papers: int  # posted before the first month shown
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT

    @property
    def first(self) -> MonthBar:
        return self.bars[0]

    @property
    def last(self) -> MonthBar:
        return self.bars[-1]

    @property
    def busiest(self) -> MonthBar:
        return max(self.bars, key=lambda bar: (bar.paper_count, bar.month))

    @property
    def description(self) -> str:
        """The chart in one sentence, for its <desc> and for readers who cannot see it."""
        total = sum(bar.paper_count for bar in self.bars)
        text = (
            f"{total} paper{'s' if total != 1 else ''} from {self.first.label} to {self.last.label}, "
            f"most in {self.busiest.label} ({self.busiest.paper_count})"
        )
        if self.earlier_papers:
            text += f"; {self.earlier_papers} earlier"
        return text + "."


def _months(first: datetime.date, last: datetime.date) -> list[datetime.date]:
    months, month = [], first.replace(day=1)
    while month <= last:
        months.append(month)
        month = (month + datetime.timedelta(days=32)).replace(day=1)
    return months


def monthly_chart(counts: list[tuple[datetime.date, int]]) -> MonthlyChart | None:
    """The chart of (month, papers) pairs, oldest first as `papers_per_month` gives them; None without
    papers."""
    if not counts:
        return None
    by_month = dict(counts)
    months = _months(counts[0][0], counts[-1][0])[-MONTHS_SHOWN:]
    earlier = sum(count for month, count in counts if month < months[0])
    tallest = max(by_month.get(month, 0) for month in months)
    slot = CHART_WIDTH / len(months)
    bars = []
    for index, month in enumerate(months):
        count = by_month.get(month, 0)
        height = round(CHART_HEIGHT * count / tallest, 2)
        bars.append(
            MonthBar(
                month=month,
                paper_count=count,
                x=round(index * slot + slot * BAR_GAP / 2, 2),
                y=round(CHART_HEIGHT - height, 2),
                width=round(slot * (1 - BAR_GAP), 2),
                height=height,
            )
        )
    return MonthlyChart(bars=bars, earlier_papers=earlier)
