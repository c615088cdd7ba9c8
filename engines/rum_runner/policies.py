"""Rum Runner's decision makers for the reference path (spec §6.3).

* ``random``  — uniform over the option classes of spec §6.3 P1 (DRAW and each
  distinct hand value, not each card); a forced decision draws nothing.
* ``greedy``  — one-step look-ahead on the immediate gain of a landing, with
  ``draw_threshold`` as its risk knob and ``replenish_weight`` for closed ports.
* ``rollout`` — for every option, finish the game ``samples`` times with its
  ``base`` policy (greedy, or the trained ``expert``) after re-dealing
  everything the player cannot see; never reads the true hidden order.
* ``heuristic`` — greedy's decisions valued by a weighted sum of named features
  (``HeuristicPolicy``); at its default weights exactly greedy. It draws no random
  number.

The fast path (``engine.py``) implements the same decisions draw for draw.
Each decision method receives the table; a policy may only use what spec §6.1
says the player sees (the rollout policy re-deals the rest before looking). Under a
restriction (``engines._restrict``) the reference narrows the options first: a policy
chooses among the ``options`` or ``candidates`` it is given (D2's plays among their values),
and is not asked when one is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines._rng import Rng
from engines.rum_runner import POLICIES
from engines.rum_runner import reference as ref
from engines.rum_runner.cards import PILE_OF_PORT
from engines.rum_runner.reference import DRAW, PLAY, Action, Table
from engines.rum_runner.scoring import rank_points, score_with_rules

EXHAUSTED_CARD_VALUE = 3.5  # the mean face value of a movement card (2..5)


# ================================================================ random (P1)


class RandomPolicy:
    """Uniform over option classes; forced decisions draw no random number."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def choose_start_end(self, t: Table) -> str:
        return "left" if self.rng.below(2) == 0 else "right"

    def choose_action(self, t: Table, options: list[Action]) -> Action:
        # The classes: DRAW if kept, then each distinct value kept.
        classes: list[int] = ([0] if options[0].kind == DRAW else []) + play_values(options)
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


def play_values(options: list[Action]) -> list[int]:
    """The distinct values D2's ``options`` play, ascending (the options are in canonical order)."""
    return sorted({a.value for a in options if a.kind == PLAY})


def play_options(t: Table, values: list[int] | None = None) -> list[tuple[int, int]]:
    """(value, count) plays in canonical order, of the hand's values or of ``values`` (those
    a restriction keeps); count is always 1 in sequential mode."""
    values = t.hand_values() if values is None else values
    if t.rules.multi_card_mode == "combined":
        return [(v, k) for v in values for k in range(1, t.hand_count(v) + 1)]
    return [(v, 1) for v in values]


