"""The one kind of error a user causes: reported as one line on stderr with exit code 2."""

from __future__ import annotations

from engines._rules import RulesError


class UserError(RulesError):
    """A mistake in what the user asked for (bad count, file, option combination...)."""
