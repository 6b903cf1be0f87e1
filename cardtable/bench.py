"""``cardtable bench``: timings kept apart from the tests (tests never assert timings).

- startup: wall time from process start to the home screen's first frame, headless, against a minimal
  Textual app (Header, one Static, Footer, exit after its first frame), in fresh processes, same run.
- per game, in CPU time (``time.process_time``/``time.thread_time``, so a shared machine's load does not
  count): uniformly random playouts through the public engine contract, sim throughput with each CPU
  level, and the time of one decision (view + choose), median and p95; plus the game's own extras
  (Guandan: move generation for a 27-card lead by number of wilds).
- decisions: the search levels' decision times (hard, expert) for every game, wall and CPU time.
- keys: how long a cursor key takes to be handled at a hard table (wall time: what a player feels):
  idle, while a `hard` search runs in a thread of the app (how the tables decided before the worker
  process) and while it runs in the app's worker process (how they decide now), the modes taking turns.
- memory: resident memory (VmRSS from /proc/self/status) and live widgets while a table plays hands
  headless, driven like a person at the keys (``cardtable bench memory [--hands N] [--game G]``).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MINIMAL_APP = """
import time
t0 = time.perf_counter()
from textual.app import App
from textual.widgets import Footer, Header, Static
class Minimal(App):
    def compose(self):
        yield Header(); yield Static("hello"); yield Footer()
    def on_mount(self):
        self.call_after_refresh(self.exit)
Minimal().run(headless=True, size=(80, 24))
print(time.perf_counter() - t0)
"""

HOME_APP = """
import time
t0 = time.perf_counter()
from cardtable.ui.app import CardTableApp
from cardtable.saves import SaveStore
from cardtable.settings import Settings
class Timed(CardTableApp):
    def on_mount(self):
        super().on_mount()
        self.call_after_refresh(self.exit)
Timed(store=SaveStore({save_dir!r}), settings=Settings()).run(headless=True, size=(80, 24))
print(time.perf_counter() - t0)
"""


def _time_script(script: str) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(script)
    try:
        out = subprocess.run([sys.executable, handle.name], capture_output=True, text=True, check=False)
    finally:
        import os

        os.unlink(handle.name)
    if out.returncode != 0:
        raise RuntimeError(f"benchmark script failed: {out.stderr.strip()[-500:]}")
    return float(out.stdout.strip().splitlines()[-1])


def startup(runs: int = 7) -> tuple[float, float]:
    """Median seconds to the first frame: (minimal app, cardtable home)."""
    with tempfile.TemporaryDirectory() as save_dir:
        home = HOME_APP.format(save_dir=save_dir)
        minimal, ours = [], []
        for _ in range(runs):   # interleaved, so both see the same machine load
            minimal.append(_time_script(MINIMAL_APP))
            ours.append(_time_script(home))
    return statistics.median(minimal), statistics.median(ours)


def _cpu() -> float:
    return time.process_time()


def playout_rate(game: str, seconds: float) -> tuple[float, float, float]:
    """Uniformly random playouts through the public contract (``new_match``, ``to_move``,
    ``legal_moves``, ``apply``): (hands per CPU second, matches per CPU second, CPU seconds)."""
    from cardtable import games
    from cardtable.rng import Rng

    spec = games.get(game)
    rng = Rng(12345)
    hands = matches = 0
    seed = 1
    start = _cpu()
    while _cpu() - start < seconds:
        match = spec.new_match(seed=seed)
        seed += 1
        while match.to_move() is not None:
            moves = match.legal_moves()
            match.apply(moves[rng.below(len(moves))])
        hands += match.hand
        matches += 1
    elapsed = _cpu() - start
    return hands / elapsed, matches / elapsed, elapsed


def sim_rate(game: str, level: str, seconds: float) -> tuple[float, float, float]:
    """(hands per CPU second, matches per CPU second, wall/CPU ratio) of headless play at one CPU level."""
    from cardtable import games, sim

    spec = games.get(game)
    hands = matches = 0
    start, wall = _cpu(), time.perf_counter()
    seed = 1
    while _cpu() - start < seconds:
        result = sim.run(spec, spec.options_type(), 1, seed, [level] * 4)
        hands += result.hands
        matches += result.matches
        seed += 1
    elapsed = _cpu() - start
    return hands / elapsed, matches / elapsed, (time.perf_counter() - wall) / elapsed


def decision_times(game: str, level: str, samples: int = 400) -> list[float]:
    """CPU time of one decision as the UI makes it: the view of the seat to move, then the bot's choice."""
    from cardtable import games

    spec = games.get(game)
    bot = spec.bot(level)
    times: list[float] = []
    seed = 1
    while len(times) < samples:
        match = spec.new_match(seed=seed)
        seed += 1
        while not match.is_over() and len(times) < samples:
            seat = match.to_move()
            assert seat is not None
            view = match.view(seat)
            start = time.thread_time()
            move = bot.choose(view)
            times.append(time.thread_time() - start)
            match.apply(move)
    return times


