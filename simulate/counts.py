"""Reading game counts the way people write them: 1e6, 250_000, 2.5e5, 1000."""

from __future__ import annotations

import re

from simulate.errors import UserError

MAX_GAMES = 10**10


def parse_count(text: str | int, what: str = "game count") -> int:
    """A positive whole number from '1e6', '250_000', '2.5e5' or '1000'; UserError otherwise."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        raw = str(text).strip().replace("_", "")
        # A comma only as a thousands separator (250,000): '2,5e3' is not 25,000 games.
        if "," in raw:
            if not re.fullmatch(r"\d{1,3}(,\d{3})+", raw):
                raise UserError(f"{what} '{text}' is not a number (commas only between "
                                "thousands: 250,000; or write 2.5e3)")
            raw = raw.replace(",", "")
        try:
            value = int(raw)
        except ValueError:
            try:
                number = float(raw)
            except ValueError:
                raise UserError(f"{what} '{text}' is not a number (try 1e6 or 250_000)") from None
            if number != number or number in (float("inf"), float("-inf")):
                raise UserError(f"{what} '{text}' is not a finite number") from None
            if not number.is_integer():
                raise UserError(f"{what} '{text}' is not a whole number") from None
            value = int(number)
    if value < 1:
        raise UserError(f"{what} must be at least 1, got '{text}'")
    if value > MAX_GAMES:
        raise UserError(f"{what} '{text}' is more than {MAX_GAMES:.0e}")
    return value
