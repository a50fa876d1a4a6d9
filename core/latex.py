"""Titles and abstracts as arXiv writes them (TeX inline maths, TeX accents) made readable as text.

Nothing here produces markup from harvested text: `readable_text` returns plain text, and `readable_html`
escapes every harvested piece before wrapping maths in a span of our own.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# arXiv metadata writes accents in TeX: Bal\'azs, G\"{o}del, \v{S}koda.
_TEX_ACCENT = re.compile(r"\\([`'^\"~=.uvHckr])\s*\{?([A-Za-z])\}?")
_COMBINING = {
    "`": "\u0300", "'": "\u0301", "^": "\u0302", "~": "\u0303", "=": "\u0304", "u": "\u0306", ".": "\u0307",
    '"': "\u0308", "r": "\u030a", "H": "\u030b", "v": "\u030c", "c": "\u0327", "k": "\u0328",
}  # fmt: skip
_TEX_COMMAND = re.compile(r"\\[a-zA-Z]+\s*")
# Letters TeX writes as commands (Mikkel {\O}bro, Gau\ss); the dotless i and j only carry an accent
# (\'{\i} is í).
_TEX_LETTERS = {
    "AE": "Æ", "ae": "æ", "AA": "Å", "aa": "å", "OE": "Œ", "oe": "œ", "ss": "ß", "O": "Ø", "o": "ø",
    "L": "Ł", "l": "ł", "i": "i", "j": "j",
}  # fmt: skip
_TEX_LETTER = re.compile(r"\\(AE|ae|AA|aa|OE|oe|ss|O|o|L|l|i|j)(?![A-Za-z])\s*")

# Harvested text is hostile: the reader takes maths up to MAX_MATH_LENGTH characters long and nested
# MAX_MATH_DEPTH deep (groups, arguments, scripts), and text up to MAX_SOURCE_LENGTH; beyond a bound, the
# text is shown as it was written, never read (600 nested braces ran Python out of stack, and each of
# thousands of unclosed \( scanned the rest of the text for its end).
MAX_MATH_LENGTH = 500
MAX_MATH_DEPTH = 40
MAX_SOURCE_LENGTH = 10_000

# $…$, $$…$$, \(…\), \[…\]; a dollar escaped as \$ is not a delimiter.
_SPAN = f"(.{{1,{MAX_MATH_LENGTH}}}?)"
_MATH = re.compile(
    rf"(?<!\\)\$\${_SPAN}(?<!\\)\$\$|(?<!\\)\${_SPAN}(?<!\\)\$|\\\({_SPAN}\\\)|\\\[{_SPAN}\\\]", re.DOTALL
)
_TEXT_ESCAPES = {
    r"\%": "%",
    r"\&": "&",
    r"\_": "_",
    r"\#": "#",
    r"\$": "$",
    "``": "“",
    "''": "”",
    "\\\\": " ",
}
_TEXT_ESCAPE = re.compile("|".join(re.escape(key) for key in _TEXT_ESCAPES))
# Text with none of these has no TeX to read: no maths, commands, braces or TeX quotes.
_TEX_HINT = re.compile(r"[$\\{}`']")

_SYMBOLS = {
    # Greek
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ",
    "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ", "sigma": "σ", "varsigma": "ς",
    "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
    "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    # relations, operators, arrows
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼",
    "simeq": "≃", "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫", "times": "×", "cdot": "·",
    "cdots": "⋯", "ldots": "…", "dots": "…", "pm": "±", "mp": "∓", "div": "÷", "ast": "∗", "star": "⋆",
    "circ": "∘", "oplus": "⊕", "otimes": "⊗", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "leftrightarrow": "↔", "Leftrightarrow": "⇔", "mapsto": "↦",
    "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇",
    "cup": "∪", "cap": "∩", "setminus": "∖", "emptyset": "∅", "varnothing": "∅", "forall": "∀",
    "exists": "∃", "neg": "¬", "lnot": "¬", "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨",
    "partial": "∂", "nabla": "∇", "infty": "∞", "sum": "∑", "prod": "∏", "int": "∫", "oint": "∮",
    "ell": "ℓ", "hbar": "ℏ", "prime": "′", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋",
    "lceil": "⌈", "rceil": "⌉", "mid": "|", "vert": "|", "Vert": "‖", "|": "‖", "perp": "⊥",
    "parallel": "∥", "angle": "∠", "degree": "°",
    # named functions are set upright, as words
    "log": " log", "ln": " ln", "exp": " exp", "sin": " sin", "cos": " cos", "tan": " tan",
    "max": " max", "min": " min", "arg": " arg", "lim": " lim", "sup": " sup", "inf": " inf",
    "det": " det", "dim": " dim", "Pr": " Pr", "top": "⊤", "dagger": "†",
    # spacing and escaped characters
    ",": " ", ";": " ", ":": " ", " ": " ", "quad": " ", "qquad": " ", "!": "", "%": "%", "&": "&",
    "_": "_", "#": "#", "$": "$", "{": "{", "}": "}",
}  # fmt: skip
_UNWRAP = {
    "mathrm", "mathit", "mathbf", "mathsf", "mathtt", "mathcal", "mathscr", "mathfrak", "boldsymbol", "bm",
    "text", "textrm", "textit", "textbf", "texttt", "textsf", "textsc", "textnormal", "textup", "emph",
    "operatorname", "mathop", "mbox", "underline",
}  # fmt: skip
_IGNORED = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "displaystyle",
            "limits", "nolimits", "rm", "bf", "it", "cal"}  # fmt: skip
_BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "P": "ℙ", "E": "𝔼", "H": "ℍ"}
_ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303", "bar": "\u0304",
    "overline": "\u0305", "vec": "\u20d7", "dot": "\u0307", "ddot": "\u0308",
}  # fmt: skip
_SUPERSCRIPTS = dict(
    zip(
        "0123456789+-=()abcdefghijklmnoprstuvwxyzT⊤*′",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᵀᵀ*′",
        strict=True,
    )
)
_SUBSCRIPTS = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
_TOKEN = re.compile(r"\\([A-Za-z]+|.)|([{}^_~])|(\s+)|(.)", re.DOTALL)


def detex(text: str) -> str:
    """TeX text (not maths) as plain text: accents made letters (Bal\\'azs is Balázs), other commands and
    braces dropped, spacing tidied. Names, and the text around an abstract's maths, read this way."""
    text = _TEX_LETTER.sub(lambda m: _TEX_LETTERS[m.group(1)], text)
    text = _TEX_ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _COMBINING[m.group(1)]), text)
    text = _TEX_COMMAND.sub("", text).replace("{", "").replace("}", "")
    return " ".join(text.split())