def best_play(t: Table, replenish_weight: float, boat=None, heading=None, values=None):
    """The play maximising (gain, steps, value): ties go to the longer move, then the larger value.
    Over the plays of ``values`` if given (D2's kept plays), else of the whole hand."""
    best = None
    best_key = None
    for v, k in play_options(t, values):
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
        (v, k), key = best_play(t, self.replenish_weight, values=play_values(options))
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
    applied to a copy and the game finished with the base policy (the rest of an
    imagined turn too: its continuations and its flip); the option with the
    highest total final score wins, ties to the first in canonical order
    (DRAW, PLAY by value ascending, STOP; ports by index; LEFT before RIGHT).
    The same re-deal is used for every option of a sample (common random numbers).
    """

    def __init__(self, rng: Rng, samples: int = POLICIES["rollout"].default("samples"),
                 base=None):
        self.rng = rng
        self.samples = int(samples)
        self.base = GreedyPolicy() if base is None else base

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


# ================================================================ heuristic (greedy plus features)


@dataclass
class Plan:
    """What a planned chain of landings has used so far (the policy's own bookkeeping).

    ``pool``: the discard before the next move; ``deck``: cards in the movement deck;
    ``hits``: landings planned on each rum pile so far; ``steps`` and ``cards``: this turn's
    steps and cards (for ``replenish_amount``). ``Plan.now(t)`` is the table as it stands, so
    a plan's first landing is valued exactly as greedy values it.
    """

    pool: int
    deck: int
    hits: list[int]
    steps: int
    cards: int

    @classmethod
    def now(cls, t: Table) -> Plan:
        return cls(len(t.discard), len(t.movement_deck), [0, 0, 0, 0], t.steps_this_turn,
                   t.cards_this_turn)


@dataclass(frozen=True)
class Landing:
    """The named features of one planned landing."""

    gain: float        # greedy's immediate gain (spec §6.3 P2)
    pile: int = -1     # the rum pile whose top it collects (-1: none)
    cards: int = 0     # cards entering the collection: the rum card, or the movement cards taken
    scarce: int = 0    # 1: a rum card of a suit the collection holds fewest of
    pair: int = 0      # what the next card of that rank would add, if one is still unseen
    taken: int = 0     # movement cards taken from the deck at an exhausted pile
    returned: int = 0  # discards a closed port returns to the deck


def collect_features(t: Table, port: int, plan: Plan) -> Landing:
    """Collecting at ``port``: its pile's visible top (standing in for the unseen card when the
    plan has landed on that pile before), or the movement cards an exhausted pile takes."""
    p = PILE_OF_PORT[t.ports[port].rank]
    pile = t.piles[p]
    if len(pile) > plan.hits[p]:
        card = pile[0]
        gain = float(score_with_rules(t.collection + [card], t.rules) - t.score())
        suits = [0, 0, 0, 0]
        for c in t.collection:
            suits[c.suit] += 1
        scarce = 1 if suits[card.suit] == min(suits) else 0
        held = sum(1 for c in t.collection if c.rank == card.rank)
        pair = 0
        if held + 1 < 4:  # another card of the rank is still unseen
            rule = t.rules.pair_rule
            pair = rank_points(card.rank, held + 2, rule) - rank_points(card.rank, held + 1, rule)
        return Landing(gain, p, 1, scarce, pair)
    taken = min(t.rules.exhausted_pile_take, plan.deck)
    return Landing(EXHAUSTED_CARD_VALUE * taken, -1, taken, taken=taken)


def landing_features(t: Table, port: int, steps: int, count: int, plan: Plan,
                     replenish_weight: float) -> Landing:
    """The features of a move of ``count`` cards and ``steps`` spaces ending on ``port``, after
    what ``plan`` has used; at ``Plan.now(t)`` its gain is greedy's ``gain``."""
    rules = t.rules
    if t.face_up[port]:
        return collect_features(t, port, plan)
    effect = rules.flipped_port_effect
    if effect == "nothing":
        return Landing(0.0)
    if rules.replenish_amount == "card_value":
        amount = steps
    elif rules.replenish_amount == "turn_steps":
        amount = plan.steps + steps
    else:
        amount = plan.cards + count
    returned = min(amount, plan.pool + (count if rules.replenish_includes_played_card else 0))
    value_of_replenish = replenish_weight * returned
    if effect == "replenish_and_collect":
        c = collect_features(t, port, plan)
        return Landing(c.gain + value_of_replenish, c.pile, c.cards, c.scarce, c.pair, c.taken,
                       returned)
    return Landing(value_of_replenish, returned=returned)


def advance(plan: Plan, f: Landing, steps: int, count: int) -> None:
    """The plan after the landing ``f`` is made."""
    if f.pile >= 0:
        plan.hits[f.pile] += 1
    plan.deck += f.returned - f.taken
    plan.pool += count - f.returned
    plan.steps += steps
    plan.cards += count


