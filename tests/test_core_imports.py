import subprocess
import sys


def test_core_and_games_import_no_textual():
    code = (
        "import sys\n"
        "import cardtable.cards, cardtable.engine, cardtable.tricks, cardtable.history, cardtable.saves\n"
        "import cardtable.sim, cardtable.i18n, cardtable.settings, cardtable.cli\n"
        "from cardtable import games\n"
        "for spec in games.games().values():\n"
        "    m = spec.new_match(seed=1); m.view(0)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual',)]\n"
        "assert not bad, bad\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_game_ui_modules_are_named_but_not_imported_by_the_core():
    from cardtable import games

    for spec in games.games().values():
        module, _, cls = spec.ui.partition(":")
        assert module.startswith("cardtable.ui.") and cls
