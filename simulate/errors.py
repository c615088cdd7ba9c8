"""What stops a command early: a user's mistake (one line on stderr, exit code 2) or the user
stopping it (Ctrl-C, SIGTERM, SIGHUP: exit code 130)."""

from __future__ import annotations

from engines._rules import RulesError


class UserError(RulesError):
    """A mistake in what the user asked for (bad count, file, option combination...)."""


class Interrupted(Exception):
    """The user stopped the work (a signal); what finished is kept, and the exit code is 130."""
