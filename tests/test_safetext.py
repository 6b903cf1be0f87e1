"""Text from files is data: no control characters, no markup, bounded length (issue 10, F4/F8)."""

import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from cardtable import output, safetext

HOSTILE = "\u001b]0;OWNED\u0007\u001b[2J[bold red]x[/] [link=https://evil]y[/link] \u202eevil\r\nz"

# Text that leans towards the dangerous parts: ESC, BEL, CSI/OSC starters, brackets, bidi, newlines.
hostile_text = st.text(alphabet=st.one_of(
    st.sampled_from(list("\x1b\x07\x9b\x9d[]/=\\\r\n\t\u202e\u2066\u200b\x00\x7f@ab")),
    st.characters()), max_size=300)


def test_the_reported_title_and_clear_sequence_is_harmless():
    cleaned = safetext.clean(HOSTILE)
    assert "\x1b" not in cleaned and "\x07" not in cleaned and "\u202e" not in cleaned
    assert "\n" not in cleaned and "\r" not in cleaned
    assert "OWNED" in cleaned          # the text itself is kept, only its power is gone
    rendered = Text.from_markup(safetext.markup(HOSTILE))
    assert rendered.plain == cleaned and not rendered.spans


@given(hostile_text, st.integers(min_value=1, max_value=300))
def test_clean_has_no_controls_and_respects_the_limit(value, limit):
    cleaned = safetext.clean(value, limit)
    assert len(cleaned) <= limit
    assert all(unicodedata.category(c) not in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"} for c in cleaned)
    assert safetext.clean(cleaned, limit) == cleaned     # already clean text is left alone


@given(hostile_text)
def test_markup_is_never_interpreted(value):
    escaped = safetext.markup(value)
    rendered = Text.from_markup(escaped)
    clean = safetext.clean(value)
    # Rich's escape doubles a final backslash (so that a following "[" stays escaped when pieces are
    # joined): shown alone, that one character is doubled. Nothing else changes.
    assert rendered.plain in (clean, clean + "\\" if clean.endswith("\\") else clean)
    assert not rendered.spans


def test_huge_text_costs_no_more_than_a_short_one():
    huge = "G" * 3_000_000
    cleaned = safetext.clean(huge, safetext.SHORT)
    assert len(cleaned) == safetext.SHORT and cleaned.endswith("…")


def test_non_strings_become_text():
    assert safetext.clean(12) == "12"
    assert "\x1b" not in safetext.clean(["\x1b[2J"])


@given(st.text(max_size=50))
def test_the_ascii_stand_in_keeps_the_width(value):
    from rich.cells import cell_len

    clean = safetext.clean(value)
    ascii_text = output.to_ascii(clean)
    assert ascii_text.isascii()
    assert cell_len(ascii_text) == cell_len(clean)
