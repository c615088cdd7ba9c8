"""Rum Runner's decision makers for the reference path (spec §6.3).

* ``random``  — uniform over the option classes of spec §6.3 P1 (DRAW and each
  distinct hand value, not each card); a forced decision draws nothing.
* ``greedy``  — one-step look-ahead on the immediate gain of a landing, with
  ``draw_threshold`` as its risk knob and ``replenish_weight`` for closed ports.
* ``rollout`` — for every option, finish the game ``samples`` times with
  greedy after re-dealing everything the player cannot see; never reads the
  true hidden order.

The fast path (``engine.py``) implements the same decisions draw for draw.
Each decision method receives the table; a policy may only use what spec §6.1
says the player sees (the rollout policy re-deals the rest before looking).
"""

from __future__ import annotations

from engines._rng import Rng
from engines.rum_runner import POLICIES
from engines.rum_runner import reference as ref
from engines.rum_runner.cards import PILE_OF_PORT
from engines.rum_runner.reference import DRAW, PLAY, Action, Table
from engines.rum_runner.scoring import score_with_rules

EXHAUSTED_CARD_VALUE = 3.5  # the mean face value of a movement card (2..5)


# ================================================================ random (P1)


class RandomPolicy:
    """Uniform over option classes; forced decisions draw no random number."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def choose_start_end(self, t: Table) -> str:
        return "left" if self.rng.below(2) == 0 else "right"

    def choose_action(self, t: Table, options: list[Action]) -> Action:
        # The classes: DRAW if legal, then each distinct value in the hand.
        classes: list[int] = ([0] if options[0].kind == DRAW else []) + t.hand_values()
        pick = classes[self.rng.below(len(classes))] if len(classes) > 1 else classes[0]
        if pick == 0:
            return Action(DRAW)
        count = 1
        if t.rules.multi_card_mode == "combined":
            held = t.hand_count(pick)
            count = 1 + self.rng.below(held) if held > 1 else 1
        return Action(PLAY, pick, count)

    def choose_continue(self, t: Table, value: int) -> bool:
        # Options in canonical order: [PLAY value, STOP].
        return self.rng.below(2) == 0

    def choose_flip(self, t: Table, candidates: list[int]) -> int:
        return candidates[self.rng.below(len(candidates))]


# ================================================================ greedy (P2)


def collect_value(t: Table, port: int) -> float:
    """What collecting at ``port`` would add: the score gain of the pile top, or 3.5 a card taken."""
    pile = t.piles[PILE_OF_PORT[t.ports[port].rank]]
    if pile:
        return float(score_with_rules(t.collection + [pile[0]], t.rules) - t.score())
    return EXHAUSTED_CARD_VALUE * min(t.rules.exhausted_pile_take, len(t.movement_deck))


def gain(t: Table, value: int, count: int, replenish_weight: float,
         boat: int | None = None, heading: int | None = None) -> float:
    """Immediate gain of playing ``count`` cards of ``value`` from the current (or given) boat."""
    rules = t.rules
    boat = t.boat if boat is None else boat
    heading = t.heading if heading is None else heading
    steps = value * count
    port, _ = ref.course(rules, t.face_up, boat, heading, steps)
    if t.face_up[port]:
        return collect_value(t, port)
    if rules.flipped_port_effect == "nothing":
        return 0.0
    if rules.replenish_amount == "card_value":
        amount = steps
    elif rules.replenish_amount == "turn_steps":
        amount = t.steps_this_turn + steps
    else:
        amount = t.cards_this_turn + count
    pool = len(t.discard) + (count if rules.replenish_includes_played_card else 0)
    value_of_replenish = replenish_weight * min(amount, pool)
    if rules.flipped_port_effect == "replenish_and_collect":
        return collect_value(t, port) + value_of_replenish
    return value_of_replenish


def play_options(t: Table) -> list[tuple[int, int]]:
    """(value, count) plays in canonical order; count is always 1 in sequential mode."""
    if t.rules.multi_card_mode == "combined":
        return [(v, k) for v in t.hand_values() for k in range(1, t.hand_count(v) + 1)]
    return [(v, 1) for v in t.hand_values()]


def best_play(t: Table, replenish_weight: float, boat=None, heading=None):
    """The play maximising (gain, steps, value): ties go to the longer move, then the larger value."""
    best = None
    best_key = None
    for v, k in play_options(t):
        key = (gain(t, v, k, replenish_weight, boat, heading), v * k, v)
        if best_key is None or key > best_key:
            best, best_key = (v, k), key
    return best, best_key


class GreedyPolicy:
    """One-step look-ahead (spec §6.3 P2)."""

    def __init__(self, draw_threshold: float = POLICIES["greedy"].default("draw_threshold"),
                 replenish_weight: float = POLICIES["greedy"].default("replenish_weight")):
        self.draw_threshold = draw_threshold
        self.replenish_weight = replenish_weight

    def choose_start_end(self, t: Table) -> str:
        _, left = best_play(t, self.replenish_weight, 0, ref.RIGHT)
        _, right = best_play(t, self.replenish_weight, ref.N_PORTS - 1, ref.LEFT)
        return "right" if right[0] > left[0] else "left"

    def choose_action(self, t: Table, options: list[Action]) -> Action:
        can_draw = options[0].kind == DRAW
        if not t.hand:
            return Action(DRAW)
        (v, k), key = best_play(t, self.replenish_weight)
        if key[0] >= self.draw_threshold or not can_draw:
            return Action(PLAY, v, k)
        return Action(DRAW)

    def choose_continue(self, t: Table, value: int) -> bool:
        return gain(t, value, 1, self.replenish_weight) > 0

    def choose_flip(self, t: Table, candidates: list[int]) -> int:
        # Close the port worth least to us: smallest (port_value, index).
        return min(candidates, key=lambda i: (collect_value(t, i), i))


# ================================================================ rollout (P3)


def redeal_hidden(t: Table, rng: Rng) -> None:
    """Re-deal what the player cannot see, consistently with what they can.

    The movement deck is shuffled within each batch (the dealt deck, then one
    batch per replenishment: the player saw which cards went under, not their
    order); each rum pile below its face-up top is shuffled. Each part is put
    in card order before its shuffle, so the result depends only on what the
    player knows, never on the true hidden order.
    """
    deck, batch = t.movement_deck, t.deck_batch
    start = 0
    while start < len(deck):
        end = start
        while end < len(deck) and batch[end] == batch[start]:
            end += 1
        part = sorted(deck[start:end])
        rng.shuffle(part)
        deck[start:end] = part
        start = end
    for pile in t.piles:
        below = sorted(pile[1:])
        rng.shuffle(below)
        pile[1:] = below


class RolloutPolicy:
    """Monte Carlo look-ahead over determinised deals (spec §6.3 P3).

    For each of ``samples`` re-deals of the hidden cards, every option is
    applied to a copy and the game finished with greedy; the option with the
    highest total final score wins, ties to the first in canonical order
    (DRAW, PLAY by value ascending, STOP; ports by index; LEFT before RIGHT).
    The same re-deal is used for every option of a sample (common random numbers).
    """

    def __init__(self, rng: Rng, samples: int = POLICIES["rollout"].default("samples")):
        self.rng = rng
        self.samples = int(samples)
        self.base = GreedyPolicy()

    def _best(self, t: Table, n_options: int, apply) -> int:
        totals = [0] * n_options
        for _ in range(self.samples):
            dealt = t.copy()
            redeal_hidden(dealt, self.rng)
            for i in range(n_options):
                sim = dealt.copy()
                apply(sim, i)
                ref.play_out(sim, self.base, self.rng)
                totals[i] += ref.finish(sim)
        best = 0
        for i in range(1, n_options):
            if totals[i] > totals[best]:
                best = i
        return best

    def choose_start_end(self, t: Table) -> str:
        ends = ("left", "right")

        def apply(sim: Table, i: int) -> None:
            sim.boat, sim.heading = (0, ref.RIGHT) if i == 0 else (ref.N_PORTS - 1, ref.LEFT)

        return ends[self._best(t, 2, apply)]

    def choose_action(self, t: Table, options: list[Action]) -> Action:
        def apply(sim: Table, i: int) -> None:
            action = options[i]
            if action.kind == DRAW:
                ref.draw(sim, self.rng)
            else:
                ref.play_cards(sim, action, self.base, self.rng)
            ref.end_turn(sim, action.kind, self.base)

        return options[self._best(t, len(options), apply)]

    def choose_continue(self, t: Table, value: int) -> bool:
        def apply(sim: Table, i: int) -> None:
            if i == 0:  # PLAY another card of the value, then greedy for the rest of the turn
                ref.play_cards(sim, Action(PLAY, value), self.base, self.rng)
            ref.end_turn(sim, PLAY, self.base)

        return self._best(t, 2, apply) == 0

    def choose_flip(self, t: Table, candidates: list[int]) -> int:
        def apply(sim: Table, i: int) -> None:
            sim.face_up[candidates[i]] = False
            ref.check_end(sim)

        return candidates[self._best(t, len(candidates), apply)]


def build(policy, rng: Rng):
    """The reference decision maker for a declared ``Policy`` (engines._game.Policy)."""
    return BUILDERS[policy.name](policy, rng)


# policy name -> its decision maker, from the declared parameters and the seat's stream
BUILDERS = {
    "random": lambda policy, rng: RandomPolicy(rng),
    "greedy": lambda policy, rng: GreedyPolicy(**policy.params()),
    "rollout": lambda policy, rng: RolloutPolicy(rng, **policy.params()),
}
