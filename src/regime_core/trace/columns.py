"""A trace's GPU spans, launches and ops kept as columns, read back as the named tuples the readers use.

A trace of millions of events kept as one named tuple each holds some 200–300 bytes an event (the tuple, its two
floats, its ids); kept as columns (times in arrays of doubles, ids in arrays of integers, the few distinct
devices, streams and threads as indices) it holds some 35–70. The readers iterate, index and slice the columns as
a sequence of the same named tuples, built as they are read: nothing downstream knows how they are kept.
"""

from __future__ import annotations

import math
from array import array
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import islice, repeat
from operator import itemgetter, le
from typing import Any, TypeVar, overload

T = TypeVar("T")

_drain = deque[object](maxlen=0).extend  # consumes an iterator without a Python-level loop

#: What an integer column stores for "none" (a correlation or external id the event does not carry).
NONE_ID = -(2**63)


class _Coded:
    """A column whose stored values are not the field's own: read back through ``get`` and ``decoded``."""

    __slots__ = ("values",)
    values: Any

    def get(self, at: int) -> Any:
        """The field's value in row ``at``."""
        raise NotImplementedError

    def decoded(self) -> Iterator[Any]:
        """The field's values in order."""
        raise NotImplementedError

    def append(self, value: Any) -> None:
        """Keep one value."""
        raise NotImplementedError

    def extend(self, values: Sequence[Any]) -> None:
        """Keep many values, in order (a column of them read at once: an SQLite export's)."""
        _drain(map(self.append, values))

    def reordered(self, order: Sequence[int]) -> None:
        """The column in ``order``."""
        values = self.values
        picked = map(values.__getitem__, order)  # each row looked up in C, not a Python step per row
        self.values = array(values.typecode, picked) if isinstance(values, array) else list(picked)


class IdColumn(_Coded):
    """Integer ids (or None) in an array of 64-bit integers; a list once one does not fit."""

    def __init__(self) -> None:
        self.values: array[int] | list[int | None] = array("q")

    def append(self, value: int | None) -> None:
        """Keep one id."""
        values = self.values
        if type(values) is list:
            values.append(value)
            return
        try:
            values.append(NONE_ID if value is None else value)
        except OverflowError:  # an id past 64 bits: kept, in a list from now on
            self.values = [None if v == NONE_ID else v for v in values]
            self.values.append(value)

    def extend(self, values: Sequence[int | None]) -> None:
        """Keep many ids: in one call into C where each is a 64-bit integer, else one at a time."""
        if type(self.values) is not list:
            try:  # all or nothing: extending the column itself may stop half-way
                whole = array("q", [NONE_ID if v is None else v for v in values])
            except (TypeError, OverflowError):  # an id past 64 bits, or not an integer
                pass
            else:
                self.values.extend(whole)
                return
        _drain(map(self.append, values))

    def get(self, at: int) -> int | None:
        """The id in row ``at``."""
        value = self.values[at]
        return None if value == NONE_ID else value

    def decoded(self) -> Iterator[int | None]:
        """The ids in order, None where there is none."""
        values = self.values
        if type(values) is list:
            return iter(values)
        # Most columns are all ids or all none (a format without External ids): told by scans in C
        if NONE_ID not in values:
            return iter(values)
        if values.count(NONE_ID) == len(values):
            return repeat(None, len(values))
        return (None if v == NONE_ID else v for v in values)


class MaybeFloatColumn(_Coded):
    """Floats (or None) in an array of doubles, NaN standing for None (a NaN read is no figure either)."""

    def __init__(self) -> None:
        self.values: array[float] = array("d")

    def append(self, value: float | None) -> None:
        """Keep one value."""
        self.values.append(math.nan if value is None else value)

    def get(self, at: int) -> float | None:
        """The value in row ``at``."""
        value = self.values[at]
        return None if value != value else value  # noqa: PLR0124 (NaN is the one float not equal to itself)

    def decoded(self) -> Iterator[float | None]:
        """The values in order, None where there is none."""
        return (None if v != v else v for v in self.values)  # noqa: PLR0124


class FlagColumn(_Coded):
    """True or False in an array of bytes."""

    def __init__(self) -> None:
        self.values: array[int] = array("b")

    def append(self, value: bool) -> None:
        """Keep one flag."""
        self.values.append(1 if value else 0)

    def extend(self, values: Sequence[bool]) -> None:
        """Keep many flags."""
        self.values.extend(array("b", map(bool, values)))

    def get(self, at: int) -> bool:
        """The flag in row ``at``."""
        return bool(self.values[at])

    def decoded(self) -> Iterator[bool]:
        """The flags in order."""
        return map(bool, self.values)


class LabelColumn(_Coded):
    """A few distinct labels (devices, streams, threads, kinds) as 16-bit indices into one list of each."""

    __slots__ = ("index", "labels")

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.index: dict[str, int] = {}
        self.values: array[int] | list[str] = array("H")

    def append(self, label: str) -> None:
        """Keep one label."""
        values = self.values
        if isinstance(values, list):
            values.append(label)
            return
        at = self.index.get(label)
        if at is None:
            if len(self.labels) >= 2**16:  # a trace of ever new labels: kept as they are from now on
                self.values = [*(self.labels[i] for i in values), label]
                return
            at = self.index[label] = len(self.labels)
            self.labels.append(label)
        values.append(at)

    def extend(self, values: Sequence[str]) -> None:
        """Keep many labels: each new one given its index first, then every row's index looked up in C."""
        if isinstance(self.values, list) or len(self.labels) + len(new := dict.fromkeys(values)) > 2**16:
            _drain(map(self.append, values))
            return
        for label in new:
            if label not in self.index:
                self.index[label] = len(self.labels)
                self.labels.append(label)
        self.values.extend(array("H", map(self.index.__getitem__, values)))

    def get(self, at: int) -> str:
        """The label in row ``at``."""
        value = self.values[at]
        return value if isinstance(value, str) else self.labels[value]

    def decoded(self) -> Iterator[str]:
        """The labels in order."""
        values = self.values
        if isinstance(values, list):
            return iter(values)
        return map(self.labels.__getitem__, values)