class _TooDeep(Exception):
    """Maths nested past MAX_MATH_DEPTH: shown as written."""


class _MathReader:
    """A small recursive reader of TeX inline maths that writes Unicode text. Every way in deeper (a group,
    an argument, a script) passes through `sequence` or `argument`, which count the depth."""

    def __init__(self, source: str) -> None:
        self.tokens = [(m.group(1), m.group(2), m.group(3), m.group(4)) for m in _TOKEN.finditer(source)]
        self.at = 0
        self.depth = 0

    def _deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_MATH_DEPTH:
            raise _TooDeep

    def sequence(self, closing: bool = False) -> str:
        self._deeper()
        out = []
        while self.at < len(self.tokens):
            if closing and self.tokens[self.at][1] == "}":
                self.at += 1
                break
            out.append(self.item())
        self.depth -= 1
        return "".join(out)

    def argument(self) -> str:
        """The next argument: a {group}, a command, or one character (spaces before it skipped)."""
        while self.at < len(self.tokens) and self.tokens[self.at][2]:
            self.at += 1
        if self.at >= len(self.tokens):
            return ""
        if self.tokens[self.at][1] == "{":
            self.at += 1
            return self.sequence(closing=True)
        self._deeper()
        text = self.item()
        self.depth -= 1
        return text

    def item(self) -> str:
        command, special, space, char = self.tokens[self.at]
        self.at += 1
        if command is not None:
            return self.command(command)
        if special == "{":
            return self.sequence(closing=True)
        if special == "^":
            return _scripted(self.argument(), _SUPERSCRIPTS, "^")
        if special == "_":
            return _scripted(self.argument(), _SUBSCRIPTS, "_")
        if special == "~" or space:
            return " "
        if special == "}":
            return ""  # a brace closing nothing: arXiv sources do nest $ inside $
        return special or char

    def command(self, name: str) -> str:
        if name in _SYMBOLS:
            return _SYMBOLS[name]
        if name in _IGNORED:
            return ""
        if name in ("frac", "dfrac", "tfrac"):
            numerator, denominator = self.argument(), self.argument()
            return f"{_grouped(numerator)}/{_grouped(denominator)}"
        if name == "sqrt":
            return f"√{_grouped(self.argument())}"
        if name == "mathbb":
            argument = self.argument()
            return "".join(_BLACKBOARD.get(letter, letter) for letter in argument)
        if name in _ACCENTS:
            argument = self.argument()
            return argument + _ACCENTS[name] if len(argument) == 1 else argument
        if name in _UNWRAP:
            return self.argument()
        # Unknown: leave the TeX as written rather than guess.
        if self.at < len(self.tokens) and self.tokens[self.at][1] == "{":
            return f"\\{name}{{{self.argument()}}}"
        return f"\\{name}"


