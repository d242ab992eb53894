"""The one error type the core raises for bad input."""

from __future__ import annotations


class RegimeError(ValueError):
    """Bad input, explained in one line that names the field.

    Attributes:
        field: Dotted path of the offending field (``observed.bandwidth``), or ``""``.
        expected: What a valid value looks like.

    """

    def __init__(self, field: str, expected: str) -> None:
        self.field = field
        self.expected = expected
        super().__init__(f"{field}: {expected}" if field else expected)
