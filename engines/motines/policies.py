"""21 Motines' decision makers for the reference path (spec §6).

One method per decision of spec §6 (``reference.py`` asks them):

* D1 ``captain_action(t, seat, options) -> (box, slot)``; D2
  ``follower_choice``; D9 ``free_round_choice`` (same form);
* D3 ``if_buy(t, seat, price) -> bool``; D4 ``if_keep(t, seat, colour, price)``;
  ``sf_buy(t, seat, index)`` (only under ``sf_buy_mandatory=false``);
* D5 ``sub_money(t, seat) -> bool`` (True: 1$, False: 1 PV);
* D6 ``sale(t, seat, options, optional) -> Sale | None``;
* D7 ``so_fishing(t, seat, options) -> display index | BLIND``;
* D8 ``use_treasures(t, seat, offered) -> kinds`` (``offered``: one entry per
  usable card).

Policies:

* ``random`` draws from its seat's stream: D1/D2/D9/D7 ``options[below(n)]``;
  D3, D4 and ``sf_buy`` yes when ``below(2) == 0``; D5 1$ when ``below(2) ==
  1``; D6 ``below(n + 1)`` with index n = decline when the sale is optional
  (else ``below(n)``); D8 one ``below(2)`` per offered card, in order, 0 = use.
* ``greedy`` maximises the valuation Phi one step ahead (spec §6.1); it
  draws nothing. Comparisons use a tolerance of 1e-9: scanning the options
  in their tie order, a candidate replaces the incumbent only when better by
  more than 1e-9.
* ``planner`` is greedy with the changes of spec §6.1 (Captain denial,
  mutiny timing, a sale floor, an ice target).
* ``heuristic`` is greedy's one-step choice under a weighted valuation whose
  weights are declared parameters (``HeuristicPolicy``: money with a
  reserve, fish, ice, sale potential, treasures, a sale floor, the Captain
  bonus by stage, mutiny and Captain denial); at its defaults it makes
  greedy's choices. It draws nothing.
* ``rollout`` plays the options of D1, D2 and D9 to the end on re-dealt hidden
  cards with every seat its ``base`` policy (greedy or the trained ``expert``),
  which also makes its other decisions (``RolloutPolicy``).

Phi(h) = PV + 0.5 $ + 0.5 fish + ice term + sale term + sum of tv, added in
that order; greedy's ice term is -ice and its sale term the best sale gain
(0.5 price + x - 0.5 cards, 0 if none is positive; in the free round 0 for a
player without a market treasure). The expected value of a blind fish is
``sum_c unseen_c * (Phi(h + c) - Phi(h)) / sum_c unseen_c``, colours in order;
of the Ice Factory ``sum_N w_N * (Phi(h + gains_N) - Phi(h)) / sum_N w_N``
over the roll's outcomes; a treasure is 1.5 while treasures are replaced,
else ``sum_k unseen_k * tv_k / sum_k unseen_k``. The planner reads its
followers' holdings (for the denial term) as they are.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from engines._rng import Rng
from engines.motines import POLICIES
from engines.motines.data import (
    COMBO_CARDS,
    COMBOS,
    FM,
    FOUR_PV_PRICE,
    FOUR_PV_UNAFFORDABLE_VALUE,
    ICE,
    IF,
    JOKER,
    MODIFIED_MONEY,
    MODIFIED_PV,
    MUT,
    MUTINY_ZERO_MONEY,
    SF,
    SO,
    SO_2PV,
    SO_2PV_GAIN,
    SO_2PV_PRICE,
    SO_FISHING,
    SO_ICE,
    SO_LAST_PV,
    SO_MARKET,
    SO_TREASURE,
    SUB,
    T_4PV_FOR_4,
    T_ICE,
    T_JOKER,
    T_MARKET,
    TR,
    TREASURE_VALUE,
)
from engines.motines.reference import (
    BLIND,
    FREE,
    LAST_CAPTAIN,
    NO_SLOT,
    NORMAL,
    Table,
    blind_available,
    clone,
    finish_free_round,
    finish_game,
    finish_round,
    join_slots,
    place,
    place_captain,
    play_on,
    reserved,
    sale_options,
)

TOL = 1e-9
SUB_VALUE = 1.0  # Subvention valued as its PV (spec §6.1 D2)
MODIFIED_VALUE = MODIFIED_PV + 0.5 * MODIFIED_MONEY  # a replaced treasure: +1$ +1 PV
COIN_PAIRS = 25  # (A, B) with both dice above 1, of 36: the Captain's coin

_GREEDY = POLICIES["greedy"].default
_PLANNER = POLICIES["planner"].default


class Holding(NamedTuple):
    """What a valuation reads of one player (real or imagined)."""

    pv: int
    money: int
    ice: int
    hand: tuple       # fish cards per colour
    treasures: tuple  # per type

    def plus(self, pv=0, money=0, ice=0, colour=None) -> Holding:
        hand = self.hand
        if colour is not None:
            hand = hand[:colour] + (hand[colour] + 1,) + hand[colour + 1:]
        return Holding(self.pv + pv, self.money + money, self.ice + ice, hand, self.treasures)


def holding(t: Table, seat: int) -> Holding:
    p = t.seats[seat]
    return Holding(p.pv, p.money, p.ice, tuple(p.hand), tuple(p.treasures))


def sale_gain(rules, sale) -> float:
    """g(s) = 0.5 price + x - 0.5 cards (spec §6.1)."""
    return 0.5 * rules.market_price(sale.combo, sale.x) + sale.x - 0.5 * COMBO_CARDS[sale.combo]


def pick_sale(rules, options, allowed=None):
    """The sale with the largest gain, ties to fewer wild fish, then the first: (sale, g),
    or (None, 0.0) when no option (that ``allowed`` accepts) exists."""
    best, best_g = None, 0.0
    for sale in options:
        if allowed is not None and not allowed(sale):
            continue
        g = sale_gain(rules, sale)
        if best is None or g > best_g + TOL or (g > best_g - TOL and sale.wild < best.wild):
            best, best_g = sale, g
    return best, best_g


@lru_cache(maxsize=1 << 16)
def best_sale(rules, hand4: tuple, jokers: int, ice: int) -> tuple:
    """Greedy's best sale of any combination from a hand: (sale or None, g)."""
    return pick_sale(rules, sale_options(rules, hand4, jokers, ice, COMBOS))


