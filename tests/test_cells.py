"""Padding by terminal cells (cardtable.ui.cells): as str's for ASCII, two cells per CJK character."""

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from cardtable.ui import cells

ascii_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
mixed_text = st.text(alphabet=st.sampled_from("ab1♠ 你下家对上王"), max_size=8)


@given(ascii_text, st.integers(0, 20))
def test_ascii_pads_as_str_does(text, width):
    assert cells.ljust(text, width) == text.ljust(width)
    assert cells.rjust(text, width) == text.rjust(width)
    assert cells.center(text, width) == text.center(width)


@given(mixed_text, st.integers(0, 20))
def test_cjk_fills_exactly_the_cells(text, width):
    for padded in (cells.ljust(text, width), cells.rjust(text, width), cells.center(text, width)):
        assert text in padded
        assert cell_len(padded) == max(width, cell_len(text))


def test_a_seat_column_lines_up_in_chinese():
    rows = [cells.ljust(name, 8) + "+50" for name in ("你", "下家", "You", "Oeste")]
    assert {cell_len(row) for row in rows} == {11}
