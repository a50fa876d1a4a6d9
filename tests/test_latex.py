"""TeX in harvested titles and abstracts, made readable and never let through as markup."""

import pytest

from core.latex import readable_html, readable_text


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("On $\\alpha$-nets", "On α-nets"),
        ("in $O(n^2)$ and $\\mathcal{O}(n\\log n)$ time", "in O(n²) and O(n log n) time"),
        ("over $\\mathbb{R}^d$", "over ℝᵈ"),
        ("$x_{ij}^{(t)}$ and $\\hat{y}$", "xᵢⱼ⁽ᵗ⁾ and ŷ"),
        ("a $\\frac{1}{2}$-approximation in $\\sqrt{n+1}$", "a 1/2-approximation in √(n+1)"),
        ("$\\alpha \\leq \\beta \\to \\infty$", "α ≤ β → ∞"),
        ("$$E = mc^2$$ and \\(a+b\\)", "E = mc² and a+b"),
        ("Bal\\'azs and G\\\"{o}del", "Balázs and Gödel"),
        ("50\\% of \\emph{all} cases", "50% of all cases"),
        ("costs \\$5, not $a$", "costs $5, not a"),
        ("an unclosed $ dollar", "an unclosed $ dollar"),
        ("$\\unknowncommand{x}$", "x"),
        ("forms over $\\Q(\\sqrt{5})$ via", "forms over ℚ(√5) via"),  # 0704.0011: an author's own macro
        ("$\\SL(2, \\Z)$ and $a \\\\ b$", "SL(2, ℤ) and a b"),
        ("We study\n   the  thing", "We study the thing"),
        ("", ""),
    ],
)
def test_it_makes_tex_readable(source, text):
    assert readable_text(source) == text


def test_html_escapes_every_harvested_piece_and_wraps_only_maths():
    html = readable_html("<b>bold</b> & $a<b$ </script>")
    assert html == '&lt;b&gt;bold&lt;/b&gt; &amp; <span class="math">a&lt;b</span> &lt;/script&gt;'