def _grouped(text: str) -> str:
    if len(text) <= 1 or text.isalnum() or (text.startswith("(") and text.endswith(")")):
        return text
    return f"({text})"


def _scripted(text: str, table: dict[str, str], mark: str) -> str:
    if text and all(character in table for character in text):
        return "".join(table[character] for character in text)
    return f"{mark}{_grouped(text)}"


_SPACE_INSIDE_BRACKETS = re.compile(r"(?<=[(\[{⟨])\s+|\s+(?=[)\]}⟩,.;])")


def _math_text(source: str) -> str:
    try:
        text = unicodedata.normalize("NFC", " ".join(_MathReader(source).sequence().split()))
    except _TooDeep:
        return " ".join(source.split())
    return _SPACE_INSIDE_BRACKETS.sub("", text)


def _plain_text(source: str) -> str:
    """Text outside maths: TeX escapes and accents resolved, commands and braces dropped, spacing kept
    at both ends (the pieces are joined to maths)."""
    text = _TEXT_ESCAPE.sub(lambda m: _TEXT_ESCAPES[m.group(0)], source)
    cleaned = detex(text)
    if not cleaned:
        return " " if source[:1].isspace() or source[-1:].isspace() else ""
    lead = " " if source[:1].isspace() else ""
    trail = " " if source[-1:].isspace() else ""
    return f"{lead}{cleaned}{trail}"


@functools.lru_cache(maxsize=2048)  # a page asks twice for an abstract (excerpt and whole)
def _pieces(source: str) -> tuple[tuple[bool, str], ...]:
    """(is maths, readable text) pieces of `source`, in order."""
    if len(source) > MAX_SOURCE_LENGTH or not _TEX_HINT.search(source):
        return ((False, " ".join(source.split())),) if source.strip() else ()
    pieces: list[tuple[bool, str]] = []
    position = 0
    for match in _MATH.finditer(source):
        pieces.append((False, _plain_text(source[position : match.start()])))
        maths = next(group for group in match.groups() if group is not None)
        pieces.append((True, _math_text(maths)))
        position = match.end()
    pieces.append((False, _plain_text(source[position:])))
    return tuple((is_maths, text) for is_maths, text in pieces if text)


def readable_text(source: str) -> str:
    """Plain text for titles, descriptions and structured data: 'On $\\alpha$-nets' is 'On α-nets'."""
    return "".join(text for _, text in _pieces(source or "")).strip()


def readable_html(source: str) -> SafeString:
    """HTML for a page: every piece escaped, maths in <span class="math">."""
    html = "".join(
        f'<span class="math">{escape(text)}</span>' if is_maths else escape(text)
        for is_maths, text in _pieces(source or "")
    )
    return mark_safe(html.strip())  # noqa: S308 - every harvested piece went through escape()


_TEX_SPECIAL = re.compile(r"(?<!\\)([&%#])")
_TEX_SPECIAL_OUTSIDE_MATHS = re.compile(r"(?<!\\)([_$])")


def tex_source(text: str) -> str:
    """Harvested text as LaTeX source (a BibTeX field): its maths kept as written, and the characters
    special to TeX escaped where they stand for themselves: & % # everywhere (R&B, 50%), _ and a dollar that
    opens no maths outside the maths. What is escaped already stays as it is."""
    pieces = []
    position = 0
    for match in _MATH.finditer(text):
        pieces.append(_TEX_SPECIAL_OUTSIDE_MATHS.sub(r"\\\1", text[position : match.start()]))
        pieces.append(match.group(0))
        position = match.end()
    pieces.append(_TEX_SPECIAL_OUTSIDE_MATHS.sub(r"\\\1", text[position:]))
    return _TEX_SPECIAL.sub(r"\\\1", "".join(pieces))
