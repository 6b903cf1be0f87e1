"""The JSON Lines hand history (docs/history-format.md, version 1): writer, reader and checker."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from cardtable.engine import IllegalMove, Match, MoveError, OptionError, check_seed

FORMAT = "cardtable-history"
VERSION = 1
RECORD_TYPES = ("match", "deal", "move", "hand_end", "match_end")


class HistoryError(ValueError):
    """A history that cannot be read or does not replay."""


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


class HistoryWriter:
    """Writes a match's history as it is played. Apply moves through :meth:`apply` so that each
    move line can carry the ``legal`` list of that moment when ``legal=True``."""

    def __init__(self, stream: TextIO, match: Match, players: list[str], legal: bool = False) -> None:
        self.stream = stream
        self.match = match
        self.legal = legal
        self._write(match.match_record(players))
        for record in match.log:
            self._write(record)

    def _write(self, record: dict[str, Any]) -> None:
        self.stream.write(dumps(record) + "\n")

    def apply(self, move: Any, seat: int | None = None) -> None:
        legal = self.match.history_legal(seat) if self.legal else None
        start = len(self.match.log)
        self.match.apply(move, seat)
        for i, record in enumerate(self.match.log[start:]):
            if i == 0 and legal is not None:
                record = {**record, "legal": legal}
            self._write(record)


def read_records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Parse JSON Lines, checking each line is an object with a known ``type``."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise HistoryError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict) or record.get("type") not in RECORD_TYPES:
            raise HistoryError(f"line {number}: not a history record (needs a known \"type\")")
        yield record


def split_matches(records: Iterable[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """Group a stream of records into one list per match (a file may hold many)."""
    current: list[dict[str, Any]] | None = None
    for record in records:
        if record["type"] == "match":
            if current:
                yield current
            current = [record]
        elif current is None:
            raise HistoryError("a history must start with a \"match\" line")
        else:
            current.append(record)
    if current:
        yield current


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "legal"}


def replay(records: list[dict[str, Any]]) -> Match:
    """Replay one match's records, checking every deal, hand_end and match_end line against what the
    rules produce from the seed and the moves. Returns the match in its final state."""
    from cardtable import games

    head = records[0]
    if head.get("format") != FORMAT or head.get("version") != VERSION:
        raise HistoryError(f"not a {FORMAT} version {VERSION} history")
    try:
        spec = games.get(str(head.get("game")))
        match = spec.new_match(spec.options_type.from_dict(head.get("options", {})), check_seed(head.get("seed")))
    except (KeyError, OptionError) as exc:
        raise HistoryError(str(exc)) from None
    pending = list(match.log)
    cursor = len(match.log)
    for number, record in enumerate(records[1:], 2):
        if record["type"] != "move":
            mine = pending.pop(0) if pending else None
            if mine != record:
                raise HistoryError(f"record {number}: {record['type']} line differs from the replay: "
                                   f"expected {dumps(mine) if mine else 'nothing'}")
            continue
        if pending:
            raise HistoryError(f"record {number}: a {pending[0]['type']} line is missing before this move")
        try:
            move = match.decode_move(record.get("move"))
        except MoveError as exc:
            raise HistoryError(f"record {number}: {exc}") from None
        seat = record.get("seat")
        implied = match.implied_move(seat, move) if isinstance(seat, int) else None
        while implied is not None and isinstance(seat, int):   # e.g. Guiñote: both of a pair keep (silent)
            match.apply(implied[1], implied[0])
            implied = match.implied_move(seat, move)
            pending = match.log[cursor:]
            cursor = len(match.log)
            if pending:
                raise HistoryError(f"record {number}: a {pending[0]['type']} line is missing before this move")
        if seat not in (0, 1, 2, 3) or isinstance(seat, bool) or (
                seat != match.to_move() and seat not in match.optional_movers()):
            raise HistoryError(f"record {number}: seat {seat} moves but seat {match.to_move()} is to move")
        if "legal" in record:
            expected = match.history_legal(seat)
            if sorted(map(dumps, record["legal"])) != sorted(map(dumps, expected)):
                raise HistoryError(f"record {number}: the legal list differs from the rules'")
        try:
            match.apply(move, seat)
        except IllegalMove as exc:
            raise HistoryError(f"record {number}: illegal move {move} by seat {seat}: {exc.reason}") from None
        produced = match.log[cursor:]
        cursor = len(match.log)
        if _strip(record) != produced[0]:
            raise HistoryError(f"record {number}: move line differs from the replay")
        pending = produced[1:]
    return match
