"""The co-author network of a profile as a small drawing, laid out here and drawn as SVG by the template.

The researcher sits in the middle, their co-authors on a ring around them (most shared papers at the top,
then clockwise); a spoke's weight is the papers they share, a chord joins two co-authors who also wrote
one of these papers together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from researchers.models import Researcher

WIDTH = 600
HEIGHT = 380
RING = 125
CENTRE_X = WIDTH / 2
CENTRE_Y = HEIGHT / 2
LABEL_GAP = 8
LABEL_MAX_CHARACTERS = 18


@dataclass(frozen=True)
class GraphNode:
    researcher: Researcher
    x: float
    y: float
    radius: float
    label: str
    label_x: float
    label_y: float
    anchor: str  # SVG text-anchor
    shared_papers: int


@dataclass(frozen=True)
class GraphEdge:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    between_coauthors: bool


@dataclass(frozen=True)
class CoauthorGraph:
    width: int
    height: int
    centre: GraphNode
    nodes: list[GraphNode]
    edges: list[GraphEdge]


def short_name(name: str) -> str:
    """'Grace Brewster Hopper' as 'G. B. Hopper', short enough to label a node."""
    words = name.split()
    if len(name) <= LABEL_MAX_CHARACTERS or len(words) < 2:
        return name if len(name) <= LABEL_MAX_CHARACTERS else name[: LABEL_MAX_CHARACTERS - 1] + "…"
    initials = " ".join(f"{word[0]}." for word in words[:-1])
    label = f"{initials} {words[-1]}"
    return label if len(label) <= LABEL_MAX_CHARACTERS else words[-1][:LABEL_MAX_CHARACTERS]


def _node_radius(shared_papers: int) -> float:
    return round(min(5 + 2.5 * math.sqrt(shared_papers), 14), 1)


def _placed(researcher: Researcher, angle: float, shared_papers: int) -> GraphNode:
    cos, sin = math.cos(angle), math.sin(angle)
    radius = _node_radius(shared_papers)
    x, y = CENTRE_X + RING * cos, CENTRE_Y + RING * sin
    reach = radius + LABEL_GAP
    anchor = "start" if cos > 0.3 else "end" if cos < -0.3 else "middle"
    # Text hangs below a node in the lower half and sits above one in the upper half.
    label_y = y + sin * reach + (10 if sin > 0.3 else 4 if sin >= -0.3 else -2)
    return GraphNode(
        researcher=researcher,
        x=round(x, 1),
        y=round(y, 1),
        radius=radius,
        label=short_name(researcher.display_name),
        label_x=round(x + cos * reach, 1),
        label_y=round(label_y, 1),
        anchor=anchor,
        shared_papers=shared_papers,
    )


def coauthor_graph(
    researcher: Researcher, coauthors: Sequence[Researcher], pairs: Sequence[tuple[int, int, int]]
) -> CoauthorGraph | None:
    """Lay out `coauthors` (annotated with `shared_papers`, most first) around `researcher`; `pairs` are
    (id, id, shared papers) between co-authors. None when there is nobody to draw."""
    if not coauthors:
        return None
    centre = GraphNode(
        researcher=researcher,
        x=CENTRE_X,
        y=CENTRE_Y,
        radius=16,
        label=short_name(researcher.display_name),
        label_x=CENTRE_X,
        label_y=CENTRE_Y + 16 + 16,
        anchor="middle",
        shared_papers=0,
    )
    step = 2 * math.pi / len(coauthors)
    nodes = [
        _placed(coauthor, -math.pi / 2 + index * step, coauthor.shared_papers)
        for index, coauthor in enumerate(coauthors)
    ]
    by_id = {node.researcher.pk: node for node in nodes}
    chords = [
        GraphEdge(
            by_id[a].x, by_id[a].y, by_id[b].x, by_id[b].y, round(0.6 + 0.4 * math.log2(shared), 2), True
        )
        for a, b, shared in pairs
        if a in by_id and b in by_id
    ]
    spokes = [
        GraphEdge(centre.x, centre.y, node.x, node.y, round(1 + math.log2(node.shared_papers), 2), False)
        for node in nodes
    ]
    return CoauthorGraph(WIDTH, HEIGHT, centre, nodes, chords + spokes)
