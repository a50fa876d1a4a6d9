"""Marked titles and abstract passages, made in Python from the rows a results page has read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from papers.search.keyword_index import paper_words
from papers.search.query import Term
from papers.search.snippets import (
    OPENING_WORDS,
    PASSAGE_CHARACTERS,
    PASSAGE_SEPARATOR,
    Highlighter,
    Snippet,
)

FILLER = "Plain sentences about nothing in particular fill this part of the abstract well. "


def highlighter(*terms: Term) -> Highlighter:
    found = Highlighter.for_terms(terms)
    assert found is not None
    return found


def test_a_word_is_marked_wherever_its_stem_occurs_as_the_index_reads_it():
    title = highlighter(Term("detection")).title("Detecting objects: detection, DETECTIONS and detectors")
    assert title.marked_words == ("Detecting", "detection", "DETECTIONS")  # "detector" is another stem
    assert title.text == "Detecting objects: detection, DETECTIONS and detectors"


def test_a_word_is_found_only_where_a_word_starts_and_through_snowballs_exceptions():
    marked = highlighter(Term("learning"), Term("lies")).title("Relearning machine_learning: lying lies")
    # The index reads "machine_learning" as two words, and "lying" as "lie", as PostgreSQL does.
    assert marked.marked_words == ("learning", "lying", "lies")


def test_a_text_whose_lower_casing_changes_its_length_is_marked_in_the_right_places():
    text = "İstanbul workshop on LEARNING; learning again"  # "İ" lower-cases to two characters
    assert highlighter(Term("learning")).title(text).marked_words == ("LEARNING", "learning")


def test_a_phrase_is_marked_only_where_its_words_follow_one_another():
    marked = highlighter(Term("neural network", phrase=True)).title(
        "Neural networks, a neural model and a network of neural units; neural network"
    )
    assert marked.marked_words == ("Neural networks", "neural network")


def test_stop_words_inside_a_phrase_keep_their_places_and_alone_mark_nothing():
    state_of_the_art = highlighter(Term("state of the art", phrase=True))
    assert state_of_the_art.title("state-of-the-art, state of art, state of the art").marked_words == (
        "state-of-the-art",
        "state of the art",
    )
    # GPT-3.5 is read as a phrase of three words, as PostgreSQL reads it.
    assert highlighter(Term("GPT-3.5")).title("GPT-3.5 beats GPT-4 and 3.5 GPT").marked_words == ("GPT-3.5",)
    assert Highlighter.for_terms([Term("the"), Term("of and")]) is None


def test_a_short_abstract_is_shown_whole_with_its_matches_marked():
    snippet = highlighter(Term("graph")).passages("We learn on graphs. Graph methods win.")
    assert snippet.parts == (
        ("We learn on ", False),
        ("graphs", True),
        (". ", False),
        ("Graph", True),
        (" methods win.", False),
    )


def test_passages_come_from_where_the_most_different_words_match():
    abstract = (
        FILLER * 4
        + "Here the word quantum stands alone. "
        + FILLER * 4
        + "Quantum error correction for surface codes is our subject. "
        + FILLER * 4
    )
    snippet = highlighter(Term("quantum"), Term("surface"), Term("codes")).passages(abstract)
    # Both passages are shown in the abstract's order: the lone "quantum" first.
    first, second = snippet.text.removeprefix("… ").removesuffix(" …").split(PASSAGE_SEPARATOR)
    assert "the word quantum stands alone" in first
    assert "Quantum error correction for surface codes" in second
    assert snippet.marked_words == ("quantum", "Quantum", "surface", "codes")
    assert snippet.text.startswith("… ") and snippet.text.endswith(" …")
    assert all(len(passage) <= PASSAGE_CHARACTERS for passage in (first, second))


def test_the_passage_with_the_most_different_words_wins_when_there_is_room_for_one():
    abstract = FILLER * 4 + "Quantum here. " + FILLER * 4 + "Quantum surface codes there. " + FILLER * 4
    many = highlighter(Term("quantum"), Term("surface"))
    snippet = many.passages(abstract)
    assert "Quantum surface codes there" in snippet.text
    abstract += "Quantum again and quantum once more. " + FILLER * 4
    assert many.passages(abstract).text.count(PASSAGE_SEPARATOR) == 1  # two passages at most
    assert "Quantum surface codes there" in many.passages(abstract).text


def test_passages_a_few_words_apart_are_shown_as_one():
    abstract = FILLER * 3 + "Alpha comes first, then a few words, then beta arrives. " + FILLER * 3
    snippet = highlighter(Term("alpha"), Term("beta")).passages(abstract)
    assert PASSAGE_SEPARATOR not in snippet.text
    assert "Alpha comes first, then a few words, then beta" in snippet.text


def test_passages_begin_and_end_with_whole_words():
    words = [f"w{number}x" for number in range(300)]
    words[150] = "needle"
    snippet = highlighter(Term("needle")).passages(" ".join(words))
    shown = snippet.text.removeprefix("… ").removesuffix(" …").split()
    assert "needle" in shown and set(shown) <= set(words)
    # Centred on the match: about as many words before it as after.
    assert abs(shown.index("needle") - (len(shown) - 1 - shown.index("needle"))) <= 1


def test_an_abstract_without_the_words_shows_its_opening():
    abstract = " ".join(f"word{number}" for number in range(100))
    snippet = highlighter(Term("absent")).passages(abstract)
    assert snippet == Snippet.opening(abstract)
    assert snippet.text.split() == [f"word{number}" for number in range(OPENING_WORDS)] + ["…"]
    assert snippet.marked_words == ()


def test_letters_the_index_reads_and_python_does_not_mark_nothing_and_raise_nothing():
    vowel_sign = "\u093f"  # Devanagari's i: a letter to the index's tokenizer, a combining mark to Python
    found = highlighter(Term(vowel_sign + "ab"))
    assert found.title(f"x {vowel_sign}ab y").text == f"x {vowel_sign}ab y"
    assert found.passages(vowel_sign * 3).text == vowel_sign * 3


hostile_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",))
    | st.sampled_from(list(" -.'\"<>&_\ue000\u0301\u093f")),
    max_size=400,
)


@settings(max_examples=200, database=None)
@given(hostile_text, st.data())
def test_any_text_and_any_terms_give_parts_taken_from_the_text(text, data):
    # Terms of the text's own words as well as anything: most of them then match somewhere.
    words = st.sampled_from(text.split() or ["x"]) | hostile_text
    terms = data.draw(st.lists(st.tuples(words, st.booleans()), min_size=1, max_size=4))
    found = Highlighter.for_terms([Term(words, phrase=phrase) for words, phrase in terms])
    if found is None:
        return
    title = found.title(text)
    assert title.text == text
    stems = {stem for term in found.terms for _offset, stem in term}
    for part, marked in title.parts:
        assert not marked or {word.text for word in paper_words(part)} <= stems
    passages = found.passages(text)
    if passages.marked_words:
        assert all(part in text or part in ("… ", " …", PASSAGE_SEPARATOR) for part, _ in passages.parts)
    else:
        assert passages == Snippet.opening(text)
