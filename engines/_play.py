"""The one reference-path driver: seats' decision makers, one game played, told and recorded.

A game's ``reference.py`` supplies the rules, nothing else:

* ``play_game(rules, players, policies, world, narrate=False) -> table``:
  set up, play to the end and score, drawing chance from ``world`` and asking
  ``policies[seat]`` (the seat's decision maker) for every choice; when
  ``narrate`` is true, ``table.log`` holds the story and ``table.events`` the
  machine events;
* ``outcome(table, game) -> dict``: the outcome row (the declared columns);
* ``final_state(table) -> dict``: where everything ended up, for the record.

Its ``policies.py`` supplies ``build(policy, rng)``: the decision maker for a
declared :class:`engines._game.Policy` drawing from ``rng``. This driver
builds them, one stream per seat, so ``reference.py`` never imports
``policies.py`` (the policies read the game's state, so they import the
reference, not the other way round).
"""

from __future__ import annotations

from typing import Any

from engines._rng import POLICY, WORLD, Rng


def decision_makers(info, policies, seed: int, game: int) -> list:
    """Each seat's decision maker, seat ``s`` drawing from stream ``POLICY + s``; each
    carries the ``label`` of the policy it plays (narrations name it) and its restriction's
    masks ``forbid`` and ``force`` (``engines._restrict``)."""
    build = info.module("policies").build
    makers = []
    for seat, policy in enumerate(policies):
        # a trained set plays as the declared policy it sets, with its values; a search's
        # playout policy (``Policy.base``) comes resolved the same way
        maker = build(info.declared(policy), Rng(seed, game, POLICY + seat))
        maker.label = policy.label()
        # the seat's restriction (engines._restrict): a game reads it once, at setup
        maker.forbid = policy.restriction.forbid_mask
        maker.force = policy.restriction.force_mask
        makers.append(maker)
    return makers


def play_table(info, rules, policies, players: int, seed: int, game: int,
               narrate: bool = False):
    """Game ``game`` of ``seed`` played on the reference path: the final table."""
    players = info.check_seats(rules, policies, players)
    return info.module("reference").play_game(
        rules, players, decision_makers(info, policies, seed, game), Rng(seed, game, WORLD),
        narrate=narrate)


def play(info, rules, policies, players: int, seed: int, game: int) -> dict[str, Any]:
    """The outcome row of game ``game`` of ``seed`` (what the fast path must equal)."""
    table = play_table(info, rules, policies, players, seed, game)
    return info.module("reference").outcome(table, game)


def narrate(info, rules, policies, players: int, seed: int,
            game: int) -> tuple[list[str], dict[str, Any]]:
    """One game told event by event, and a machine record of it."""
    table = play_table(info, rules, policies, players, seed, game, narrate=True)
    return table.log, record(info, table, rules, policies, seed, game)


def record(info, table, rules, policies, seed: int, game: int) -> dict[str, Any]:
    """A machine record of a whole game: who played, the rules, events, final state, outcome."""
    reference = info.module("reference")
    return {
        "game": info.name,
        "seed": seed,
        "game_index": game,
        "players": len(policies),
        "policies": [p.label() for p in policies],
        "rules": {k: (list(v) if isinstance(v, tuple) else v) for k, v in rules.to_dict().items()},
        "events": table.events or [],
        "final": reference.final_state(table),
        "outcome": reference.outcome(table, game),
    }


def flat_monte_carlo(rng: Rng, candidates: list[int], samples: int, playout,
                     tol: float = 1e-9) -> int:
    """The candidate with the best total over common random playouts (a rollout policy).

    ``samples`` words are drawn from the seat's stream ``rng`` first, one per playout;
    ``playout(candidate, word)`` plays the game on from the candidate with the world
    ``Rng(word, 0, 0)`` and returns its worth. Every candidate sees the same words (common
    random numbers); a later candidate wins only when better by more than ``tol``, so the
    choice does not hang on rounding. The fast paths keep this order of draws.
    """
    words = [rng.next_u64() for _ in range(samples)]
    best, best_total = None, None
    for i in candidates:
        total = 0.0
        for word in words:
            total += playout(i, word)
        if best is None or total > best_total + tol:
            best, best_total = i, total
    return best
