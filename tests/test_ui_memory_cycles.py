"""Finished tables leave nothing behind (issue 29 item 13): resuming a match and finishing it, again
and again in one process, keeps the number of live widgets flat. Each closed table kept its Header
and its charts alive (the app's title watchers and theme signal held them)."""

from cardtable.bench import ui_match_cycles


def test_resuming_and_finishing_matches_keeps_the_live_widgets_flat():
    samples = ui_match_cycles(3)
    widgets = [count for _, _, count in samples]
    assert len(samples) == 4
    assert widgets[3] <= widgets[1], f"live widgets after each match: {widgets}"
