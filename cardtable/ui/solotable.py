"""What a table screen has only at a terminal's own table: its seat made in this process (a
:class:`LocalSeat` over the app's worker, store and statistics), its saves and its slot's lock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from cardtable.i18n import t
from cardtable.ui.seatlink import LocalSeat, Pacing, SeatLink

if TYPE_CHECKING:
    from cardtable.engine import Match
    from cardtable.ui.app import CardTableApp


class SoloTable:
    """Mixed into a :class:`GameScreen`."""

    if TYPE_CHECKING:        # the screen's: declared for the type checker only
        app: CardTableApp
        spec: Any
        players: list[str]
        slot: str
        practice: bool
        read_only: bool
        _start: Match
        _seat: SeatLink | None
        _undo_used: bool

        def table_state(self) -> dict[str, Any]: ...

        def notify(self, *args: Any, **kwargs: Any) -> None: ...

    def make_seat(self) -> SeatLink:
        """The seat this screen is a view of: seat 0 of a solo table in this process."""
        counted = not (self.practice or self.read_only)
        seat = LocalSeat(self.spec, self._start, self.players, self.slot, thinker=self.app.thinker,
                         store=self.app.store if counted else None,
                         stats=self.app.statistics if counted else None, table_extra=self.table_state)
        seat.undo_used = self._undo_used
        seat.pace(cast("Pacing", self))          # (mixed into a GameScreen, which paces the CPUs)
        return seat

    def local(self) -> LocalSeat | None:
        """The seat when it is a terminal's own table (its services: review, replay, charts)."""
        seat = self._seat
        return seat if isinstance(seat, LocalSeat) else None

    @property
    def undo_used(self) -> bool:
        """A move was taken back in this match: its statistics count apart."""
        local = self.local()
        return local.undo_used if local is not None else self._undo_used

    @undo_used.setter
    def undo_used(self, used: bool) -> None:
        self._undo_used = used
        local = self.local()
        if local is not None:
            local.undo_used = used

    @property
    def save_error(self) -> str | None:
        """Why the last save failed (None: the last save worked)."""
        local = self.local()
        return None if local is None else local.save_error

    def autosave(self, quiet: bool = False) -> bool:
        local = self.local()
        if local is None or self.read_only or self.practice:
            return False
        saved = local.save()              # (a failure is said by the seat's autosave_failed event)
        if saved and not quiet:
            self.notify(t("saved_to", slot=self.slot), markup=False)
        return saved

    def on_unmount(self) -> None:
        if not (self.read_only or self.practice):
            self.app.store.unlock(self.slot)     # another cardtable may open the slot now
