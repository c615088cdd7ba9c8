"""The games rumsim can play, each declared once in ``engines/<game>/__init__.py``.

``get_game(name)`` returns a game's :class:`engines._game.GameInfo`;
``GAMES`` lists the names in the order the CLI shows them.
"""

from __future__ import annotations

import importlib

from engines._rules import RulesError, closest

# name -> module; modules are imported only when a game is asked for.
_MODULES = {
    "rum-runner": "engines.rum_runner",
    "rum-rebellion": "engines.rum_rebellion",
    "montego-bay": "engines.montego_bay",
    "motines": "engines.motines",
    "rum-and-pirates": "engines.rum_and_pirates",
}

GAMES = tuple(_MODULES)


def get_game(name: str):
    """The declaration of game ``name`` (RulesError, with a suggestion, if unknown)."""
    key = name.strip().lower().replace("_", "-")
    if key not in _MODULES:
        raise RulesError(f"unknown game '{name}'" + closest(key, GAMES)
                         + f"; games: {', '.join(GAMES)}")
    return importlib.import_module(_MODULES[key]).GAME
