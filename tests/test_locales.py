"""Languages as data: the catalogue files in ``cardtable/locales``, the fallback to English and the
choice of language (locale, ``--lang``, settings).

What every key must have in every language (the same keys, the same placeholders) is checked here over
the merged catalogues, whichever way a string got in (a TOML file or a module's ``register``)."""

from __future__ import annotations

import re
import string
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from cardtable import i18n

ROOT = Path(__file__).resolve().parent.parent


def _load_everything() -> None:
    import cardtable.ui.app  # noqa: F401  (registers the UI strings)
    from cardtable import games

    for spec in games.games().values():
        __import__(spec.ui.partition(":")[0])


def _fields(template: str) -> set[str]:
    """The placeholders with their format spec: «{you:+d}» must stay «{you:+d}»."""
    return {f"{field}:{spec}!{conv}" for _, field, spec, conv in string.Formatter().parse(template)
            if field is not None}


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def test_every_language_has_a_catalogue_file_shipped_as_package_data():
    folder = resources.files("cardtable.locales")
    assert (folder / "zh.toml").is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.toml" in pyproject["tool"]["setuptools"]["package-data"]["*"]
    for lang in i18n.LANGUAGES:
        assert lang in i18n.LANGUAGE_NAMES


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_catalogue_has_every_key(lang):
    """The list of what a language lacks (shown in English meanwhile) must be empty on main."""
    _load_everything()
    gaps = i18n.missing(lang)
    assert not gaps, f"{lang} has no text for {gaps}: add `key = \"…\"` lines to cardtable/locales/{lang}.toml " \
                     "(the English text shows until then)"