MATCH_CYCLE_SAVE = "gongzhu-match-last-card"    # a match that your last card ends


def _match_at_its_last_card(store: Any, slot: str) -> Path:
    """Save as ``slot`` a three-hand Gong Zhu match (seed 35, normal CPUs) at the human's last move, made
    here so the bench needs no file of the repository (an installed cardtable has none)."""
    from cardtable import games
    from cardtable.games.gongzhu.state import GongZhuOptions

    spec = games.get("gongzhu")
    options = GongZhuOptions(target=1000, max_hands=3)
    played = spec.new_match(options, 35)
    bot, last_human = spec.bot("normal"), 0
    moves: list[tuple[Any, int]] = []
    while not played.is_over():
        seat = played.to_move()
        assert seat is not None
        move = bot.choose(played.view(seat))
        if seat == 0:
            last_human = len(moves)
        moves.append((move, seat))
        played.apply(move, seat)
    match = spec.new_match(options, 35)
    for move, seat in moves[:last_human]:
        match.apply(move, seat)
    return store.save(slot, match, ["human", "cpu:normal", "cpu:normal", "cpu:normal"])


def ui_match_cycles(cycles: int = 20) -> list[tuple[int, int | None, int]]:
    """Resume a saved Gong Zhu match from the home screen, play its last card, close the results and go
    home from the end of the match, ``cycles`` times in one process (headless at 100x30, instant CPU
    players): what stays behind a finished table. Returns (cycles done, VmRSS KiB, live widgets) at
    the start and after each cycle."""
    import asyncio
    import os
    import shutil

    from cardtable.saves import SaveStore
    from cardtable.settings import Settings
    from cardtable.ui.app import CardTableApp
    from cardtable.ui.autoplay import live_widgets, rss_kib, settle
    from cardtable.ui.dialogs import HandEndDialog, MatchEndDialog
    from cardtable.ui.gamescreen import HUMAN, GameScreen
    from cardtable.ui.home import HomeScreen

    samples: list[tuple[int, int | None, int]] = []

    async def finish(pilot: Any) -> None:
        app = pilot.app
        for _ in range(200):
            top = app.screen
            if isinstance(top, MatchEndDialog):
                await pilot.press("h")
                await settle(pilot)
                return
            if isinstance(top, HandEndDialog):
                await pilot.press("enter")
            elif isinstance(top, GameScreen) and top.human_view().to_move == HUMAN and not top.dealing:
                top.play(top.spec.bot("normal").choose(top.human_view()), HUMAN)
            elif not isinstance(top, GameScreen | HomeScreen):
                await pilot.press("escape")          # a table's own panel: decline it
            await settle(pilot)
        raise RuntimeError("the match did not end")

    async def run(save_dir: str) -> None:
        app = CardTableApp(store=SaveStore(save_dir), settings=Settings(cpu_speed="instant", checker="off"),
                           language_override="en")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            samples.append((0, rss_kib(), live_widgets()))
            example = _match_at_its_last_card(SaveStore(save_dir), "example")
            for cycle in range(1, cycles + 1):
                shutil.copyfile(example, os.path.join(save_dir, f"{MATCH_CYCLE_SAVE}.json"))
                app.resume(MATCH_CYCLE_SAVE)
                await settle(pilot)
                await finish(pilot)
                if not isinstance(app.screen, HomeScreen):
                    raise RuntimeError(f"not back home after cycle {cycle}: {app.screen}")  # noqa: TRY004
                samples.append((cycle, rss_kib(), live_widgets()))

    before = os.environ.get("CARDTABLE_HOME")
    with tempfile.TemporaryDirectory() as home:
        os.environ["CARDTABLE_HOME"] = home      # the statistics of these matches go there
        saves = os.path.join(home, "saves")
        os.makedirs(saves)
        try:
            asyncio.run(run(saves))
        finally:
            if before is None:
                os.environ.pop("CARDTABLE_HOME", None)
            else:
                os.environ["CARDTABLE_HOME"] = before
    return samples


