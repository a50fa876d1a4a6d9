from researchers.coauthor_graph import CENTRE_X, CENTRE_Y, RING, coauthor_graph, short_name
from researchers.models import Researcher


def researcher(pk: int, name: str, shared: int) -> Researcher:
    person = Researcher(pk=pk, display_name=name, normalised_name=name.lower())
    person.shared_papers = shared
    return person


def test_short_names_fit_a_node_label():
    assert short_name("Ada Warpley") == "Ada Warpley"
    assert short_name("Grace Brewster Murray Hopper") == "G. B. M. Hopper"
    assert len(short_name("Wolfeschlegelsteinhausenbergerdorff")) == 18


def test_it_rings_the_coauthors_around_the_researcher_most_shared_at_the_top():
    centre = researcher(1, "Grace Weftwright", 0)
    coauthors = [researcher(2, "Ada Warpley", 4), researcher(3, "Alan Shuttleworth", 1)]
    graph = coauthor_graph(centre, coauthors, [(2, 3, 1), (2, 99, 5)])
    top, bottom = graph.nodes
    assert (top.x, top.y) == (CENTRE_X, CENTRE_Y - RING) and top.anchor == "middle"
    assert (bottom.x, bottom.y) == (CENTRE_X, CENTRE_Y + RING)
    assert top.radius > bottom.radius
    chords = [edge for edge in graph.edges if edge.between_coauthors]
    assert len(chords) == 1  # the pair with someone not drawn is left out
    assert len(graph.edges) == 3
    assert coauthor_graph(centre, [], []) is None