def test_every_ui_string_lives_in_a_catalogue_file():
    """No module registers strings from Python any more: each language is one file."""
    _load_everything()
    for lang in i18n.LANGUAGES:
        page = resources.files("cardtable.locales") / f"{lang}.toml"
        assert i18n.parse_catalogue(page.read_text(encoding="utf-8")) == i18n.catalog(lang), lang
    for path in (ROOT / "cardtable").rglob("*.py"):
        assert not re.search(r"i18n\.register\(|\bregister\(\s*en\s*=", path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_catalogue_has_a_key_english_lacks(lang):
    """A key only a translation has is a leftover (renamed or removed in English): delete it there."""
    _load_everything()
    stray = sorted(set(i18n.catalog(lang)) - set(i18n.catalog("en")))
    assert not stray, f"keys in {lang} that English no longer has (remove them from cardtable/locales/" \
                      f"{lang}.toml): {stray}"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_placeholders_match_english_in_every_language(lang):
    _load_everything()
    en, other = i18n.catalog("en"), i18n.catalog(lang)
    wrong = [f"{key}: {en[key]!r} vs {other[key]!r}" for key in sorted(set(en) & set(other))
             if _fields(en[key]) != _fields(other[key])]
    assert not wrong, "\n".join(wrong)


class _Zeros(dict):
    def __missing__(self, key):
        return 0


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_text_can_be_filled(lang):
    """No stray brace, no empty translation: each text formats (with zeros for its fields)."""
    _load_everything()
    for key, text in i18n.catalog(lang).items():
        assert text.strip() or not i18n.catalog("en")[key].strip(), f"{lang}: {key} is empty"
        text.format_map(_Zeros())


def test_a_missing_translation_shows_in_english_never_as_a_key(monkeypatch):
    _load_everything()
    monkeypatch.delitem(i18n.catalog("zh"), "n_cards")
    monkeypatch.delitem(i18n.catalog("zh"), "continue")
    i18n.set_language("zh")
    assert i18n.t("n_cards", n=3) == "3 cards"
    assert i18n.t("continue") == "Continue"
    assert "n_cards" in i18n.missing("zh")


def test_a_translation_with_a_wrong_placeholder_shows_in_english(monkeypatch):
    _load_everything()
    monkeypatch.setitem(i18n.catalog("zh"), "saved_to", "已保存到存档位 {slto}")
    i18n.set_language("zh")
    assert i18n.t("saved_to", slot=3) == "Saved to slot 3"
    with pytest.raises(KeyError):          # English's own text must be given its fields: a bug, not hidden
        i18n.t("saved_to", slit=3)


def test_chinese_reads_chinese():
    _load_everything()
    i18n.set_language("zh")
    assert i18n.t("gd_place_1") == "头游"
    assert i18n.t("n_cards", n=5) == "5张牌"
    assert i18n.t("progress_gongzhu", hand=2, trick=3, you=-40) == "第2局第3墩 · 你 -40"
    assert i18n.card_count(1) == "1张牌"


def test_unknown_key_is_shown_as_itself_in_every_language():
    for lang in i18n.LANGUAGES:
        i18n.set_language(lang)
        assert i18n.t("no-such-key") == "no-such-key"


@pytest.mark.parametrize("env,lang", [({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LANG": "zh_TW.UTF-8"}, "zh"),
                                      ({"LC_ALL": "zh_CN.GB18030", "LANG": "en_US"}, "zh"),
                                      ({"LANGUAGE": "zh_CN:en_US"}, "zh"), ({"LANG": "zh"}, "zh"),
                                      ({"LANG": "es_ES.UTF-8"}, "es"), ({"LANG": "fr_FR.UTF-8"}, "en"),
                                      ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "POSIX"}, "en")])
def test_the_locale_picks_the_language(env, lang):
    assert i18n.detect_language(env) == lang


def test_a_catalogue_file_holds_strings_only():
    assert i18n.parse_catalogue('a = "x"\nb = "{n} y"\n') == {"a": "x", "b": "{n} y"}
    with pytest.raises(TypeError):
        i18n.parse_catalogue("a = 3\n")
    with pytest.raises(TypeError):
        i18n.parse_catalogue('[section]\na = "x"\n')
    with pytest.raises(tomllib.TOMLDecodeError):
        i18n.parse_catalogue('a = "x"\na = "y"\n')


def test_settings_keep_chinese(tmp_path):
    from cardtable.settings import Settings, load_settings, save_settings

    path = tmp_path / "settings.json"
    save_settings(Settings(language="zh"), path)
    assert load_settings(path).language == "zh"
    path.write_text('{"language": "klingon"}')
    assert load_settings(path).language is None


def test_cli_rules_in_chinese(capsys, tmp_path, monkeypatch):
    from cardtable import cli

    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    for game, word in (("guandan", "进贡"), ("gongzhu", "变压器"), ("guinote", "Guiñote")):
        assert cli.main(["rules", game, "--lang", "zh"]) == 0
        out = capsys.readouterr().out
        assert word in out and re.search(r"[\u4e00-\u9fff]{4}", out), game


def test_cli_offers_chinese_before_or_after_the_command():
    from cardtable import cli

    parser = cli.build_parser()
    assert parser.parse_args(["--lang", "zh", "saves"]).lang == "zh"
    assert parser.parse_args(["rules", "guandan", "--lang", "zh"]).lang == "zh"
    assert parser.parse_args(["new", "gongzhu", "--lang", "es"]).lang == "es"     # as `ssh -t HOST new …` sends it
    assert parser.parse_args(["--lang", "es", "saves"]).lang == "es"             # not undone by the subcommand
    assert parser.parse_args(["saves"]).lang is None
    with pytest.raises(SystemExit):
        parser.parse_args(["rules", "guandan", "--lang", "fr"])


async def test_settings_switch_to_chinese_with_the_keyboard(tmp_path, monkeypatch):
    """Settings offers 简体中文; choosing it turns the home Chinese and is kept; the rules follow."""
    from textual.widgets import MarkdownViewer

    from cardtable.settings import load_settings
    from cardtable.ui.home import HomeScreen
    from cardtable.ui.screens import RulesScreen, SettingsScreen
    from tests.ui_helpers import make_app, settle

    monkeypatch.setenv("CARDTABLE_HOME", str(tmp_path))
    app = make_app(tmp_path, lang=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, SettingsScreen)
        for _ in range(12):                        # from «OK» back to the language choices
            if app.focused is not None and app.focused.id == "set-language":
                break
            await pilot.press("shift+tab")
        assert app.focused.id == "set-language"
        await pilot.press("down", "down", "space", "ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.active_bindings["c"].binding.description == "继续"
        app.push_screen(RulesScreen("guandan"))
        await settle(pilot)
        assert "进贡" in app.screen.query_one(MarkdownViewer).document.source
    assert load_settings().language == "zh"


@pytest.mark.parametrize("lang,name,time", [("en", "Gong Zhu · normal", "5 min"), ("es", "Gong Zhu · difícil", "5 min"),
                                            ("zh", "拱猪 · 简单", "5分钟"), ("zh", "拱猪 · mystery", "5分钟")])
def test_statistics_rows_name_the_level_and_time_in_the_language(lang, name, time):
    from cardtable.stats import LevelStats, format_row

    level = {"Gong Zhu · normal": "normal", "Gong Zhu · difícil": "hard", "拱猪 · 简单": "easy"}.get(name, "mystery")
    i18n.set_language(lang)
    row = format_row(LevelStats(game="gongzhu", level=level, undo=False, seconds=330))
    assert row[0] == name and row[-1] == time       # an unknown level shows as itself, never as a key
