"""One translation function for every UI string: ``t(key, **params)``.

The language follows the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE) and ``--lang`` or the settings
override it. A language is data: ``cardtable/locales/<lang>.toml`` holds its catalogue (flat
``key = "text"`` lines, read with the standard library's ``tomllib``); modules may still
:func:`register` strings from Python, merged into the same catalogues. English is the reference: a key
missing from another language, or whose text there cannot be filled, shows in English, never as a raw
key or an unfilled ``{placeholder}``. Tests check that every catalogue has every key with the same
placeholders.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from importlib import resources

LANGUAGES = ("en", "es", "zh")
LANGUAGE_NAMES = {"en": "English", "es": "Español", "zh": "简体中文"}
FALLBACK = "en"
MAX_CATALOGUE_BYTES = 1024 * 1024
_catalogs: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
_language = "en"


def locale_language(value: str) -> str | None:
    """The language a locale name asks for («zh_CN.UTF-8» → zh), or None when it is none of ours."""
    code = value.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return code if code in LANGUAGES else None


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            # LANGUAGE may list several («zh_CN:en»): the first one counts, as in gettext
            return locale_language(value.split(":")[0]) or FALLBACK
    return FALLBACK


def set_language(lang: str) -> None:
    global _language
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of: {', '.join(LANGUAGES)}")
    _language = lang


def language() -> str:
    return _language


def register(en: Mapping[str, str], es: Mapping[str, str], zh: Mapping[str, str] | None = None) -> None:
    _catalogs["en"].update(en)
    _catalogs["es"].update(es)
    if zh:
        _catalogs["zh"].update(zh)


def parse_catalogue(text: str) -> dict[str, str]:
    """A catalogue file's text: flat ``key = "text"`` pairs (a table or a non-string value is refused)."""
    data = tomllib.loads(text)
    for key, value in data.items():
        if not isinstance(value, str):
            raise TypeError(f"{key!r} is not a string")
    return data


def load_catalogue_files() -> None:
    """Merge ``cardtable/locales/<lang>.toml`` into the catalogues (called once, on import)."""
    folder = resources.files("cardtable.locales")
    for lang in LANGUAGES:
        page = folder / f"{lang}.toml"
        if page.is_file():
            with page.open("rb") as handle:
                raw = handle.read(MAX_CATALOGUE_BYTES + 1)
            if len(raw) > MAX_CATALOGUE_BYTES:
                raise ValueError(f"{lang}.toml is larger than {MAX_CATALOGUE_BYTES} bytes")
            _catalogs[lang].update(parse_catalogue(raw.decode("utf-8")))


def catalog(lang: str) -> dict[str, str]:
    return _catalogs[lang]


def missing(lang: str) -> list[str]:
    """The keys English has and ``lang`` lacks (they show in English)."""
    return sorted(set(_catalogs[FALLBACK]) - set(_catalogs[lang]))


def progress_text(game: str, progress: object) -> str | None:
    """A save slot's progress (the engine's ``progress()`` dict) in the current language, or None when
    the dict does not fit the game's template (an older or hand-edited file)."""
    if not isinstance(progress, dict):
        return None
    if progress.get("over") is True:
        return t("progress_over")
    if f"progress_{game}" not in _catalogs[_language] and f"progress_{game}" not in _catalogs[FALLBACK]:
        return None
    try:
        return _text(f"progress_{game}", {k: v for k, v in progress.items() if k != "over"})
    except (KeyError, ValueError, TypeError, IndexError):
        return None


def card_count(n: int) -> str:
    """«1 card», «5 cards» in the current language."""
    return t("one_card") if n == 1 else t("n_cards", n=n)


def _text(key: str, params: Mapping[str, object]) -> str:
    """The current language's text, else English's. A translation that cannot be filled with
    ``params`` (a wrong placeholder) falls back to English; English's own failure is raised."""
    for lang in dict.fromkeys((_language, FALLBACK)):
        text = _catalogs[lang].get(key)
        if not text:
            continue
        if not params:
            return text
        try:
            return text.format(**params)
        except (KeyError, ValueError, TypeError, IndexError):
            if lang == FALLBACK:
                raise
    return key