#: Rows a :class:`Columns` holds as tuples before moving them into its columns: a few hundred kilobytes.
PENDING = 4096


class Columns(Sequence[T]):
    """Rows of one named tuple type kept as columns, read as a sequence of those tuples.

    ``columns`` hold the fields in order: a list (references: names, shared shape tuples), an ``array`` (floats),
    or a coded column (:class:`IdColumn`, :class:`MaybeFloatColumn`, :class:`FlagColumn`, :class:`LabelColumn`).
    Rows are added with :meth:`append` and built, as named tuples, as they are read.
    """

    __slots__ = ("_columns", "_make", "waiting")

    def __init__(self, row: type[T], columns: list[Any]) -> None:
        self._make: Callable[[tuple[Any, ...]], T] = partial(tuple.__new__, row)  # type: ignore[type-var]
        self._columns = columns
        #: Rows appended, not yet moved into the columns: always this one list (emptied, never replaced), so a
        #: reader's loop may append a row's tuple to it directly and call :meth:`settle` after its block.
        self.waiting: list[tuple[Any, ...]] = []

    def append(self, row: tuple[Any, ...]) -> None:
        """Keep one row, given as its fields in order.

        The hot path of a trace: rows wait as tuples, a block at a time, and move into the columns together, each
        column extended in one call (a row's nine fields appended one by one cost more than the row itself).
        """
        waiting = self.waiting
        waiting.append(row)
        if len(waiting) >= PENDING:
            self._flush()

    def settle(self) -> None:
        """Move the rows waiting into the columns once a block of them has gathered (after appends to ``waiting``)."""
        if len(self.waiting) >= PENDING:
            self._flush()

    def _flush(self) -> None:
        """Move the rows waiting into the columns."""
        waiting = self.waiting
        if waiting:
            moved = list(zip(*waiting, strict=True))
            waiting.clear()
            self._extend(moved)

    def extend(self, columns: Sequence[Sequence[Any]]) -> None:
        """Keep many rows, given as their columns (each field's values in order, all of one length)."""
        self._flush()
        self._extend(columns)

    def _extend(self, columns: Sequence[Sequence[Any]]) -> None:
        if len({len(values) for values in columns}) > 1 or len(columns) != len(self._columns):
            raise ValueError("columns of different lengths, or not one per field")
        for column, values in zip(self._columns, columns, strict=True):
            if isinstance(column, array):
                column.extend(array(column.typecode, values))  # all or nothing, as the coded columns
            else:
                column.extend(values)

    def __len__(self) -> int:
        self._flush()
        first = self._columns[0]
        return len(first.values if isinstance(first, _Coded) else first)

    def __iter__(self) -> Iterator[T]:
        self._flush()
        fields = [c.decoded() if isinstance(c, _Coded) else iter(c) for c in self._columns]
        return map(self._make, zip(*fields, strict=True))

    @overload
    def __getitem__(self, at: int) -> T: ...
    @overload
    def __getitem__(self, at: slice) -> tuple[T, ...]: ...
    def __getitem__(self, at: int | slice) -> T | tuple[T, ...]:
        size = len(self)
        if isinstance(at, slice):
            return tuple(self[i] for i in range(*at.indices(size)))
        if at < 0:
            at += size
        if not 0 <= at < size:
            raise IndexError("row out of range")
        return self._make(tuple(c.get(at) if isinstance(c, _Coded) else c[at] for c in self._columns))

    def values(self, index: int) -> Iterator[Any]:
        """Field ``index`` of every row, in order, read from its column alone (no row is built)."""
        self._flush()
        column = self._columns[index]
        return column.decoded() if isinstance(column, _Coded) else iter(column)

    def field(self, index: int) -> Callable[[int], Any]:
        """A function giving field ``index`` of a row, read from its column alone (no row is built)."""
        self._flush()
        column = self._columns[index]
        return column.get if isinstance(column, _Coded) else column.__getitem__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Columns | tuple | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(self))

    def sorted_by(self, key_column: int) -> Columns[T]:
        """The same rows in the order of one float column (a start), ties in the order they came."""
        self._flush()
        keys = self._columns[key_column]
        if all(map(le, keys, islice(keys, 1, None))):  # a trace writes most events in order already (checked in C)
            return self
        order = sorted(range(len(keys)), key=keys.__getitem__)
        for n, column in enumerate(self._columns):
            if isinstance(column, _Coded):
                column.reordered(order)
            elif isinstance(column, array):
                self._columns[n] = array(column.typecode, map(column.__getitem__, order))
            else:
                self._columns[n] = list(map(column.__getitem__, order))
        return self


def values_of(rows: Sequence[Any], index: int) -> Iterator[Any]:
    """Field ``index`` of every row, in order: from its column alone where the rows are columns."""
    if isinstance(rows, Columns):
        return rows.values(index)
    return map(itemgetter(index), rows)