class HeuristicPolicy:
    """Greedy's decisions, valued by a weighted sum of named features (``heuristic``).

    A landing is worth ``value(features)``: greedy's gain plus the card, suit, pair,
    exhausted-pile and (when draws are free) replenishment terms. A play is worth its first
    landing plus ``w_chain`` times the further landings of its same-number cards. Drawing is
    worth ``draw_value``; the port closed is the one with the least ``flip_cost``.
    With every new weight 0 these are greedy's numbers, and it plays exactly as greedy.
    """

    def __init__(self, **weights: float):
        spec = POLICIES["heuristic"]
        for p in spec.params:
            setattr(self, p.name, float(weights.get(p.name, p.default)))

    # ------------------------------------------------------------ the scoring function

    @staticmethod
    def free_draws(t: Table) -> bool:
        """A DRAW turn closes no port (flip_after_draw=false): turns stop being the limit."""
        return not t.rules.flip_after_draw

    def value(self, t: Table, f: Landing) -> float:
        """What one landing is worth."""
        free_replenish = self.w_free_replenish if self.free_draws(t) else 0.0
        return (f.gain + self.w_card * f.cards + self.w_scarce * f.scarce + self.w_pair * f.pair
                + self.w_exhausted * f.taken + free_replenish * f.returned)

    def stop(self, t: Table) -> float:
        """The least value worth continuing a chain onto."""
        return self.w_stop + (self.w_free_stop if self.free_draws(t) else 0.0)

    def draw_value(self, t: Table) -> float:
        """What a DRAW is worth: a play must reach it."""
        free = self.w_draw_free if self.free_draws(t) else 0.0
        return (self.draw_threshold + free + self.w_draw_hand * len(t.hand)
                + self.w_draw_open * len(t.open_ports()))

    def play_value(self, t: Table, value: int, count: int, boat: int, heading: int) -> float:
        """PLAY ``count`` cards of ``value`` from (boat, heading): its first landing, plus
        ``w_chain`` times the chain of the other same-number cards in hand (sequential mode),
        each landing counted while it is worth more than the stop (as D3 would continue)."""
        rules = t.rules
        plan = Plan.now(t)
        steps = value * count
        port, heading = ref.course(rules, t.face_up, boat, heading, steps)
        first = landing_features(t, port, steps, count, plan, self.replenish_weight)
        worth = self.value(t, first)
        chain = 0.0
        if self.w_chain != 0.0 and rules.multi_card_mode == "sequential":
            advance(plan, first, steps, count)
            stop = self.stop(t)
            for _ in range(t.hand_count(value) - 1):
                port, heading = ref.course(rules, t.face_up, port, heading, value)
                f = landing_features(t, port, value, 1, plan, self.replenish_weight)
                v = self.value(t, f)
                if not v > stop:
                    break
                chain += v
                advance(plan, f, value, 1)
        return worth + self.w_chain * chain

    def flip_cost(self, t: Table, port: int, reached: set[int]) -> float:
        """What closing ``port`` gives up (the least is closed)."""
        free = self.free_draws(t)
        p = PILE_OF_PORT[t.ports[port].rank]
        same = sum(1 for i in t.open_ports() if PILE_OF_PORT[t.ports[i].rank] == p) - 1
        left = max(0, len(t.piles[p]) - 1)
        same_weight = self.w_flip_same + (self.w_free_same if free else 0.0)
        cost = collect_value(t, port) + same_weight * same + self.w_flip_left * left
        reach_weight = self.w_flip_reach + (self.w_free_reach if free else 0.0)
        return cost + (reach_weight if port in reached else 0.0)

    # ------------------------------------------------------------ the decisions

    def best_play(self, t: Table, boat: int, heading: int, values=None):
        """The play maximising (value, steps, card value), as greedy's best_play ranks gains
        (over the plays of ``values`` if given)."""
        best = None
        best_key = None
        for v, k in play_options(t, values):
            key = (self.play_value(t, v, k, boat, heading), v * k, v)
            if best_key is None or key > best_key:
                best, best_key = (v, k), key
        return best, best_key

    def choose_start_end(self, t: Table) -> str:
        _, left = self.best_play(t, 0, ref.RIGHT)
        _, right = self.best_play(t, ref.N_PORTS - 1, ref.LEFT)
        return "right" if right[0] > left[0] else "left"

    def choose_action(self, t: Table, options: list[Action]) -> Action:
        can_draw = options[0].kind == DRAW
        if not t.hand:
            return Action(DRAW)
        (v, k), key = self.best_play(t, t.boat, t.heading, play_values(options))
        if key[0] >= self.draw_value(t) or not can_draw:
            return Action(PLAY, v, k)
        return Action(DRAW)

    def choose_continue(self, t: Table, value: int) -> bool:
        port, _ = ref.course(t.rules, t.face_up, t.boat, t.heading, value)
        f = landing_features(t, port, value, 1, Plan.now(t), self.replenish_weight)
        return self.value(t, f) > self.stop(t)

    def choose_flip(self, t: Table, candidates: list[int]) -> int:
        reached = {ref.course(t.rules, t.face_up, t.boat, t.heading, v)[0]
                   for v in t.hand_values()}
        return min(candidates, key=lambda i: (self.flip_cost(t, i, reached), i))


def build(policy, rng: Rng):
    """The reference decision maker for a declared ``Policy`` (engines._game.Policy)."""
    return BUILDERS[policy.name](policy, rng)


def _playouts(policy):
    """The declared policy a search's ``base`` names (``Policy.base``, resolved if it is not)."""
    from engines.rum_runner import GAME

    return policy.base if policy.base is not None else GAME.resolve(policy).base


# policy name -> its decision maker, from the declared parameters and the seat's stream
BUILDERS = {
    "random": lambda policy, rng: RandomPolicy(rng),
    "greedy": lambda policy, rng: GreedyPolicy(**policy.params()),
    "rollout": lambda policy, rng: RolloutPolicy(rng, policy.param("samples"),
                                                 build(_playouts(policy), rng)),
    "heuristic": lambda policy, rng: HeuristicPolicy(**policy.params()),
}
