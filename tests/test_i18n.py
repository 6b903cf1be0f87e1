import re

import pytest

from cardtable import i18n


def _load_everything():
    import cardtable.ui.app  # noqa: F401  (registers the UI strings)
    from cardtable import games

    for spec in games.games().values():
        __import__(spec.ui.partition(":")[0])


def test_catalogs_have_the_same_keys_and_placeholders():
    _load_everything()
    en, es = i18n.catalog("en"), i18n.catalog("es")
    assert set(en) == set(es), set(en) ^ set(es)
    for key in en:
        assert set(re.findall(r"{(\w+)}", en[key])) == set(re.findall(r"{(\w+)}", es[key])), key


@pytest.mark.parametrize("env,lang", [({"LANG": "es_ES.UTF-8"}, "es"), ({"LANG": "en_GB.UTF-8"}, "en"),
                                      ({"LC_ALL": "es_AR.UTF-8", "LANG": "en_US"}, "es"), ({}, "en"),
                                      ({"LC_ALL": "C", "LANG": "es_ES"}, "en")])
def test_language_follows_the_locale(env, lang):
    assert i18n.detect_language(env) == lang


def test_translation_and_fallback():
    i18n.set_language("es")
    assert i18n.t("continue") == "Continuar"
    assert i18n.t("must_follow", suit="♠") == "Tienes que seguir el palo (♠)."
    assert i18n.t("no-such-key") == "no-such-key"
    with pytest.raises(ValueError):
        i18n.set_language("fr")


def test_every_game_progress_reads_in_both_languages():
    from cardtable import games

    for spec in games.games().values():
        match = spec.new_match(seed=1)
        for lang in ("en", "es"):
            i18n.set_language(lang)
            text = i18n.progress_text(spec.name, match.progress())
            assert text and "progress_" not in text and "{" not in text
    assert i18n.progress_text("nonesuch", {"hand": 1}) is None
    assert i18n.progress_text("gongzhu", {"hand": 1}) is None        # a field is missing