def t(key: str, /, **params: object) -> str:
    return _text(key, params)


register(
    en={
        "app_title": "cardtable",
        "home_subtitle": "Three card games against the CPU: two in pairs, Gong Zhu each on their own",
        "home_pick": "Choose a game",
        "game_guandan": "Guandan",
        "game_gongzhu": "Gong Zhu",
        "game_guinote": "Guiñote",
        "desc_guandan": "掼蛋 · partners climb past the Aces with bombs",
        "desc_gongzhu": "拱猪 · each alone: dodge the Pig and hearts, catch the Goat",
        "desc_guinote": "Aragonese tute for pairs: pass 100, sing cantes",
        "home_hint": "↑↓ choose a game · Enter: new game · c: continue · r: rules · t: statistics",
        "new_game": "New game",
        "next_game": "Next game",
        "next_hand": "Next hand",
        "dealing": "Dealing…",
        "continue_later": "Continue later",
        "match_over": "Match over",
        "home": "Home",
        "last_trick": "Last trick",
        "no_last_trick": "No trick has been played yet in this hand.",
        "one_card": "1 card",
        "n_cards": "{n} cards",
        "number_4": "four", "number_5": "five", "number_6": "six", "number_7": "seven", "number_8": "eight",
        "number_9": "nine", "number_10": "ten",
        "joker_sj": "SJ",
        "joker_bj": "BJ",
        "progress_gongzhu": "hand {hand}, trick {trick} · you {you:+d}",
        "progress_guinote": "hand {hand}, trick {trick} · hands {us}–{them} · cotos {cotos_us}–{cotos_them}",
        "progress_guandan": "hand {hand} at {level} · levels: us {us}, them {them}",
        "progress_over": "finished",
        "save": "Save",
        "hint": "Hint",
        "hint_thinking": "Hint: thinking…",
        "hint_none": "No hint here.",
        "why_searched": "the best of {n} plays over {deals}+ sampled deals",
        "hint_line": "Hint: {move} — {why}",
        "checker_flagged": "The play checker flagged {n}:",
        "checker": "Play checker",
        "checker_auto": "Easy and normal tables",
        "continue": "Continue",
        "settings": "Settings",
        "rules": "Rules",
        "help": "Keys",
        "quit": "Quit",
        "back": "Back",
        "close": "Close",
        "not_available": "soon",
        "no_saves": "No saved games yet.",
        "stats_title": "Statistics",
        "stats_palette": "Matches, wins, points and streaks per game and CPU level",
        "stats_none": "No statistics yet: finish a hand and it counts.",
        "stats_game": "Game · CPU",
        "stats_matches": "Matches",
        "stats_won": "Won",
        "stats_hands": "Hands",
        "stats_hands_won": "Hands won",
        "stats_mean": "Points/hand",
        "stats_best": "Best",
        "stats_worst": "Worst",
        "stats_streak": "Streak (best)",
        "stats_time": "Time",
        "stats_with_undo": "with undo",
        "stats_level_easy": "easy", "stats_level_normal": "normal", "stats_level_hard": "hard",
        "stats_level_expert": "expert",
        "stats_minutes": "{n} min",
        "stats_chart": "{game}: your points per hand (last {n})",
        "stats_chart_none": "{game}: no hand played yet",
        "stats_damaged": "Statistics: {notice}",
        "replay_deal": "Replay this deal",
        "replay_deal_hint": "d: deal this hand again (practice: not saved, not counted)",
        "practice": "practice: not saved, not counted",
        "practice_end": "Back to the match",
        "review_hand": "Review the hand",
        "review_a_hand": "Review a hand",
        "review_hint": "v: review the hand · d: deal it again (practice)",
        "review_title": "Hand review · {game} · hand {hand}",
        "review_deal": "The deal",
        "review_trick": "Trick {n} of {total}",
        "review_led_you": "you lead",
        "review_led": "{name} leads",
        "review_first": "First",
        "review_previous": "Previous",
        "review_next": "Next",
        "review_last": "Last",
        "review_score": "Score so far",
        "review_final": "End of the hand",
        "review_pick_title": "Review a hand · {game}",
        "review_pick_hint": "Enter: review that hand · Esc: back",
        "review_pick_row": "Hand {hand} · {result}",
        "review_only_finished": "Only a finished match can be reviewed from here: open it to play on.",
        "review_no_hands": "No hand of this match was played to its end.",
        "review_cannot": "This hand cannot be reviewed: {reason}",
        "review_gz_shown": "Shown",
        "review_gz_nothing_shown": "nobody showed a card",
        "review_gz_points": "Point cards",
        "review_gz_no_points": "none",
        "review_gn_trumps": "Trumps: {suit} · pinta {card} · dealer: {name}",
        "review_gn_carry": "De vueltas: carried {us}–{them}",
        "review_gn_trick_points": "Points of the trick",
        "review_gn_ultimas": "+10 de últimas (the last trick)",
        "review_gn_draws": "Draws",
        "review_gn_exchange": "Exchange of the 7 ({name}): takes {card}",
        "review_gn_cante": "Cante ({name}): {points} in {suit}",
        "review_gn_claim_right": "Claim ({name}): right, over 100",
        "review_gn_claim_wrong": "Claim ({name}): wrong, not over 100",
        "review_gn_line": "{pair}: cards {cards} + cantes {cantes}{carry} = {total}",
        "review_gd_level": "Playing {level} · levels: us {us} · them {them}",
        "review_gd_no_tribute": "no tribute this hand",
        "review_gd_anti": "no tribute: both big jokers are with the payers",
        "review_gd_tribute": "Tribute: {payer} → {receiver}",
        "review_gd_return": "Return: {receiver} → {payer}",
        "review_gd_out": "Out so far",
        "review_gd_nobody_out": "nobody is out yet",
        "review_gd_went_out": "{name} out ({place})",
        "review_gd_led_you": "you lead",
        "review_gd_led": "{name} leads",
        "take_back": "Take back",
        "take_back_done": "Your last move was taken back (and the CPU moves after it).",
        "take_back_none": "Nothing of yours to take back in this hand.",
        "take_back_floor": "You cannot take back past cards you have seen (a new deal, a draw, a tribute or shown cards).",
        "take_back_off": "Taking moves back is off (see Settings).",
        "take_back_wait": "You can take a move back when it is your turn.",
        "chart_us": "Your side",
        "chart_them": "Opponents",
        "chart_running_gongzhu": "Totals after each hand",
        "chart_running_guinote": "Points in the coto after each hand",
        "chart_running_guandan": "Level after each deal",
        "saves_title": "Saved games",
        "slot": "Slot",
        "game": "Game",
        "summary": "Where you were",
        "saved_at": "Saved",
        "damaged": "damaged",
        "delete": "Delete",
        "load": "Load",
        "save_damaged": "Slot {slot} cannot be opened: {reason}",
        "save_failed": "Could not save: {reason}",
        "saved_to": "Saved to slot {slot}",
        "language": "Language",
        "card_style": "Card style",
        "style_colour": "Colour (red/black)",
        "style_four": "Four colours",
        "style_ascii": "ASCII (QS, 10H)",
        "cpu_speed": "CPU speed",
        "speed_slow": "Slow",
        "speed_normal": "Normal",
        "speed_fast": "Fast",
        "speed_instant": "Instant",
        "count_help": "Guiñote: count your points de vueltas",
        "count_help_off": "No (counting is the skill of the claim)",
        "count_help_on": "Yes (the table adds them up)",
        "settings_saved": "Settings saved",
        "too_small": "The terminal is {width}×{height}. cardtable needs at least 80×24: please enlarge it.",
        "no_tty": "cardtable needs a terminal. Over SSH, connect with `ssh -t`.",
        "keys_title": "Keys",
        "rules_title": "Rules of {game}",
        "options": "Options",
        "start": "Start",
        "game_number": "Game number",
        "game_number_help": "blank = random",
        "cpu_level": "CPU level",
        "level_easy": "Easy",
        "level_normal": "Normal",
        "level_hard": "Hard",
        "bad_game_number": "A game number is a whole number from 0 to 18446744073709551615.",
        "you": "You",
        "cancel": "Cancel",
        "ok": "OK",
        "on": "on",
        "off": "off",
        "quit_saved": "Game saved in slot {slot}.",
        "quit_not_saved": "The game in slot {slot} was NOT saved: {reason}",
        "quit_read_only": "Slot {slot} was open read-only: nothing was saved.",
        "slot_busy": "Slot {slot} is open in another cardtable.",
        "slot_busy_ask": "Open it read-only (nothing you play is saved)? [r] read-only, [n] do not open: ",
        "slot_busy_hint": "add --read-only to look at it without saving",
        "open_read_only": "Open read-only",
        "slot_busy_question": "Open it read-only? Nothing you play there is saved.",
        "dont_open": "Do not open",
        "read_only": "read-only: nothing is saved",
        "already_open": "Slot {slot} is already open here.",
        "saves_unreadable": "Cannot read the saved games: {reason}",
        "term_dumb": "this terminal (TERM={term}) cannot show the card table; run cardtable in a full terminal (for example with TERM=xterm-256color).",
        "illegal": "That move is not allowed.",
        "must_follow": "You must follow suit ({suit}).",
        "match_is_over": "The match is over.",
        "not_your_turn": "It is not your turn.",
        "keys_table": "{game} table",
        "keys_everywhere": "Everywhere",
        "keys_dialogs": "Dialogs",
        "keys_dialogs_text": ("The highlighted button is the safe step forward (Next hand, Start, New game): "
                              "Enter presses it. Tab moves to the next control, Space ticks a box, Esc cancels "
                              "or goes back. On the results: n or Enter for the next hand, Esc to continue later."),
        "keys_none": "This screen has no keys of its own.",
        "keys_here": "This screen",
        "key_column": "Key",
        "action_column": "Action",
        "key_enter": "Enter", "key_escape": "Esc", "key_space": "Space", "key_backspace": "Backspace",
        "key_delete": "Delete", "key_tab": "Tab", "key_shift_tab": "Shift+Tab",
        "command_palette": "Command palette",
        "palette": "palette",
        "palette_search": "Search for commands…",
        "palette_themes": "Search for themes…",
        "palette_open": "Open the command palette",
        "sys_theme": "Theme", "sys_theme_help": "Change the colours of the app",
        "sys_quit": "Quit", "sys_quit_help": "Leave cardtable (the game is saved)",
        "sys_minimize": "Minimize", "sys_minimize_help": "Give the maximized control its normal size back",
        "sys_maximize": "Maximize", "sys_maximize_help": "Maximize the focused control",
        "sys_screenshot": "Screenshot", "sys_screenshot_help": "Save an SVG picture of the screen",
        "focus_next": "Next control",
        "focus_previous": "Previous control",
        "move_left": "Move left",
        "move_right": "Move right",
        "lift": "Lift the card",
        "lower": "Put it down",
        "sing_O": "Sing in oros", "sing_C": "Sing in copas", "sing_E": "Sing in espadas", "sing_B": "Sing in bastos",
    },
    es={
        "app_title": "cardtable",
        "home_subtitle": "Tres juegos contra la CPU: dos por parejas, Gong Zhu cada uno por su cuenta",
        "home_pick": "Elige un juego",
        "game_guandan": "Guandan",
        "game_gongzhu": "Gong Zhu",
        "game_guinote": "Guiñote",
        "desc_guandan": "掼蛋 · en pareja hasta pasar los Ases, con bombas",
        "desc_gongzhu": "拱猪 · cada uno solo: esquiva el Cerdo y caza la Cabra",
        "desc_guinote": "Tute aragonés por parejas: pasa de 100 y canta",
        "home_hint": "↑↓ elige juego · Intro: partida nueva · c: continuar · r: reglas · t: estadísticas",
        "new_game": "Partida nueva",
        "next_game": "Siguiente juego",
        "next_hand": "Siguiente mano",
        "dealing": "Repartiendo…",
        "continue_later": "Seguir luego",
        "match_over": "Fin de la partida",
        "home": "Inicio",
        "last_trick": "Última baza",
        "no_last_trick": "Aún no se ha jugado ninguna baza en esta mano.",
        "one_card": "1 carta",
        "n_cards": "{n} cartas",
        "number_4": "cuatro", "number_5": "cinco", "number_6": "seis", "number_7": "siete", "number_8": "ocho",
        "number_9": "nueve", "number_10": "diez",
        "joker_sj": "JP",
        "joker_bj": "JG",
        "progress_gongzhu": "mano {hand}, baza {trick} · tú {you:+d}",
        "progress_guinote": "mano {hand}, baza {trick} · manos {us}–{them} · cotos {cotos_us}–{cotos_them}",
        "progress_guandan": "mano {hand} al {level} · niveles: nosotros {us}, ellos {them}",
        "progress_over": "terminada",
        "save": "Guardar",
        "hint": "Pista",
        "hint_thinking": "Pista: pensando…",
        "hint_none": "Aquí no hay pista.",
        "why_searched": "la mejor de {n} jugadas en más de {deals} repartos simulados",
        "hint_line": "Pista: {move} — {why}",
        "checker_flagged": "Jugadas señaladas ({n}):",
        "checker": "Revisar mis jugadas",
        "checker_auto": "Mesas fáciles y normales",
        "continue": "Continuar",
        "settings": "Ajustes",
        "rules": "Reglas",
        "help": "Teclas",
        "quit": "Salir",
        "back": "Volver",
        "close": "Cerrar",
        "not_available": "pronto",
        "no_saves": "Aún no hay partidas guardadas.",
        "stats_title": "Estadísticas",
        "stats_palette": "Partidas, victorias, puntos y rachas por juego y nivel de la CPU",
        "stats_none": "Aún no hay estadísticas: termina una mano y contará.",
        "stats_game": "Juego · CPU",
        "stats_matches": "Partidas",
        "stats_won": "Ganadas",
        "stats_hands": "Manos",
        "stats_hands_won": "Manos ganadas",
        "stats_mean": "Puntos/mano",
        "stats_best": "Mejor",
        "stats_worst": "Peor",
        "stats_streak": "Racha (mejor)",
        "stats_time": "Tiempo",
        "stats_with_undo": "con deshacer",
        "stats_level_easy": "fácil", "stats_level_normal": "normal", "stats_level_hard": "difícil",
        "stats_level_expert": "experto",
        "stats_minutes": "{n} min",
        "stats_chart": "{game}: tus puntos por mano (últimas {n})",
        "stats_chart_none": "{game}: aún no has jugado ninguna mano",
        "stats_damaged": "Estadísticas: {notice}",
        "replay_deal": "Repetir esta mano",
        "replay_deal_hint": "d: repetir esta mano (práctica: no se guarda ni cuenta)",
        "practice": "práctica: no se guarda ni cuenta",
        "practice_end": "Volver a la partida",
        "review_hand": "Revisar la mano",
        "review_a_hand": "Revisar una mano",
        "review_hint": "v: revisar la mano · d: repetirla (práctica)",
        "review_title": "Revisar la mano · {game} · mano {hand}",
        "review_deal": "El reparto",
        "review_trick": "Baza {n} de {total}",
        "review_led_you": "sales tú",
        "review_led": "sale {name}",
        "review_first": "Primera",
        "review_previous": "Anterior",
        "review_next": "Siguiente",
        "review_last": "Última",
        "review_score": "Cuenta hasta aquí",
        "review_final": "Fin de la mano",
        "review_pick_title": "Revisar una mano · {game}",
        "review_pick_hint": "Intro: revisar esa mano · Esc: volver",
        "review_pick_row": "Mano {hand} · {result}",
        "review_only_finished": "Desde aquí solo se revisan partidas terminadas: ábrela para seguir jugando.",
        "review_no_hands": "Ninguna mano de esta partida se jugó hasta el final.",
        "review_cannot": "Esta mano no se puede revisar: {reason}",
        "review_gz_shown": "Mostradas",
        "review_gz_nothing_shown": "nadie mostró cartas",
        "review_gz_points": "Cartas de puntos",
        "review_gz_no_points": "ninguna",
        "review_gn_trumps": "Triunfo: {suit} · pinta {card} · reparte: {name}",
        "review_gn_carry": "De vueltas: se arrastra {us}–{them}",
        "review_gn_trick_points": "Puntos de la baza",
        "review_gn_ultimas": "+10 de últimas (la última baza)",
        "review_gn_draws": "Roban",
        "review_gn_exchange": "Cambio del 7 ({name}): se lleva {card}",
        "review_gn_cante": "Cante ({name}): {points} en {suit}",
        "review_gn_claim_right": "Cantar que pasan ({name}): bien, más de 100",
        "review_gn_claim_wrong": "Cantar que pasan ({name}): mal, no llegan a 100",
        "review_gn_line": "{pair}: cartas {cards} + cantes {cantes}{carry} = {total}",
        "review_gd_level": "Se juega al {level} · niveles: nosotros {us} · ellos {them}",
        "review_gd_no_tribute": "sin tributo en esta mano",
        "review_gd_anti": "sin tributo: los dos jokers grandes los tienen quienes pagan",
        "review_gd_tribute": "Tributo: {payer} → {receiver}",
        "review_gd_return": "Devolución: {receiver} → {payer}",
        "review_gd_out": "Han salido",
        "review_gd_nobody_out": "aún no ha salido nadie",
        "review_gd_went_out": "{name} sin cartas ({place})",
        "review_gd_led_you": "abres tú",
        "review_gd_led": "abre {name}",
        "take_back": "Retirar jugada",
        "take_back_done": "Tu última jugada se ha retirado (y las de la CPU que la siguieron).",
        "take_back_none": "No tienes ninguna jugada que retirar en esta mano.",
        "take_back_floor": "No se puede retirar más allá de cartas que ya has visto (un reparto, un robo, un tributo o cartas mostradas).",
        "take_back_off": "Retirar jugadas está desactivado (ver Ajustes).",
        "take_back_wait": "Podrás retirar una jugada cuando te toque.",
        "chart_us": "Nosotros",
        "chart_them": "Ellos",
        "chart_running_gongzhu": "Tanteo tras cada mano",
        "chart_running_guinote": "Puntos del coto tras cada mano",
        "chart_running_guandan": "Nivel tras cada reparto",
        "saves_title": "Partidas guardadas",
        "slot": "Ranura",
        "game": "Juego",
        "summary": "Dónde ibas",
        "saved_at": "Guardada",
        "damaged": "dañada",
        "delete": "Borrar",
        "load": "Cargar",
        "save_damaged": "No se puede abrir la ranura {slot}: {reason}",
        "save_failed": "No se pudo guardar: {reason}",
        "saved_to": "Guardada en la ranura {slot}",
        "language": "Idioma",
        "card_style": "Estilo de cartas",
        "style_colour": "Color (rojo/negro)",
        "style_four": "Cuatro colores",
        "style_ascii": "ASCII (QS, 10H)",
        "cpu_speed": "Velocidad de la CPU",
        "speed_slow": "Lenta",
        "speed_normal": "Normal",
        "speed_fast": "Rápida",
        "speed_instant": "Instantánea",
        "count_help": "Guiñote: contar tus tantos de vueltas",
        "count_help_off": "No (contar es el arte de anunciar)",
        "count_help_on": "Sí (la mesa los suma)",
        "settings_saved": "Ajustes guardados",
        "too_small": "La terminal mide {width}×{height}. cardtable necesita al menos 80×24: agrándala, por favor.",
        "no_tty": "cardtable necesita una terminal. Por SSH, conéctate con `ssh -t`.",
        "keys_title": "Teclas",
        "rules_title": "Reglas del {game}",
        "options": "Opciones",
        "start": "Empezar",
        "game_number": "Número de partida",
        "game_number_help": "en blanco = al azar",
        "cpu_level": "Nivel de la CPU",
        "level_easy": "Fácil",
        "level_normal": "Normal",
        "level_hard": "Difícil",
        "bad_game_number": "El número de partida es un número entero de 0 a 18446744073709551615.",
        "you": "Tú",
        "cancel": "Cancelar",
        "ok": "OK",
        "on": "sí",
        "off": "no",
        "quit_saved": "Partida guardada en la ranura {slot}.",
        "quit_not_saved": "La partida de la ranura {slot} NO se ha guardado: {reason}",
        "quit_read_only": "La ranura {slot} estaba abierta solo para mirar: no se ha guardado nada.",
        "slot_busy": "La ranura {slot} está abierta en otro cardtable.",
        "slot_busy_ask": "¿Abrirla solo para mirar (no se guarda nada de lo que juegues)? [r] solo mirar, [n] no abrir: ",
        "slot_busy_hint": "añade --read-only para mirarla sin guardar",
        "open_read_only": "Abrir solo para mirar",
        "slot_busy_question": "¿Abrirla solo para mirar? No se guarda nada de lo que juegues.",
        "dont_open": "No abrir",
        "read_only": "solo para mirar: no se guarda nada",
        "already_open": "La ranura {slot} ya está abierta aquí.",
        "saves_unreadable": "No se pueden leer las partidas guardadas: {reason}",
        "term_dumb": "esta terminal (TERM={term}) no puede mostrar la mesa; abre cardtable en una terminal completa (por ejemplo con TERM=xterm-256color).",
        "illegal": "Esa jugada no está permitida.",
        "must_follow": "Tienes que seguir el palo ({suit}).",
        "match_is_over": "La partida ha terminado.",
        "not_your_turn": "No es tu turno.",
        "keys_table": "Mesa de {game}",
        "keys_everywhere": "En todas partes",
        "keys_dialogs": "Diálogos",
        "keys_dialogs_text": ("El botón resaltado es el paso seguro hacia delante (Siguiente mano, Empezar, "
                              "Partida nueva): Intro lo pulsa. Tab pasa al siguiente control, Espacio marca una "
                              "casilla, Esc cancela o vuelve. En los resultados: n o Intro para la siguiente mano, "
                              "Esc para seguir luego."),
        "keys_none": "Esta pantalla no tiene teclas propias.",
        "keys_here": "Esta pantalla",
        "key_column": "Tecla",
        "action_column": "Acción",
        "key_enter": "Intro", "key_escape": "Esc", "key_space": "Espacio", "key_backspace": "Retroceso",
        "key_delete": "Supr", "key_tab": "Tab", "key_shift_tab": "Mayús+Tab",
        "command_palette": "Paleta de órdenes",
        "palette": "órdenes",
        "palette_search": "Busca una orden…",
        "palette_themes": "Busca un tema…",
        "palette_open": "Abrir la paleta de órdenes",
        "sys_theme": "Tema", "sys_theme_help": "Cambiar los colores de la aplicación",
        "sys_quit": "Salir", "sys_quit_help": "Salir de cardtable (la partida queda guardada)",
        "sys_minimize": "Minimizar", "sys_minimize_help": "Devolver su tamaño normal al control maximizado",
        "sys_maximize": "Maximizar", "sys_maximize_help": "Maximizar el control que tiene el foco",
        "sys_screenshot": "Captura", "sys_screenshot_help": "Guardar una imagen SVG de la pantalla",
        "focus_next": "Siguiente control",
        "focus_previous": "Control anterior",
        "move_left": "Mover a la izquierda",
        "move_right": "Mover a la derecha",
        "lift": "Levantar la carta",
        "lower": "Bajarla",
        "sing_O": "Cantar en oros", "sing_C": "Cantar en copas", "sing_E": "Cantar en espadas",
        "sing_B": "Cantar en bastos",
    },
)

load_catalogue_files()