def ui_memory(game: str = "guandan", hands: int = 20, seed: int = 1) -> list[tuple[int, int | None, int]]:
    """Play ``hands`` hands of ``game`` at the real table, headless at 100x30 with instant CPU players.
    Returns (hands played, VmRSS KiB, live widgets) at the start and after each hand."""
    import asyncio

    from cardtable.saves import SaveStore
    from cardtable.settings import Settings
    from cardtable.ui.app import CardTableApp
    from cardtable.ui.autoplay import live_widgets, play_hands, rss_kib, settle

    samples: list[tuple[int, int | None, int]] = []

    async def run(save_dir: str) -> None:
        from cardtable import games

        options = games.get(game).options_type()
        app = CardTableApp(store=SaveStore(save_dir), settings=Settings(cpu_speed="instant"),
                           launch=("new", game, options, seed, "normal"), language_override="en")
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            samples.append((0, rss_kib(), live_widgets()))
            await play_hands(pilot, hands, on_hand=lambda n: samples.append((n, rss_kib(), live_widgets())))

    import os

    with tempfile.TemporaryDirectory() as home:
        os.environ["CARDTABLE_HOME"] = home      # the statistics of these hands go there, not to the player's
        asyncio.run(run(os.path.join(home, "saves")))
    return samples


KEY_MODES = ("idle", "thread", "process")