def unseen_total(unseen) -> int:
    return sum(n for n in unseen if n > 0)


# ================================================================ random


class RandomPolicy:
    """Uniform over the legal options of every decision (spec §6.1 ``random``)."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def _pick(self, t, seat, options):
        return options[self.rng.below(len(options))]

    captain_action = follower_choice = free_round_choice = so_fishing = _pick

    def if_buy(self, t, seat, price) -> bool:
        return self.rng.below(2) == 0

    def if_keep(self, t, seat, colour, price) -> bool:
        return self.rng.below(2) == 0

    def sf_buy(self, t, seat, index) -> bool:
        return self.rng.below(2) == 0

    def sub_money(self, t, seat) -> bool:
        return self.rng.below(2) == 1

    def sale(self, t, seat, options, optional):
        i = self.rng.below(len(options) + (1 if optional else 0))
        return options[i] if i < len(options) else None

    def use_treasures(self, t, seat, offered) -> list:
        return [kind for kind in offered if self.rng.below(2) == 0]


# ================================================================ greedy


class GreedyPolicy:
    """The one-step Phi maximiser of spec §6.1."""

    def __init__(self, captain_bonus: float = _GREEDY("captain_bonus"),
                 money_reserve: float = _GREEDY("money_reserve")):
        self.captain_bonus = captain_bonus
        self.money_reserve = money_reserve

    # ------------------------------------------------------------ the valuation

    def sale_terms(self, t: Table, h: Holding) -> tuple[float, float]:
        """(ice term, sale term) of Phi."""
        if t.phase == FREE and not h.treasures[T_MARKET]:
            return -float(h.ice), 0.0
        _, g = best_sale(t.rules, h.hand[:4], h.hand[JOKER] + h.treasures[T_JOKER], h.ice)
        return -float(h.ice), max(0.0, g)

    def phi(self, t: Table, h: Holding) -> float:
        ice_term, sale_term = self.sale_terms(t, h)
        value = h.pv + 0.5 * h.money + 0.5 * sum(h.hand) + ice_term + sale_term
        for kind, n in enumerate(h.treasures):
            if n:
                tv = TREASURE_VALUE[kind]
                if kind == T_4PV_FOR_4 and h.money < FOUR_PV_PRICE:
                    tv = FOUR_PV_UNAFFORDABLE_VALUE
                value += n * tv
        return value

    def gain(self, t, h: Holding, after: Holding) -> float:
        return self.phi(t, after) - self.phi(t, h)

    def money_gain(self, t: Table, money: int, d: int) -> float:
        """What ``d`` $ more are worth to a holder of ``money`` $: 0.5 each."""
        return 0.5 * d

    def price_cost(self, t: Table, money: int, price: int) -> float:
        """What paying ``price`` $ out of ``money`` $ costs."""
        return self.money_gain(t, money - price, price)

    def sub_value(self, t: Table, h: Holding) -> float:
        """Subvention: its PV (spec §6.1 D2)."""
        return SUB_VALUE

    def blind_value(self, t: Table, seat: int, h: Holding) -> float:
        """E[Phi gain] of a blind fish over the colours the player has not seen."""
        unseen = t.unseen_fish(seat)
        total = unseen_total(unseen)
        if total <= 0:
            return 0.0
        base = self.phi(t, h)
        acc = 0.0
        for c, n in enumerate(unseen):
            if n > 0:
                acc += n * (self.phi(t, h.plus(colour=c)) - base)
        return acc / total

    def treasure_value(self, t: Table, seat: int, h: Holding) -> float:
        """A treasure about to be gained: 1.5 while replaced, else the mean tv unseen."""
        if t.modified:
            return MODIFIED_VALUE
        unseen = t.unseen_treasures(seat)
        total = unseen_total(unseen)
        if total <= 0:
            return MODIFIED_VALUE
        acc = 0.0
        for kind, n in enumerate(unseen):
            if n > 0:
                tv = TREASURE_VALUE[kind]
                if kind == T_4PV_FOR_4 and h.money < FOUR_PV_PRICE:
                    tv = FOUR_PV_UNAFFORDABLE_VALUE
                acc += n * tv
        return acc / total

    # ------------------------------------------------------------ sales

    def sale_allowed(self, t: Table):
        """Which sales this policy would make (None: any)."""
        return None

    def sale_floor(self, t: Table) -> float:
        """An optional sale is declined unless its gain is above this."""
        return 0.0

    def chosen_sale(self, t: Table, options) -> tuple:
        """(sale or None, g): the sale D6 makes from ``options``; None when declined."""
        sale, g = pick_sale(t.rules, options, self.sale_allowed(t))
        if sale is None or g <= self.sale_floor(t) + TOL:
            return None, 0.0
        return sale, g

    def sale_value(self, t: Table, seat: int, h: Holding, combos: tuple) -> float:
        """The gain of the sale this policy would make on a sale action (0 if none)."""
        options = sale_options(t.rules, h.hand[:4], h.hand[JOKER] + h.treasures[T_JOKER],
                               h.ice, combos)
        if combos != COMBOS and not t.rules.sale_optional and options:
            return pick_sale(t.rules, options)[1]  # a Fish Market sale that must be made
        return self.chosen_sale(t, options)[1]

    # ------------------------------------------------------------ what an action is worth

    def display_value(self, t: Table, seat: int, h: Holding, index: int) -> float | None:
        """Phi gain of buying display card ``index`` (None if unaffordable)."""
        colour = t.display[index]
        if colour is None:
            return None
        ice, money = t.rules.price(colour)
        if h.ice < ice or h.money < money:
            return None
        return self.gain(t, h, h.plus(ice=-ice, money=-money, colour=colour))

    def ice_share(self, t: Table, h: Holding, position: int, n: int) -> float:
        """E[Phi gain] at ``position`` of an Ice Factory with ``n`` pawns."""
        gifts = t.rules.ice_factory_gifts
        base = self.phi(t, h)
        acc, weights = 0.0, 0
        for roll, w in t.rules.ice_rolls():
            supply = t.supply
            mine = 0
            for q in range(1, n + 1):
                got = min(gifts[2 * (q - 1)], supply)
                supply -= got
                if q == position:
                    mine += got
            given = 0
            while given < roll and supply > 0:
                if given % n + 1 == position:
                    mine += 1
                supply -= 1
                given += 1
            money = gifts[2 * (position - 1) + 1]
            acc += w * (self.phi(t, h.plus(ice=mine, money=money)) - base)
            weights += w
        return acc / weights

    def treasure_chance(self, t: Table, position: int) -> float:
        """P(a treasure) at ``position`` over the 36 rolls (A, B)."""
        rules = t.rules
        threshold = rules.treasure_thresholds[position - 1]
        mode = rules.treasure_roll_mode
        hits = 0
        for a in range(1, 7):
            for b in range(1, 7):
                hits += (a > threshold if mode == "die_a" else max(a, b) > threshold
                         if mode == "max_of_two" else a + b > 2 * threshold)
        return hits / 36.0

    def action_value(self, t: Table, seat: int, h: Holding, box: int, slot: int,
                     position: int, n_ice: int) -> float:
        """E[Phi gain] of a pawn on (box, slot) at ``position`` (sale actions: the gain of
        the sale made; Subvention 1; a Mutiny space its PV and $)."""
        rules = t.rules
        if box == IF:
            free = min(rules.if_ice_gift[position - 1], t.supply)
            h1 = h.plus(ice=free)
            value = self.gain(t, h, h1)
            price = rules.if_prices[position - 1]
            if h1.money >= price and blind_available(t):
                e = self.blind_value(t, seat, h1)
                cost = self.price_cost(t, h1.money, price)
                if e > cost + TOL:
                    value += e - cost
            return value
        if box == SF:
            if slot == NO_SLOT:
                return self.blind_value(t, seat, h) if blind_available(t) else 0.0
            value = self.display_value(t, seat, h, slot)
            if value is None:
                return 0.0
            return value if rules.sf_buy_mandatory else max(value, 0.0)
        if box == ICE:
            return self.ice_share(t, h, position, n_ice)
        if box == TR:
            free = min(rules.treasure_ice_gift[position - 1], t.supply)
            h1 = h.plus(ice=free)
            value = self.gain(t, h, h1)
            value += self.treasure_chance(t, position) * self.treasure_value(t, seat, h1)
            if position == 1 and rules.treasure_captain_coin:
                value += COIN_PAIRS / 36.0 * self.money_gain(t, h1.money, 1)
            return value
        if box == FM:
            return self.sale_value(t, seat, h, (slot,))
        if box == SO:
            value = self.offer_value(t, seat, h, slot)
            return value + SO_LAST_PV if position == 5 else value
        if box == SUB:
            return self.sub_value(t, h)
        return self.mutiny_value(t, h, slot)

    def offer_value(self, t: Table, seat: int, h: Holding, offer: int) -> float:
        if offer == SO_2PV:
            if h.money < SO_2PV_PRICE:
                return 0.0
            return self.gain(t, h, h.plus(pv=SO_2PV_GAIN, money=-SO_2PV_PRICE))
        if offer == SO_FISHING:
            best = self.best_display(t, seat, h)[1]
            blind = self.blind_value(t, seat, h) if blind_available(t) else 0.0
            return blind if best is None or blind > best + TOL else best
        if offer == SO_ICE:
            return self.gain(t, h, h.plus(ice=1)) if t.supply > 0 else 0.0
        if offer == SO_TREASURE:
            return self.treasure_value(t, seat, h)
        assert offer == SO_MARKET
        return self.sale_value(t, seat, h, COMBOS)

    def best_display(self, t: Table, seat: int, h: Holding) -> tuple:
        """(index, gain) of the best affordable, unreserved display card; ties to the lowest."""
        best, best_v = None, None
        taken = reserved(t)
        for i in range(len(t.display)):
            if i in taken:
                continue
            v = self.display_value(t, seat, h, i)
            if v is not None and (best_v is None or v > best_v + TOL):
                best, best_v = i, v
        return best, best_v

    def mutiny_value(self, t: Table, h: Holding, m: int) -> float:
        money = MUTINY_ZERO_MONEY if m == 0 else -m
        return t.rules.mutiny_pv[m] + self.money_gain(t, h.money, money)

    def bonus(self, t: Table) -> float:
        return 0.0 if t.phase == LAST_CAPTAIN else self.captain_bonus

    def scan(self, options, values) -> tuple:
        """The first option of the largest value (strictly better by more than TOL)."""
        best, best_v = None, None
        for option, v in zip(options, values, strict=True):
            if best is None or v > best_v + TOL:
                best, best_v = option, v
        return best

    def value_of(self, t, seat, box, slot, n_ice, h=None) -> float:
        h = holding(t, seat) if h is None else h
        position = len(t.in_box(box)) + 1
        return self.action_value(t, seat, h, box, slot, position, n_ice)

    # ------------------------------------------------------------ D1, D2, D9

    def option_values(self, t: Table, seat: int, options: list, decision: str) -> list:
        """Greedy's value of each option of D1 ('captain_action'), D2 ('follower_choice') or
        D9 ('free_round_choice'): the action's Phi gain at the position the pawn would get
        (D1: position 1 with every follower in an Ice Factory; D2 and D9: with every player
        still to place there), plus the captain bonus on a D2 Mutiny space."""
        h = holding(t, seat)
        if decision == "captain_action":
            return [self.action_value(t, seat, h, box, slot, 1, t.players)
                    for box, slot in options]
        values = []
        for box, slot in options:
            n_ice = len(t.in_box(box)) + 1 + self.still_to_place(t)
            v = self.value_of(t, seat, box, slot, n_ice, h)
            values.append(v + self.bonus(t) if box == MUT and decision == "follower_choice"
                          else v)
        return values

    def still_to_place(self, t: Table) -> int:
        return t.players - len(t.pawns) - 1

    def captain_action(self, t: Table, seat: int, options: list):
        return self.scan(options, self.option_values(t, seat, options, "captain_action"))

    def follower_choice(self, t: Table, seat: int, options: list):
        return self.scan(options, self.option_values(t, seat, options, "follower_choice"))

    def free_round_choice(self, t: Table, seat: int, options: list):
        return self.scan(options, self.option_values(t, seat, options, "free_round_choice"))

    # ------------------------------------------------------------ D3-D8

    def if_buy(self, t, seat, price) -> bool:
        h = holding(t, seat)
        return self.blind_value(t, seat, h) > self.price_cost(t, h.money, price) + TOL

    def if_keep(self, t, seat, colour, price) -> bool:
        h = holding(t, seat)  # the price is paid: keeping forgoes its refund
        return self.gain(t, h, h.plus(colour=colour)) > self.money_gain(t, h.money, price) + TOL

    def sf_buy(self, t, seat, index) -> bool:
        v = self.display_value(t, seat, holding(t, seat), index)
        return v is not None and v > TOL

    def sub_money(self, t, seat) -> bool:
        p = t.seats[seat]
        return p.money == 0 or (p.money < 2 and p.treasures[T_4PV_FOR_4] > 0)

    def sale(self, t, seat, options, optional):
        if not optional:
            return pick_sale(t.rules, options)[0]
        return self.chosen_sale(t, options)[0]

    def so_fishing(self, t, seat, options):
        h = holding(t, seat)
        best, best_v = None, None
        for i in options:
            if i == BLIND:
                continue
            v = self.display_value(t, seat, h, i)
            if best_v is None or v > best_v + TOL:
                best, best_v = i, v
        blind = self.blind_value(t, seat, h) if blind_available(t) else 0.0
        return BLIND if best is None or blind > best_v + TOL else best

    def use_treasures(self, t, seat, offered) -> list:
        """T_ICE when the icons in hand exceed the ice (not in the free round), T_MARKET
        for a sale worth 1, T_4PV_FOR_4 with the reserve, simple ones always; read once."""
        p = t.seats[seat]
        rules = t.rules
        use = []
        if T_ICE in offered and t.phase != FREE:
            icons = sum(p.hand[c] * rules.icons(c) for c in range(5)) + \
                p.treasures[T_JOKER] * rules.icons(JOKER)
            if min(rules.market_ice_cap, icons) > p.ice:
                use.append(T_ICE)
        if T_MARKET in offered:
            h = holding(t, seat)
            if self.sale_value(t, seat, h, COMBOS) >= 1.0 - TOL:
                use.append(T_MARKET)
        if T_4PV_FOR_4 in offered and p.money >= FOUR_PV_PRICE + self.money_reserve:
            use.append(T_4PV_FOR_4)
        use += [kind for kind in offered if kind not in (T_ICE, T_MARKET, T_4PV_FOR_4)]
        return use


# ================================================================ planner


class PlannerPolicy(GreedyPolicy):
    """Greedy with Captain denial, mutiny timing, a sale floor and an ice target (§6.1)."""

    def __init__(self, lam: float = _PLANNER("lam"),
                 captain_bonus: float = _PLANNER("captain_bonus"),
                 captain_bonus_late: float = _PLANNER("captain_bonus_late"),
                 margin: float = _PLANNER("margin"), sell_floor: float = _PLANNER("sell_floor"),
                 ice_target_slack: float = _PLANNER("ice_target_slack"),
                 money_reserve: float = _PLANNER("money_reserve")):
        super().__init__(captain_bonus, money_reserve)
        self.lam = lam
        self.captain_bonus_late = captain_bonus_late
        self.margin = margin
        self.sell_floor = sell_floor
        self.ice_target_slack = ice_target_slack

    def sale_terms(self, t: Table, h: Holding) -> tuple[float, float]:
        """0.75 min(ice, T) - max(0, ice - T) and the best sale gain less its ice, with
        T = min(cap, icons in hand) + slack (at least 0)."""
        if t.phase == FREE and not h.treasures[T_MARKET]:
            return -float(h.ice), 0.0
        rules = t.rules
        jokers = h.hand[JOKER] + h.treasures[T_JOKER]
        sale, g = best_sale(rules, h.hand[:4], jokers, h.ice)
        icons = sum(h.hand[c] * rules.icons(c) for c in range(4)) + jokers * rules.icons(JOKER)
        target = max(0, min(rules.market_ice_cap, icons) + int(self.ice_target_slack))
        ice_term = 0.75 * min(h.ice, target) - max(0, h.ice - target)
        if sale is None or g <= 0.0:
            return ice_term, 0.0
        return ice_term, g - sale.x

    def sale_allowed(self, t: Table):
        if t.phase != NORMAL:
            return None
        rules = t.rules
        return lambda s: rules.market_price(s.combo, s.x) >= self.sell_floor or s.x >= 2

    def bonus(self, t: Table) -> float:
        if t.phase == LAST_CAPTAIN:
            return 0.0
        if t.marker <= t.rules.num_mutinies - 2:
            return self.captain_bonus
        return self.captain_bonus_late

    def captain_action(self, t: Table, seat: int, options: list):
        P = t.players
        h = holding(t, seat)
        followers = [(seat + i) % P for i in range(1, P)]
        held = [holding(t, f) for f in followers]
        values = []
        for box, slot in options:
            own = self.action_value(t, seat, h, box, slot, 1, P)
            denied = 0.0
            for i, (f, hf) in enumerate(zip(followers, held, strict=True)):
                slots = [s for s in join_slots(t, box, i + 2) if s == NO_SLOT or s != slot]
                best = None
                for s in slots:
                    v = self.action_value(t, f, hf, box, s, i + 2, P)
                    if best is None or v > best + TOL:
                        best = v
                if best is not None:
                    denied += max(0.0, best - SUB_VALUE)
            values.append(own - self.lam * (denied / len(followers)))
        return self.scan(options, values)

    def follower_choice(self, t: Table, seat: int, options: list):
        """Mutiny by the margin over the better of JOIN and Subvention; else JOIN if worth a
        Subvention; else Subvention. Only what ``options`` holds competes (a seat's
        restriction may keep no Subvention, or only Mutiny spaces)."""
        h = holding(t, seat)
        join, join_v, mut, mut_v = None, None, None, None
        sub = (SUB, NO_SLOT) in options
        for box, slot in options:
            if box == SUB:
                continue
            n_ice = len(t.in_box(box)) + 1 + self.still_to_place(t)
            v = self.value_of(t, seat, box, slot, n_ice, h)
            if box == MUT:
                if mut is None or v > mut_v + TOL:
                    mut, mut_v = (box, slot), v
            elif join is None or v > join_v + TOL:
                join, join_v = (box, slot), v
        rivals = ([join_v] if join is not None else []) + ([SUB_VALUE] if sub else [])
        if mut is not None and (not rivals or
                                mut_v + self.bonus(t) >= max(rivals) + self.margin - TOL):
            return mut
        if join is not None and (not sub or join_v >= SUB_VALUE - TOL):
            return join
        return (SUB, NO_SLOT)


# ================================================================ heuristic

_HEURISTIC = POLICIES["heuristic"].default


class HeuristicPolicy(GreedyPolicy):
    """Greedy's one-step choices under a weighted valuation (declared feature weights).

    Phi_H (normal and last-Captain rounds; the free round is valued as greedy values it, the
    end's true worth) adds, in this order::

        PV
        + money_value($)        = w_money $ + w_cash min($, cash_target)
        + w_fish fish
        - w_ice ice
        - ice_excess max(0, ice - min(market_ice_cap, icons in hand incl. joker treasures))
        + w_sale best sale gain (if positive)
        + w_treasure sum of tv over held treasures

    Every $ paid or gained in an action (a blind fish's price, a mutiny's price, the
    Captain's coin, a replaced treasure's 1$, Subvention's 1$) is valued by the change of
    money_value (0.5 a $ in the free round); Subvention is the better of its 1 PV and its
    1$, and D5 takes the $ when it is worth more than the PV (or when greedy would). A
    treasure to come is worth w_treasure x the mean tv unseen (replaced: 1 PV + its 1$).
    A sale is made (and a sale action valued) only for a gain above ``sell_min`` in normal
    rounds (0 later). A follower's Mutiny gets the captain bonus of the stage (early while
    treasures are replaced, late in the last P mutinies, 0 in the last Captain round)
    plus ``mutiny_denial`` per follower still to choose. The Captain's options lose
    ``lam`` x what they leave the joiner, the first follower expected to join (the first
    who can pay a mutiny is expected to mutiny): its best JOIN gain at position 2 above
    its Subvention (``captain_action``). At the defaults every choice is greedy's. Draws
    nothing.
    """

    def __init__(self, w_money: float = _HEURISTIC("w_money"),
                 w_cash: float = _HEURISTIC("w_cash"),
                 cash_target: float = _HEURISTIC("cash_target"),
                 w_fish: float = _HEURISTIC("w_fish"), w_ice: float = _HEURISTIC("w_ice"),
                 ice_excess: float = _HEURISTIC("ice_excess"),
                 w_sale: float = _HEURISTIC("w_sale"),
                 w_treasure: float = _HEURISTIC("w_treasure"),
                 sell_min: float = _HEURISTIC("sell_min"),
                 captain_bonus: float = _HEURISTIC("captain_bonus"),
                 captain_bonus_early: float = _HEURISTIC("captain_bonus_early"),
                 captain_bonus_late: float = _HEURISTIC("captain_bonus_late"),
                 mutiny_denial: float = _HEURISTIC("mutiny_denial"),
                 lam: float = _HEURISTIC("lam"),
                 money_reserve: float = _HEURISTIC("money_reserve")):
        super().__init__(captain_bonus, money_reserve)
        self.w_money = w_money
        self.w_cash = w_cash
        self.cash_target = cash_target
        self.w_fish = w_fish
        self.w_ice = w_ice
        self.ice_excess = ice_excess
        self.w_sale = w_sale
        self.w_treasure = w_treasure
        self.sell_min = sell_min
        self.captain_bonus_early = captain_bonus_early
        self.captain_bonus_late = captain_bonus_late
        self.mutiny_denial = mutiny_denial
        self.lam = lam

    # ------------------------------------------------------------ the valuation

    def money_value(self, money) -> float:
        value = self.w_money * money
        value += self.w_cash * min(money, self.cash_target)
        return value

    def money_gain(self, t: Table, money: int, d: int) -> float:
        if t.phase == FREE:
            return 0.5 * d
        return self.money_value(money + d) - self.money_value(money)

    def phi(self, t: Table, h: Holding) -> float:
        if t.phase == FREE:
            return super().phi(t, h)
        rules = t.rules
        jokers = h.hand[JOKER] + h.treasures[T_JOKER]
        value = float(h.pv)
        value += self.money_value(h.money)
        value += self.w_fish * sum(h.hand)
        value -= self.w_ice * h.ice
        icons = sum(h.hand[c] * rules.icons(c) for c in range(4)) + jokers * rules.icons(JOKER)
        value -= self.ice_excess * max(0, h.ice - min(rules.market_ice_cap, icons))
        _, g = best_sale(rules, h.hand[:4], jokers, h.ice)
        if g > 0:
            value += self.w_sale * g
        tv = 0.0
        for kind, n in enumerate(h.treasures):
            if n:
                one = TREASURE_VALUE[kind]
                if kind == T_4PV_FOR_4 and h.money < FOUR_PV_PRICE:
                    one = FOUR_PV_UNAFFORDABLE_VALUE
                tv += n * one
        value += self.w_treasure * tv
        return value

    def treasure_value(self, t: Table, seat: int, h: Holding) -> float:
        if t.phase == FREE:
            return super().treasure_value(t, seat, h)
        replaced = MODIFIED_PV + self.money_gain(t, h.money, MODIFIED_MONEY)
        if t.modified:
            return replaced
        unseen = t.unseen_treasures(seat)
        total = unseen_total(unseen)
        if total <= 0:
            return replaced
        acc = 0.0
        for kind, n in enumerate(unseen):
            if n > 0:
                tv = TREASURE_VALUE[kind]
                if kind == T_4PV_FOR_4 and h.money < FOUR_PV_PRICE:
                    tv = FOUR_PV_UNAFFORDABLE_VALUE
                acc += n * tv
        return self.w_treasure * (acc / total)

    def sub_value(self, t: Table, h: Holding) -> float:
        return max(SUB_VALUE, self.money_gain(t, h.money, 1))

    def sale_floor(self, t: Table) -> float:
        return self.sell_min if t.phase == NORMAL else 0.0

    # ------------------------------------------------------------ choices

    def bonus(self, t: Table) -> float:
        """The Mutiny's bonus for the follower about to choose."""
        if t.phase == LAST_CAPTAIN:
            stage = 0.0
        elif t.marker >= t.rules.num_mutinies - t.players:
            stage = self.captain_bonus_late
        elif t.marker < t.rules.treasure_modified_until_marker:
            stage = self.captain_bonus_early
        else:
            stage = self.captain_bonus
        return stage + self.mutiny_denial * self.still_to_place(t)

    def joiner(self, t: Table, seat: int) -> int:
        """The first of Captain ``seat``'s followers expected to join the action: the
        followers clockwise but the first who can pay a Mutiny (1$), who is expected to
        mutiny, when a mutiny may be taken this round."""
        P = t.players
        followers = [(seat + i) % P for i in range(1, P)]
        if not (t.phase == LAST_CAPTAIN and t.rules.last_captain_mutiny == "forbidden"):
            for f in followers:
                if t.seats[f].money >= 1:
                    followers.remove(f)
                    break
        return followers[0]

    def captain_action(self, t: Table, seat: int, options: list):
        """Greedy's when lam = 0; else each option's own gain less lam x what it leaves the
        joiner: its best JOIN gain at position 2 (the Captain's slot taken where slots are
        exclusive; an exact maximum) above its Subvention, valued with this policy's
        weights on the joiner's holding."""
        if self.lam == 0:
            return super().captain_action(t, seat, options)
        P = t.players
        h = holding(t, seat)
        f = self.joiner(t, seat)
        hf = holding(t, f)
        sub = self.sub_value(t, hf)
        joins = {box: [(s, self.action_value(t, f, hf, box, s, 2, P))
                       for s in join_slots(t, box, 2)]
                 for box in dict.fromkeys(box for box, _ in options)}
        values = []
        for box, slot in options:
            own = self.action_value(t, seat, h, box, slot, 1, P)
            exclusive = box in (SF, SO) or (box == FM and t.rules.market_slots_exclusive)
            left = [v for s, v in joins[box] if not (exclusive and s != NO_SLOT and s == slot)]
            denied = max(0.0, max(left) - sub) if left else 0.0
            values.append(own - self.lam * denied)
        return self.scan(options, values)

    def sub_money(self, t, seat) -> bool:
        p = t.seats[seat]
        return super().sub_money(t, seat) or self.money_gain(t, p.money, 1) > SUB_VALUE + TOL


# ================================================================ rollout


class RolloutPolicy:
    """Flat Monte Carlo over D1, D2 and D9 on top of a base policy; the base's choice elsewhere.

    The base (``base``: ``greedy`` at its declared defaults, or ``expert``, the trained
    heuristic; ``Policy.base`` brings it resolved) makes every other decision of the seat
    (D3-D8), ranks the options and plays every seat of every playout. At a D1, D2 or D9
    with two or more options: the base's values of the options (``option_values``: its
    one-step valuation at the position the pawn would get, with its Mutiny bonus; a
    heuristic's Captain denial ``lam`` is not in them, and the expert's is 0) pick the
    ``width`` largest (ties to the earlier option); ``samples`` words are drawn from the
    seat's stream (``next_u64``), one per playout; each candidate, in option order, is
    played out once per word: the table is cloned, the playout's world is ``Rng(word, 0,
    0)``, the hidden cards are re-dealt from it (``resample``), the candidate is placed and
    the game is finished with every seat the base policy. A playout is worth ``win +
    score_weight * (own PV - best other PV)``; the candidate with the largest sum over the
    words wins (in option order, better by more than 1e-9), the base's best option (the
    first of the largest values) starting its sum at ``prior * samples``. The same words serve every
    candidate: common random numbers. The base draws nothing (greedy and the heuristic do
    not), so the playouts need no seat streams.
    """

    def __init__(self, rng: Rng, samples: float = POLICIES["rollout"].default("samples"),
                 width: float = POLICIES["rollout"].default("width"),
                 score_weight: float = POLICIES["rollout"].default("score_weight"),
                 prior: float = POLICIES["rollout"].default("prior"),
                 base: float = POLICIES["rollout"].default("base"), playout=None):
        self.rng = rng
        self.samples = int(samples)
        self.width = int(width)
        self.score_weight = score_weight
        self.prior = prior
        # the declared base Policy (engines._game.Policy.base); None: greedy at its defaults
        if playout is None and base != 0:
            raise ValueError("a rollout over a base other than greedy needs its resolved "
                             "Policy (GameInfo.declared)")
        self.playout_policy = playout
        self.base = self.player()

    def player(self):
        """A fresh decision maker of the base policy (one per seat of a playout)."""
        if self.playout_policy is None:
            return GreedyPolicy()
        return build(self.playout_policy, None)

    def candidates(self, values: list) -> list:
        """Indices of the ``width`` largest values, ties to the earlier, in option order."""
        ranked = sorted(range(len(values)), key=lambda i: -values[i])
        return sorted(ranked[:self.width])

    def decide(self, t: Table, seat: int, options: list, decision: str):
        values = self.base.option_values(t, seat, options, decision)
        chosen = self.candidates(values)
        if len(chosen) == 1:
            return options[chosen[0]]
        # flat_monte_carlo's draws and order, the base's best option starting at
        # prior x samples (the first of the largest values)
        top = min(range(len(values)), key=lambda i: (-values[i], i))
        words = [self.rng.next_u64() for _ in range(self.samples)]
        best, best_total = None, None
        for i in chosen:
            total = self.prior * self.samples if i == top else 0.0
            for word in words:
                total += self.playout(t, seat, options[i], decision, word)
            if best is None or total > best_total + TOL:
                best, best_total = i, total
        return options[best]

    def playout(self, t: Table, seat: int, option, decision: str, word: int) -> float:
        """One game finished from here after ``option``, every seat the base: its worth."""
        world = Rng(word, 0, 0)
        c = clone(t)
        c.world = world
        c.policies = [self.player() for _ in range(t.players)]
        resample(c, seat, world)
        if decision == "captain_action":
            place_captain(c, *option)
            finish_round(c)
            play_on(c)
        elif decision == "follower_choice":
            place(c, seat, *option)
            finish_round(c)
            play_on(c)
        else:
            place(c, seat, *option)
            finish_free_round(c)
            finish_game(c)
        best_other = max(p.pv for p in c.seats if p.seat != seat)
        return c.win[seat] + self.score_weight * (c.seats[seat].pv - best_other)

    def captain_action(self, t, seat, options):
        return self.decide(t, seat, options, "captain_action")

    def follower_choice(self, t, seat, options):
        return self.decide(t, seat, options, "follower_choice")

    def free_round_choice(self, t, seat, options):
        return self.decide(t, seat, options, "free_round_choice")

    # D3-D8: the base's choices
    def if_buy(self, t, seat, price):
        return self.base.if_buy(t, seat, price)

    def if_keep(self, t, seat, colour, price):
        return self.base.if_keep(t, seat, colour, price)

    def sf_buy(self, t, seat, index):
        return self.base.sf_buy(t, seat, index)

    def sub_money(self, t, seat):
        return self.base.sub_money(t, seat)

    def sale(self, t, seat, options, optional):
        return self.base.sale(t, seat, options, optional)

    def so_fishing(self, t, seat, options):
        return self.base.so_fishing(t, seat, options)

    def use_treasures(self, t, seat, offered):
        return self.base.use_treasures(t, seat, offered)


def resample(t: Table, seat: int, rng: Rng) -> None:
    """Re-deal what ``seat`` cannot see, consistently with what it can (spec §6).

    Fish: the cards ``seat`` has not seen (the deck less its hand, the display,
    the discard and the cards others are known to hold; with public hands: the
    two face-down piles), as colour codes in colour order, are shuffled; each
    other player, in seat order, gets its unknown cards from the front (its
    known cards stay), then the Indiscriminate pile and the shoal, in their
    sizes. Treasures likewise: the composition less the discard and ``seat``'s
    own (public hands: the deck alone), shuffled; others' treasures in seat
    order, then the deck.
    """
    rules = t.rules
    others = [p for p in t.seats if p.seat != seat]
    hidden = rules.hidden_hands
    if hidden:
        pool = t.unseen_fish(seat)
        for p in others:
            for c in range(5):
                pool[c] -= p.known[c]
    else:
        pool = [0] * 5
        for c in t.ifp + t.shoal:
            pool[c] += 1
    cards = [c for c in range(5) for _ in range(pool[c])]
    rng.shuffle(cards)
    at = 0
    if hidden:
        for p in others:
            hand = list(p.known)
            for _ in range(p.fish - sum(p.known)):
                hand[cards[at]] += 1
                at += 1
            p.hand = hand
    t.ifp, t.shoal = cards[at:at + len(t.ifp)], cards[at + len(t.ifp):]
    assert len(t.shoal) == len(cards) - at - len(t.ifp)
    if hidden:
        pool = t.unseen_treasures(seat)
    else:
        pool = [0] * 7
        for k in t.tdeck:
            pool[k] += 1
    deck = [k for k in range(7) for _ in range(pool[k])]
    rng.shuffle(deck)
    at = 0
    if hidden:
        for p in others:
            held = [0] * 7
            for _ in range(sum(p.treasures)):
                held[deck[at]] += 1
                at += 1
            p.treasures = held
    t.tdeck = deck[at:]


# ================================================================ building them


def build(policy, rng: Rng):
    """The reference decision maker for a declared ``Policy`` (engines._game.Policy)."""
    return BUILDERS[policy.name](policy, rng)


# policy name -> its decision maker, from the declared parameters and the seat's stream
BUILDERS = {
    "random": lambda policy, rng: RandomPolicy(rng),
    "greedy": lambda policy, rng: GreedyPolicy(**policy.params()),
    "planner": lambda policy, rng: PlannerPolicy(**policy.params()),
    "rollout": lambda policy, rng: RolloutPolicy(rng, **policy.params(), playout=policy.base),
    "heuristic": lambda policy, rng: HeuristicPolicy(**policy.params()),
}

__all__ = ["GreedyPolicy", "HeuristicPolicy", "PlannerPolicy", "RandomPolicy", "RolloutPolicy", "build",
           "resample"]
