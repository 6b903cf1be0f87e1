"""Text from files is data: no control characters, no markup, bounded length (issue 10, F4/F8)."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text
from textual.content import Content
from textual.widgets._data_table import default_cell_formatter

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
    rendered = Content.from_markup(safetext.markup(HOSTILE))
    assert rendered.plain == cleaned and not rendered.spans


@given(hostile_text, st.integers(min_value=1, max_value=300))
def test_clean_has_no_controls_and_respects_the_limit(value, limit):
    cleaned = safetext.clean(value, limit)
    assert len(cleaned) <= limit
    assert all(unicodedata.category(c) not in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"} for c in cleaned)
    assert safetext.clean(cleaned, limit) == cleaned     # already clean text is left alone


# Backslashes and brackets in every arrangement the parsers treat specially (issue 10 F4): a backslash
# before a tag-like or a plain «[», several backslashes, a final backslash, a lone «[», variables, emoji codes.
TRICKY = ["\\[", "\\\\[", "[b]", "\\", "end\\", "\\[b]x\\", "\\\\[b]x[/b]", "[1]", "\\[1]", "a[b",
          "[$accent]x", "[link=https://evil]y[/link]", "[@click=app.quit]q[/]", ":smile: :thumbs_up:", "$name",
          "[/]", "\\[/]", "x\\\\", "[[b]]", "\\\\\\[b]"]


def shown_by_textual(markup: str) -> Content:
    """What a Static/Label/notification shows for a markup string: Textual's own parser."""
    return Content.from_markup(markup)


def shown_by_rich(value: Text) -> str:
    """What a DataTable cell or a Rich console shows for a cell value."""
    console = Console(width=1000, color_system=None, file=None, record=True, force_terminal=False)
    with console.capture() as capture:
        console.print(default_cell_formatter(value), end="")
    return capture.get()


@pytest.mark.parametrize("value", TRICKY)
def test_tricky_backslashes_and_brackets_are_shown_verbatim(value):
    assert safetext.clean(value) == value                 # nothing here is a control character
    rendered = shown_by_textual(safetext.markup(value))
    assert rendered.plain == value and not rendered.spans
    assert shown_by_rich(safetext.text(value)) == value


@given(hostile_text)
def test_markup_is_never_interpreted(value):
    clean = safetext.clean(value)
    rendered = shown_by_textual(safetext.markup(value))
    assert rendered.plain == clean                       # every character, the final backslash too
    assert not rendered.spans
    text = safetext.text(value)
    assert text.plain == clean and not text.spans
    assert shown_by_rich(text) == clean


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