def key_latency(game: str = "guinote", presses: int = 60, rounds: int = 3) -> dict[str, list[float]]:
    """Wall seconds from a cursor key (→ then ←) posted to the app until the hand's cursor has moved (the
    key handled), at a headless 80x24 table at `hard` on the human's turn, in three modes: ``idle``
    (nothing thinks), ``thread`` (a `hard` search of the position runs again and again in a thread of
    the app: how the tables decided before the worker process, sharing the interpreter with the event
    loop) and ``process`` (the same searches asked of the app's worker process, as the tables do now:
    ``app.thinker``, cardtable.workers). The modes take turns, ``presses // rounds`` keys each per round,
    so that a shared machine's load falls on all three alike. Also returns ``"<mode> decisions"``: how
    long each search took (wall) while the keys were pressed."""
    import asyncio
    import os
    import threading

    from cardtable import games, workers
    from cardtable.saves import SaveStore
    from cardtable.settings import Settings
    from cardtable.ui.app import CardTableApp
    from cardtable.ui.gamescreen import HUMAN, GameScreen

    spec = games.get(game)
    samples: dict[str, list[float]] = {name: [] for mode in KEY_MODES for name in (mode, f"{mode} decisions")}

    async def run(save_dir: str) -> None:
        app = CardTableApp(store=SaveStore(save_dir), settings=Settings(cpu_speed="instant", checker="off"),
                           launch=("new", game, spec.options_type(), 1, "hard"), language_override="en")
        async with app.run_test(size=(80, 24)) as pilot:
            table = None
            for _ in range(2000):
                await pilot.pause(0.01)
                table = next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)
                if table is not None and table.human_view().to_move == HUMAN and not table.dealing \
                        and not table._cpu_running and app.screen is table:
                    break
            assert table is not None and table.human_view().to_move == HUMAN, "the human never got the turn"
            hand = table.hand_widget()
            view = table.human_view()
            bot = spec.bot("hard")
            app.thinker.call(workers.decide, game, "hard", view)     # the worker is up before the first key

            def think(mode: str, stop: threading.Event) -> None:
                while not stop.is_set():
                    start = time.perf_counter()
                    if mode == "thread":
                        bot.choose(view)
                    else:
                        app.thinker.call(workers.decide, game, "hard", view)
                    samples[f"{mode} decisions"].append(time.perf_counter() - start)

            for _ in range(rounds):
                for mode in KEY_MODES:
                    stop = threading.Event()
                    worker = None
                    if mode != "idle":
                        worker = threading.Thread(target=think, args=(mode, stop), daemon=True)
                        worker.start()
                        await asyncio.sleep(0.05)            # the search under way
                    for i in range(presses // rounds):
                        before = hand.cursor
                        start = time.perf_counter()
                        app.simulate_key("right" if i % 2 == 0 else "left")   # as a terminal's key arrives
                        while hand.cursor == before:
                            await asyncio.sleep(0.0005)
                        samples[mode].append(time.perf_counter() - start)
                        await asyncio.sleep(0.02)        # the redraw, before the next key (not timed)
                    if worker is not None:
                        stop.set()
                        await asyncio.to_thread(worker.join)

    with tempfile.TemporaryDirectory() as home:
        os.environ["CARDTABLE_HOME"] = home
        asyncio.run(run(os.path.join(home, "saves")))
    return samples


SEARCH_LEVELS = ("hard", "expert")


def search_decision_times(game: str, level: str, samples: int) -> tuple[list[float], list[float]]:
    """(wall, CPU) seconds of the search level's decisions, taken at every seat to move in hands
    played by `normal` bots (so the positions are those a search bot meets), from seed 1 on. The CPU
    time is the machine's own speed when other jobs share the cores."""
    from cardtable import games, sim

    spec = games.get(game)
    bot, normal = spec.bot(level), spec.bot("normal")
    wall: list[float] = []
    cpu: list[float] = []
    seed = 1
    while len(wall) < samples:
        match = spec.new_match(seed=seed)
        seed += 1
        while match.hand == 1 and not match.is_over() and len(wall) < samples:
            seat = match.to_move()
            assert seat is not None
            view = match.view(seat)
            start, start_cpu = time.perf_counter(), time.process_time()
            bot.choose(view)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            step = sim.next_cpu_move(match, lambda _: normal)
            assert step is not None          # every seat is a CPU
            match.apply(step[1], step[0])
    return wall, cpu


def describe_times(times: list[float]) -> str:
    return (f"median {statistics.median(times) * 1e3:.0f} ms, p95 {_pct(times, 0.95) * 1e3:.0f} ms, "
            f"max {max(times) * 1e3:.0f} ms")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(what: str = "all", seconds: float = 3.0, memory_hands: int = 20, table: str = "guandan") -> int:
    from cardtable import games

    names = list(games.games())
    if what not in ("all", "startup", "memory", "decisions", "keys", "chaos", *names):
        print(f"cardtable bench: unknown target {what!r}; use all, startup, memory, decisions, keys, chaos or "
              f"one of {', '.join(names)}", file=sys.stderr)
        return 2
    if what == "chaos":
        return chaos(seconds)
    if what == "keys":
        import os

        for game in names:
            load = os.getloadavg()[0]
            keys = key_latency(game)
            print(f"{game:8} cursor key handled at a hard table (wall, {len(keys['idle'])} presses each; "
                  f"load average {load:.2f} -> {os.getloadavg()[0]:.2f}):", flush=True)
            print(f"         idle                              {describe_times(keys['idle'])}")
            for mode, where in (("thread", "in a thread (before)"), ("process", "in the worker process")):
                decisions = keys[f"{mode} decisions"]
                print(f"         hard search {where:21} {describe_times(keys[mode])}  "
                      f"({len(decisions)} searches, wall median {statistics.median(decisions) * 1e3:.0f} ms)",
                      flush=True)
        return 0
    if what == "decisions":
        for game in names:
            for level in SEARCH_LEVELS:
                if level in games.get(game).bots:
                    wall, cpu = search_decision_times(game, level, 60 if level == "hard" else 20)
                    print(f"{game:8} {level:7} one decision ({len(wall)} positions): wall {describe_times(wall)}; "
                          f"CPU {describe_times(cpu)}", flush=True)
        return 0
    if what == "memory":
        samples = ui_memory(table, memory_hands)
        for played, rss, widgets in samples:
            if played in (0, 1) or played % 5 == 0 or played == samples[-1][0]:
                rss_text = f"{rss / 1024:6.1f} MB" if rss is not None else "   n/a"
                print(f"{table} table after {played:2d} hands: RSS {rss_text}, live widgets {widgets}")
        cycles = ui_match_cycles(memory_hands)
        for done, rss, widgets in cycles:
            if done in (0, 1) or done % 5 == 0 or done == cycles[-1][0]:
                rss_text = f"{rss / 1024:6.1f} MB" if rss is not None else "   n/a"
                print(f"gongzhu matches resumed and finished in one process: {done:2d}: RSS {rss_text}, "
                      f"live widgets {widgets}")
        return 0
    if what in ("all", "startup"):
        minimal, ours = startup()
        print(f"startup to first frame (median of 7, headless 80x24): minimal Textual app {minimal * 1000:.0f} ms, "
              f"cardtable home {ours * 1000:.0f} ms, ratio {ours / minimal:.2f}")
    for game in names:
        if what not in ("all", game):
            continue
        hands, matches, _ = playout_rate(game, seconds)
        print(f"{game:8} random  playouts {hands:8.1f} hands/s ({matches:.2f} matches/s, CPU time)")
        for level in games.get(game).bots:
            if level in SEARCH_LEVELS:
                wall, cpu = search_decision_times(game, level, 60 if level == "hard" else 20)
                print(f"{game:8} {level:7} one decision ({len(wall)} positions): wall {describe_times(wall)}; "
                      f"CPU {describe_times(cpu)}")
                continue
            hands, matches, ratio = sim_rate(game, level, seconds)
            times = decision_times(game, level)
            print(f"{game:8} {level:7} sim {hands:8.1f} hands/s ({matches:.2f} matches/s, CPU time; "
                  f"wall/CPU {ratio:.2f}); one decision (view + choose): median "
                  f"{statistics.median(times) * 1e6:.0f} µs, p95 {_pct(times, 0.95) * 1e6:.0f} µs")
        extra = games.get(game).extra_bench
        if extra is not None:
            for line in extra():
                print(line)
    return 0


def chaos(seconds: float = 3.0, seed: int = 1) -> int:
    """`cardtable bench chaos`: the chaos cases of issue 29 (cardtable.chaos), each family for at most
    ``seconds``, in a temporary directory. Prints tries and failures; status 1 if anything failed."""
    from cardtable import chaos as cases

    started = time.monotonic()
    print(f"chaos cases (seed {seed}, at most {seconds:g} s per family, in a temporary directory):", flush=True)
    families = cases.run(seconds, seed)
    for family in families:
        print(f"  {family.name:20} {family.tries:6d} tries, {len(family.failures)} failures", flush=True)
        for failure in family.failures[:5]:
            print(f"      {failure}")
        if len(family.failures) > 5:
            print(f"      … and {len(family.failures) - 5} more")
    failed = sum(len(family.failures) for family in families)
    print(f"  {sum(f.tries for f in families)} tries in {time.monotonic() - started:.1f} s, {failed} failures")
    return 1 if failed else 0
