"""21 Motines against its spec (shared/rules/motines.md): the worked examples E1-E15 of §9,
the tables of §2, the set-up of §3, the feasibility helpers and sale options of §6 against
brute force, the player count, rule options and presets of §7.

Each example is played on a constructed table: ``World`` deals the dice it is given and
never shuffles (it counts shuffles), so every card comes off a pile whose order the test
wrote; ``Script`` is a decision maker that answers each question from the test's script
(an unexpected question fails the test).
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engines._rng import WORLD, Rng
from engines._rules import RulesError
from engines.motines import GAME
from engines.motines import reference as ref
from engines.motines.data import (
    ANY2,
    ANY3,
    ANY4,
    BLUE,
    COMBO_CARDS,
    COMBOS,
    FM,
    GIFT_MONEY,
    GIFT_TREASURE,
    ICE,
    IF,
    JOKER,
    MUT,
    NATURALS,
    PURPLE,
    RED,
    SAME3,
    SAME4,
    SF,
    SO,
    SO_2PV,
    SO_FISHING,
    SO_ICE,
    SO_MARKET,
    SO_TREASURE,
    SUB,
    T_2PV,
    T_4PV_FOR_4,
    T_FISH,
    T_ICE,
    T_JOKER,
    T_MARKET,
    TR,
    TWOPAIRS,
    YELLOW,
)
from engines.motines.reference import NO_SLOT, Pawn, Sale
from engines.motines.rules import Rules
from reports.cli import main

R_, B_, P_, Y_, J_ = RED, BLUE, PURPLE, YELLOW, JOKER

# ---------------------------------------------------------------- scripted tables


class World:
    """Scripted dice and below(); shuffles leave the order alone and are counted."""

    def __init__(self, dice=(), below=()):
        self.dice_left = list(dice)
        self.below_left = list(below)
        self.shuffles = 0

    def dice(self, sides=6):
        assert sides == 6
        return self.dice_left.pop(0)

    def below(self, n):
        return self.below_left.pop(0)

    def shuffle(self, items):
        self.shuffles += 1


class Script:
    """A decision maker answering from a script: per decision a constant, a queue (list) or
    a callable taking the decision's arguments. Every question is recorded in ``asked``."""

    def __init__(self, **answers):
        self.answers = answers
        self.answers.setdefault("use_treasures", lambda t, seat, offered: [])
        self.asked = []

    def _answer(self, name, *args):
        self.asked.append((name, args[1:]))
        if name not in self.answers:
            raise AssertionError(f"unexpected question {name}{args[1:]}")
        a = self.answers[name]
        if callable(a):
            return a(*args)
        if isinstance(a, list):
            return a.pop(0)
        return a

    def __getattr__(self, name):
        if name.startswith("_") or name in ("answers", "asked"):
            raise AttributeError(name)
        return lambda *args: self._answer(name, *args)


def table(players=4, rules=None, policies=None, dice=(), display=None, ifp=(), shoal=(),
          tdeck=(), money=4, ice=0, supply=None, marker=5):
    """A table with empty hands, ``money`` $ and ``ice`` ice each, the given piles, marker at 5
    (treasures real) unless told, Captain seat 0."""
    rules = rules or Rules()
    seats = [ref.Player(seat=s, money=money, ice=ice) for s in range(players)]
    d = rules.display_size(players)
    t = ref.Table(rules=rules, players=players, seats=seats,
                  supply=rules.ice_supply - ice * players if supply is None else supply,
                  display=list(display) if display is not None else [R_] * d,
                  ifp=list(ifp), shoal=list(shoal))
    t.tdeck = list(tdeck)
    t.marker = marker
    t.world = World(dice)
    t.policies = policies or [Script() for _ in range(players)]
    return t


def give(t, seat, hand=(0, 0, 0, 0, 0), treasures=(), **values):
    p = t.seats[seat]
    p.hand = list(hand)
    for k in treasures:
        p.treasures[k] += 1
    for key, v in values.items():
        setattr(p, key, v)
    return p


def pick(sale):
    """A D6 answer: assert ``sale`` is offered and take it."""
    def answer(t, seat, options, optional):
        assert sale in options
        return sale
    return answer


def join(box, slot=NO_SLOT):
    """A D2 answer: assert JOIN (box, slot) is offered and take it."""
    def answer(t, seat, options):
        assert (box, slot) in options
        return (box, slot)
    return answer


# ================================================================ §9 E1-E4: sales


def test_e1_two_pairs_with_four_ice_is_24():
    pol = Script()
    t = table(policies=[Script(), pol, Script(), Script()])
    p = give(t, 1, hand=(2, 0, 2, 1, 0), ice=5, money=4)
    supply = t.supply
    rrpp = [s for s in ref.sales_for(t, 1, (TWOPAIRS,)) if s.counts == (2, 0, 2, 0, 0)]
    assert [s.x for s in rrpp] == [0, 1, 2, 3, 4]  # icons 1+1+2+2 = 6, ice 5: x <= 4
    assert t.rules.market_price(TWOPAIRS, 4) == 24
    pol.answers["sale"] = pick(Sale(TWOPAIRS, (2, 0, 2, 0, 0), 4))
    ref.fish_market(t, Pawn(1, FM, TWOPAIRS, 2))
    assert (p.money, p.ice, t.supply) == (4 + 24, 1, supply + 4)
    assert p.hand == [0, 0, 0, 1, 0] and sorted(t.discard) == [R_, R_, P_, P_]
    assert p.sales == 1


def test_e2_any_two_without_icons_is_3():
    pol = Script()
    t = table(policies=[pol, Script(), Script(), Script()])
    p = give(t, 0, hand=(0, 0, 0, 2, 0), ice=3, money=0)
    assert ref.sales_for(t, 0, (ANY2,)) == (Sale(ANY2, (0, 0, 0, 2, 0), 0),)
    pol.answers["sale"] = pick(Sale(ANY2, (0, 0, 0, 2, 0), 0))
    ref.fish_market(t, Pawn(0, FM, ANY2, 1))
    assert (p.money, p.ice, p.fish) == (3, 3, 0)


@pytest.mark.parametrize("joker_as", ["card", "treasure"])
def test_e3_three_of_a_colour_with_a_joker_is_10(joker_as):
    pol = Script()
    t = table(policies=[pol, Script(), Script(), Script()])
    if joker_as == "card":
        p = give(t, 0, hand=(0, 2, 0, 0, 1), ice=2, money=0)
    else:
        p = give(t, 0, hand=(0, 2, 0, 0, 0), treasures=(T_JOKER,), ice=2, money=0)
    options = ref.sales_for(t, 0, (SAME3,))
    assert options == tuple(Sale(SAME3, (0, 2, 0, 0, 1), x) for x in range(3))  # icons 3, ice 2
    pol.answers["sale"] = pick(options[-1])
    ref.fish_market(t, Pawn(0, FM, SAME3, 1))
    assert (p.money, p.ice, p.fish, sum(p.treasures)) == (10, 0, 0, 0)
    if joker_as == "card":
        assert sorted(t.discard) == [B_, B_, J_] and t.tdiscard[T_JOKER] == 0
    else:
        assert sorted(t.discard) == [B_, B_] and t.tdiscard[T_JOKER] == 1


def test_joker_cards_are_used_before_joker_treasures():
    t = table()
    p = give(t, 0, hand=(0, 1, 0, 0, 1), treasures=(T_JOKER,), ice=0, money=0)
    assert p.jokers() == 2
    ref.make_sale(t, 0, Sale(SAME3, (0, 1, 0, 0, 2), 0), "test")
    assert p.hand == [0] * 5 and p.treasures[T_JOKER] == 0
    assert sorted(t.discard) == [B_, J_] and t.tdiscard[T_JOKER] == 1
    assert p.money == 6


def test_e4_dumping_one_ice_earns_nothing_but_removes_it():
    pol = Script()
    t = table(policies=[pol, Script(), Script(), Script()])
    p = give(t, 0, hand=(2, 2, 0, 0, 0), ice=1, money=0)
    assert [s.x for s in ref.sales_for(t, 0, (TWOPAIRS,))] == [0, 1]
    assert t.rules.market_price(TWOPAIRS, 1) == t.rules.market_price(TWOPAIRS, 0) == 7
    pol.answers["sale"] = pick(Sale(TWOPAIRS, (2, 2, 0, 0, 0), 1))
    ref.fish_market(t, Pawn(0, FM, TWOPAIRS, 1))
    assert (p.money, p.ice) == (7, 0)


def test_a_declined_fish_market_sale_changes_nothing():
    t = table(policies=[Script(sale=None)] + [Script() for _ in range(3)])
    p = give(t, 0, hand=(2, 2, 0, 0, 0), ice=1, money=0)
    ref.fish_market(t, Pawn(0, FM, TWOPAIRS, 1))
    assert (p.money, p.ice, p.hand, p.sales) == (0, 1, [2, 2, 0, 0, 0], 0)


def test_sale_optional_false_forces_the_only_sale():
    t = table(rules=Rules(sale_optional=False))
    p = give(t, 0, hand=(0, 0, 0, 2, 0), ice=0, money=0)
    ref.fish_market(t, Pawn(0, FM, ANY2, 1))   # one option, not optional: nobody is asked
    assert p.money == 3 and t.policies[0].asked == []


# ================================================================ §9 E5-E6: the Ice Factory


def test_e5_ice_factory_with_four_pawns_and_supply_20():
    pols = [Script(captain_action=(ICE, NO_SLOT))] + \
        [Script(follower_choice=join(ICE)) for _ in range(3)]
    t = table(4, policies=pols, dice=[4], ice=0, supply=20)
    ref.play_round(t)
    assert [p.ice for p in t.seats] == [3, 2, 1, 1]
    assert [p.money for p in t.seats] == [4, 4, 4, 5]
    assert t.supply == 20 - 1 - 6
    assert t.world.dice_left == []
    assert (t.previous_action, t.captain, t.marker, t.round) == (ICE, 0, 5, 1)


def test_e6_ice_factory_stops_when_the_supply_runs_out():
    t = table(3, dice=[6], ice=0, supply=3)
    pawns = [ref.place(t, 0, ICE, NO_SLOT), ref.place(t, 1, ICE, NO_SLOT)]
    ref.resolve_box(t, ICE, pawns)
    assert [p.ice for p in t.seats] == [2, 1, 0] and t.supply == 0


def test_ice_factory_fifth_position_gets_2_money():
    t = table(5, dice=[1], ice=0, supply=20)
    pawns = [ref.place(t, s, ICE, NO_SLOT) for s in range(5)]
    ref.resolve_box(t, ICE, pawns)   # N = 3: positions 1, 2, 3
    assert [p.ice for p in t.seats] == [2, 1, 1, 0, 0]
    assert [p.money for p in t.seats] == [4, 4, 4, 5, 6]


# ================================================================ §9 E7-E8: Treasures


def test_e7_treasures_while_modified():
    t = table(4, dice=[4, 1, 2, 6, 5, 2, 4, 3], tdeck=[T_2PV, T_MARKET], marker=3)
    pawns = [ref.place(t, s, TR, NO_SLOT) for s in range(4)]
    ref.resolve_box(t, TR, pawns)
    assert [(p.money, p.pv, p.ice) for p in t.seats] == [(5, 1, 0), (4, 0, 0), (5, 1, 0),
                                                        (4, 0, 1)]
    assert t.tdeck == [T_2PV, T_MARKET] and t.world.dice_left == []
    assert all(sum(p.treasures) == 0 for p in t.seats)


def test_e8_treasures_not_modified_draw_a_card_and_the_captains_coin():
    t = table(4, dice=[3, 5], tdeck=[T_JOKER, T_2PV], marker=7)
    ref.resolve_box(t, TR, [ref.place(t, 0, TR, NO_SLOT)])
    p = t.seats[0]
    assert p.treasures[T_JOKER] == 1 and t.tdeck == [T_2PV]
    assert (p.money, p.pv) == (5, 0)


def test_an_empty_treasure_deck_replaces_the_treasure_after_the_marker_too():
    t = table(4, dice=[6, 6], tdeck=[], marker=9)
    ref.resolve_box(t, TR, [ref.place(t, 0, TR, NO_SLOT)])
    assert (t.seats[0].money, t.seats[0].pv) == (4 + 1 + 1, 1)


def test_treasure_thresholds_rise_with_the_position():
    # die A = 5 finds a treasure at positions 1-4 but not at 5 (needs > 5); die B never counts.
    t = table(5, dice=[5, 1] * 5, tdeck=[], marker=0)
    ref.resolve_box(t, TR, [ref.place(t, s, TR, NO_SLOT) for s in range(5)])
    assert [p.pv for p in t.seats] == [1, 1, 1, 1, 0]


# ================================================================ §9 E9: Indiscriminate fishing


def test_e9_indiscriminate_fishing_with_a_return():
    pols = [Script(captain_action=(IF, NO_SLOT), if_buy=False),
            Script(follower_choice=join(IF), if_buy=True, if_keep=False),
            Script(follower_choice=join(IF), if_buy=False),
            Script(follower_choice=join(IF), if_buy=True, if_keep=True),
            Script(follower_choice=join(IF), if_buy=False)]
    t = table(5, policies=pols, ifp=[Y_, P_, R_, B_], ice=0, supply=20)
    ref.play_round(t)
    s = t.seats
    assert [p.money for p in s] == [4, 4, 4, 2, 4]
    assert [p.ice for p in s] == [0, 0, 0, 1, 1]
    assert [p.fish for p in s] == [0, 0, 0, 1, 0] and s[3].hand[P_] == 1
    assert t.ifp == [R_, B_, Y_]             # the yellow went to the bottom
    assert [a for a in pols[1].asked if a[0] == "if_keep"] == [("if_keep", (1, Y_, 1))]
    assert [a for a in pols[3].asked if a[0] == "if_keep"] == [("if_keep", (3, P_, 2))]
    prices = [a[1][1] for pol in pols for a in pol.asked if a[0] == "if_buy"]
    assert prices == [0, 1, 1, 2, 2]


def test_if_buy_is_not_asked_without_the_money():
    t = table(4, policies=[Script() for _ in range(4)], ifp=[Y_], money=1)
    ref.fishing_blind(t, Pawn(3, IF, NO_SLOT, 4))   # 2$ at position 4
    assert t.policies[3].asked == [] and t.seats[3].ice == 1 and t.ifp == [Y_]


# ================================================================ §9 E10, E11: Mutiny, gifts


def test_e10_mutiny_resolves_last_and_takes_the_captaincy():
    pols = [Script(follower_choice=(SUB, NO_SLOT), sub_money=False) for _ in range(4)]
    pols[2].answers["captain_action"] = (SO, SO_ICE)

    def seat3(t, seat, options):
        assert [o for o in options if o[0] == MUT] == [(MUT, m) for m in range(4)]
        return (MUT, 2)

    def after_mut(t, seat, options):
        assert not [o for o in options if o[0] == MUT]   # one mutineer a round
        return (SUB, NO_SLOT)

    pols[3].answers["follower_choice"] = seat3
    pols[0].answers["follower_choice"] = pols[1].answers["follower_choice"] = after_mut
    t = table(4, policies=pols, marker=8, money=5)
    t.captain = 2
    t.log = []
    ref.play_round(t)
    p = t.seats[3]
    assert (p.money, p.pv) == (3, 3)
    assert (t.captain, t.marker, t.mutinies) == (3, 9, 1)
    steps = [line.split()[0:2] for line in t.log
             if "takes the Subvention" in line or "mutinies on space" in line]
    assert steps == [["A", "takes"], ["B", "takes"], ["D", "mutinies"]]   # the mutineer last
    assert (SO, SO_ICE) not in ref.captain_options(t)
    assert {box for box, _ in ref.captain_options(t)} == {IF, SF, ICE, TR, FM}


def test_mutiny_spaces_need_the_money_at_placement():
    t = table(4, money=1)
    t.pawns = [Pawn(0, SO, SO_ICE, 1)]
    assert [o for o in ref.follower_options(t, 1, SO) if o[0] == MUT] == [(MUT, 0), (MUT, 1)]


def test_an_unpayable_mutiny_space_resolves_as_space_0():
    t = table(4, rules=Rules(mutiny_money_check="resolution"), money=1)
    give(t, 1, pv=3)
    ref.mutiny(t, Pawn(1, MUT, 3, 1))
    assert (t.seats[1].money, t.seats[1].pv) == (2, 2)


def test_mutiny_space_0_costs_a_point_and_pays_a_coin():
    t = table(4, money=0)
    ref.mutiny(t, Pawn(1, MUT, 0, 1))
    assert (t.seats[1].money, t.seats[1].pv, t.seats[1].mut_actions) == (1, -1, 1)


def test_a_mutiny_in_the_last_captain_round_changes_neither_captain_nor_marker():
    pols = [Script(captain_action=(SO, SO_ICE), follower_choice=(SUB, NO_SLOT),
                   sub_money=True) for _ in range(4)]
    pols[1].answers["follower_choice"] = (MUT, 3)
    t = table(4, policies=pols, marker=21)
    t.phase = ref.LAST_CAPTAIN
    ref.play_round(t)
    assert (t.captain, t.marker, t.mutinies, t.phase) == (0, 21, 0, ref.FREE)
    assert (t.seats[1].pv, t.seats[1].money, t.mut_actions) == (4, 1, 1)


def test_e11_gift_crossings():
    t = table(4, policies=[Script(sub_money=False) for _ in range(4)], marker=3,
              tdeck=[T_2PV])
    p = give(t, 1, pv=4, money=3)
    ref.mutiny(t, Pawn(1, MUT, 3, 1))
    assert (p.pv, p.money) == (8, 0 + 1) and p.gifts[GIFT_MONEY]
    p.pv = 14
    ref.subvention(t, Pawn(1, SUB, NO_SLOT, 1))
    assert (p.pv, p.money) == (16, 2) and p.gifts[GIFT_TREASURE]
    assert t.tdeck == [T_2PV] and sum(p.treasures) == 0     # replaced: +1$ +1 PV
    p.pv = 14                                                 # once per player (default)
    ref.subvention(t, Pawn(1, SUB, NO_SLOT, 1))
    assert (p.pv, p.money) == (15, 2)


def test_gifts_at_every_crossing_when_not_once_per_player():
    t = table(4, rules=Rules(gift_once_per_player=False), marker=3)
    p = give(t, 0, pv=4, money=0)
    ref.gain_pv(t, 0, 1)
    ref.gain_pv(t, 0, -1)
    ref.gain_pv(t, 0, 1)
    assert (p.pv, p.money) == (5, 2)


def test_landing_exactly_on_a_gift_counts_and_falling_brings_nothing():
    t = table(4, marker=3)
    p = give(t, 0, pv=6, money=0)
    ref.gain_pv(t, 0, -2)       # 6 -> 4: no gift on the way down
    assert p.money == 0 and not p.gifts[GIFT_MONEY]
    ref.gain_pv(t, 0, 1)        # 4 -> 5: exactly on the threshold
    assert p.money == 1 and p.gifts[GIFT_MONEY]


def test_the_25_gift_is_ice_and_the_35_gift_a_blind_fish():
    t = table(4, ifp=[Y_], supply=1)
    p = give(t, 0, pv=24, ice=0)
    ref.gain_pv(t, 0, 12)
    assert p.ice == 1 and t.supply == 0 and p.hand[Y_] == 1 and p.pv == 36
    assert p.gifts == [False, False, True, True]


# ================================================================ §9 E12: final scoring


def e12_table(other_money=0, own_money=9):
    t = table(3, marker=21)
    give(t, 0, hand=(1, 1, 1, 0, 0), treasures=(T_2PV, T_4PV_FOR_4, T_ICE, T_FISH),
         pv=30, money=own_money, ice=2)
    give(t, 1, pv=38, money=other_money, ice=0)
    give(t, 2, pv=0, money=0, ice=0)
    return t


def test_e12_final_scoring():
    t = e12_table()
    ref.final_scoring(t)
    p = t.seats[0]
    assert (p.pv, p.leftover, p.money, p.ice) == (38, 1, 9, 2)
    assert (t.seats[1].pv, t.seats[1].leftover) == (38, 0)
    assert ref.winners(t) == [1.0, 0.0, 0.0] and t.tied_first == 2


@pytest.mark.parametrize(("other_money", "own_money"), [(1, 9), (0, 8)])
def test_e12_ties_with_equal_leftovers_are_shared(other_money, own_money):
    t = e12_table(other_money, own_money)
    ref.final_scoring(t)
    assert [p.pv for p in t.seats] == [38, 38, 0]
    assert t.seats[0].leftover == t.seats[1].leftover
    assert ref.winners(t) == [0.5, 0.5, 0.0]


def test_e12_tie_rules_shared_and_fewer_ice():
    t = e12_table()
    t.rules = Rules(final_tiebreak="shared")
    ref.final_scoring(t)
    assert ref.winners(t) == [0.5, 0.5, 0.0]
    t = e12_table(other_money=1)
    t.rules = Rules(final_tiebreak="leftover_coin_then_fewer_ice")
    ref.final_scoring(t)
    assert ref.winners(t) == [0.0, 1.0, 0.0]    # both leftover 1; seat 1 has no ice


def test_final_scoring_market_treasure_sale_and_unaffordable_4pv():
    pol = Script(sale=pick(Sale(ANY2, (0, 0, 0, 2, 0), 0)))
    t = table(3, policies=[pol, Script(), Script()])
    p = give(t, 0, hand=(0, 0, 0, 2, 0), treasures=(T_MARKET, T_4PV_FOR_4), pv=3, money=0,
             ice=1)
    ref.final_scoring(t)
    # step 1: ANY2 for 3$; no fish left; 3$ < 4: no 4 PV; 3$ -> 1 PV, leftover 1; -1 ice
    assert (p.pv, p.leftover) == (3 + 1 - 1, 1) and p.sales == 1


def test_final_scoring_never_gives_gifts_and_pv_floor():
    t = table(3)
    p = give(t, 0, treasures=(T_2PV,), pv=3, money=0, ice=0)
    ref.final_scoring(t)
    assert (p.pv, p.money) == (5, 0) and not p.gifts[GIFT_MONEY]
    t = table(3, rules=Rules(pv_floor="zero"))
    p = give(t, 0, pv=1, money=0, ice=4)
    ref.final_scoring(t)
    assert p.pv == 0


# ================================================================ §9 E13: Special Offers


def test_e13_special_offers_with_five_players():
    pols = [Script(captain_action=(SO, SO_ICE))] + [Script(sale=None) for _ in range(4)]
    for seat, offer in ((1, SO_TREASURE), (2, SO_2PV), (3, SO_MARKET)):
        pols[seat].answers["follower_choice"] = join(SO, offer)

    def last(t, seat, options):
        assert [o for o in options if o[0] == SO] == [(SO, SO_FISHING)]
        return (SO, SO_FISHING)

    pols[4].answers["follower_choice"] = last
    pols[4].answers["so_fishing"] = ref.BLIND
    t = table(5, policies=pols, marker=3, ifp=[Y_], money=4, ice=0, supply=20)
    ref.play_round(t)
    s = t.seats
    assert (s[0].ice, s[1].money, s[1].pv, s[2].money, s[2].pv) == (1, 5, 1, 2, 2)
    assert (s[4].pv, s[4].hand[Y_]) == (1, 1)


def test_the_fifth_offers_point_comes_after_the_offer():
    # 1$ and 4 PV on SO_2PV at position 5: the offer fails (1$), then +1 PV reaches the
    # 5-PV gift (+1$): had the point come first, the 2$ would have bought the offer.
    t = table(5, marker=3)
    p = give(t, 4, pv=4, money=1)
    ref.special_offer(t, Pawn(4, SO, SO_2PV, 5))
    assert (p.pv, p.money) == (5, 2)


def test_so_fishing_buys_a_display_card_and_refills():
    t = table(4, policies=[Script(so_fishing=1)] + [Script() for _ in range(3)],
              display=[R_, P_, Y_, B_, J_], shoal=[Y_, R_], ice=2, money=3)
    p = t.seats[0]
    ref.special_offer(t, Pawn(0, SO, SO_FISHING, 1))
    assert p.hand[P_] == 1 and (p.ice, p.money) == (0, 2)
    assert t.display == [R_, Y_, Y_, B_, J_] and t.shoal == [R_]
    (name, (seat, options)), = [a for a in t.policies[0].asked if a[0] == "so_fishing"]
    assert options == [0, 1, 2, 3, 4, ref.BLIND]


# ================================================================ §9 E14: previous action


def test_e14_previous_action_rule():
    seen = []
    plan = {1: (FM, ANY2), 2: (ICE, NO_SLOT), 3: (FM, ANY2)}

    def captain(t, seat, options):
        seen.append((seat, {b for b, _ in options}))
        return plan[t.round]

    pols = [Script(captain_action=captain, follower_choice=(SUB, NO_SLOT), sub_money=True)
            for _ in range(4)]
    pols[2].answers["follower_choice"] = [(SUB, NO_SLOT), (MUT, 1)]
    t = table(4, policies=pols, dice=[3])
    for _ in range(3):
        ref.play_round(t)
    # round 1: FM, no mutiny; round 2: the same Captain may not take FM, takes ICE, seat 2
    # mutinies; round 3: the new Captain may not take ICE (FM is allowed again)
    assert seen == [(0, {IF, SF, ICE, TR, FM, SO}), (0, {IF, SF, ICE, TR, SO}),
                    (2, {IF, SF, TR, FM, SO})]
    assert t.captain == 2 and t.marker == 6 and t.world.dice_left == []


@pytest.mark.parametrize(("rule", "banned"), [("same_captain_only", None), ("none", None),
                                               ("previous_round", ICE)])
def test_previous_action_rule_options(rule, banned):
    t = table(4, rules=Rules(previous_action_rule=rule))
    t.previous_action, t.previous_captain, t.captain = ICE, 0, 2   # new Captain
    boxes = {b for b, _ in ref.captain_options(t)}
    assert boxes == {IF, SF, ICE, TR, FM, SO} - {banned}
    t.captain = 0                                                  # same Captain again
    boxes = {b for b, _ in ref.captain_options(t)}
    assert boxes == {IF, SF, ICE, TR, FM, SO} - ({ICE} if rule != "none" else set())


# ================================================================ §9 E15: game length


def test_e15_game_length():
    rules = Rules(num_mutinies=3)
    seen = []

    class Plan:
        """The Captain takes Treasures or Special Offers; in rounds 1, 4 and 5 the first
        follower mutinies (space 0), everyone else takes the Subvention."""

        def captain_action(self, t, seat, options):
            seen.append((t.round, t.phase, t.marker, t.captain))
            return next(o for o in options if o[0] in (TR, SO))

        def follower_choice(self, t, seat, options):
            if t.round in (1, 4, 5) and t.phase == ref.NORMAL and (MUT, 0) in options:
                return (MUT, 0)
            return (SUB, NO_SLOT)

        def free_round_choice(self, t, seat, options):
            seen.append((t.round, t.phase, t.marker, t.captain))
            return (SUB, NO_SLOT)

        def sub_money(self, t, seat):
            return True

        def sale(self, t, seat, options, optional):
            return None

        def use_treasures(self, t, seat, offered):
            return []

        def so_fishing(self, t, seat, options):
            return ref.BLIND

    t = ref.play_game(rules, 4, [Plan() for _ in range(4)], Rng(7, 0, WORLD), checking=True)
    # (round, phase, marker at its start, Captain): seat 1 mutinies in round 1, seat 2 in
    # round 4, seat 3 in round 5 (each the first follower of that round's Captain)
    assert seen[:6] == [(1, ref.NORMAL, 0, 0), (2, ref.NORMAL, 1, 1), (3, ref.NORMAL, 1, 1),
                        (4, ref.NORMAL, 1, 1), (5, ref.NORMAL, 2, 2),
                        (6, ref.LAST_CAPTAIN, 3, 3)]
    assert [s[:2] for s in seen[6:]] == [(7, ref.FREE)] * 4
    row = ref.outcome(t, 0)
    assert (row["rounds"], row["mutinies"], row["normal_rounds"], row["truncated"]) == \
        (7, 3, 5, 0)
    assert t.phase == ref.OVER


def test_max_rounds_truncates_to_the_free_round():
    class NeverMutiny:
        forbid = force = 0  # no restriction (engines._restrict; read before __getattr__)

        def captain_action(self, t, seat, options):
            return next(o for o in options if o[0] in (SO, TR))

        def follower_choice(self, t, seat, options):
            return (SUB, NO_SLOT)

        def free_round_choice(self, t, seat, options):
            assert t.phase == ref.FREE
            return (SUB, NO_SLOT)

        def sub_money(self, t, seat):
            return False

        def __getattr__(self, name):
            return lambda *args: [] if name == "use_treasures" else None

    t = ref.play_game(Rules(max_rounds=50), 3, [NeverMutiny() for _ in range(3)],
                      Rng(3, 0, WORLD), checking=True)
    row = ref.outcome(t, 0)
    assert (row["rounds"], row["normal_rounds"], row["mutinies"], row["truncated"]) == \
        (51, 50, 0, 1)


# ================================================================ §2 tables and components


def test_market_table_is_monotone_and_has_the_seed_prices():
    r = Rules()
    for x in range(5):
        assert r.market_price(SAME4, x) >= r.market_price(TWOPAIRS, x) >= r.market_price(ANY4, x)
        assert r.market_price(SAME3, x) >= r.market_price(ANY3, x)
        for combo in COMBOS:
            assert x == 0 or r.market_price(combo, x) >= r.market_price(combo, x - 1)
    assert r.market_price(ANY2, 0) == r.market_price(ANY2, 1) == 3
    assert [r.market_price(TWOPAIRS, x) for x in range(5)] == [7, 7, 12, 18, 24]
    assert [r.market_price(SAME4, x) for x in (1, 2, 3, 4)] == [9, 15, 22, 30]
    assert [r.market_price(ANY3, x) for x in (1, 2, 3, 4)] == [4, 7, 10, 13]


def test_component_counts():
    r = Rules()
    assert r.deck_counts == (12, 12, 12, 12, 6) and sum(r.deck_counts) == 54
    assert r.treasure_counts == (3, 3, 4, 4, 4, 3, 3) and sum(r.treasure_counts) == 24
    assert r.ice_supply == 25
    assert [r.price(c) for c in range(5)] == [(1, 0), (1, 0), (2, 1), (0, 0), (1, 2)]
    assert [r.icons(c) for c in range(5)] == [1, 1, 2, 0, 1]
    assert r.if_prices == (0, 1, 1, 2, 2) and r.mutiny_pv == (-1, 2, 3, 4)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup(players):
    world = Rng(11, 2, WORLD)
    t = ref.setup(Rules(), players, world)
    d = 4 if players == 3 else 5
    assert len(t.display) == d and len(t.ifp) == 10 and len(t.shoal) == 54 - d - 10
    assert [p.money for p in t.seats] == [3] + [4] * (players - 1)
    assert [p.ice for p in t.seats] == [1] * players and t.supply == 25 - players
    assert all(p.pv == 0 and p.fish == 0 and not any(p.gifts) for p in t.seats)
    assert len(t.tdeck) == 24 and (t.marker, t.captain, t.round) == (0, 0, 0)
    assert t.previous_action == -1 and t.phase == ref.NORMAL
    deck = t.display + t.ifp + t.shoal
    assert [deck.count(c) for c in range(5)] == [12, 12, 12, 12, 6]
    # replay: the fish deck's shuffle, then the treasure deck's
    again = Rng(11, 2, WORLD)
    fish = [c for c, n in enumerate(Rules().deck_counts) for _ in range(n)]
    again.shuffle(fish)
    treasures = [k for k, n in enumerate(Rules().treasure_counts) for _ in range(n)]
    again.shuffle(treasures)
    assert deck == fish and t.tdeck == treasures and again.draws == world.draws


def test_start_money_options():
    r = Rules(start_money_by_seat=(5, -1, 0, -1, -1), first_captain_seat=1)
    assert [r.start_money(s) for s in range(5)] == [5, 3, 0, 4, 4]
    t = ref.setup(r, 4, Rng(1, 0, WORLD))
    assert t.captain == 1 and [p.money for p in t.seats] == [5, 3, 0, 4]


# ================================================================ §4.5 fish card flow


def test_draw_blind_refills_the_pile_from_the_shoal_as_a_block():
    t = table(4, ifp=[], shoal=list(range(5)) * 3)
    assert ref.draw_blind(t) == 0
    assert t.ifp == [1, 2, 3, 4, 0, 1, 2, 3, 4] and t.shoal == [0, 1, 2, 3, 4]


def test_draw_blind_reshuffles_the_discard_and_runs_dry():
    t = table(4, ifp=[], shoal=[])
    t.discard = [Y_, B_]
    assert ref.draw_blind(t) == Y_ and t.world.shuffles == 1 and t.discard == []
    assert t.ifp == [B_]
    t.ifp = []
    assert ref.draw_blind(t) is None and not ref.blind_available(t)


def test_refill_display_fills_empty_indices_in_ascending_order():
    t = table(4, display=[None, R_, None, None, B_], shoal=[Y_, P_])
    t.discard = [J_]
    ref.refill_display(t)
    assert t.display == [Y_, R_, P_, J_, B_] and t.world.shuffles == 1
    t.display[0] = None
    ref.refill_display(t)
    assert t.display[0] is None       # nothing left anywhere: the display stays short


def test_selective_fishing_buys_the_picked_card_and_refills_after_the_box():
    pols = [Script(captain_action=(SF, 2)), Script(follower_choice=join(SF, 0)),
            Script(follower_choice=(SUB, NO_SLOT), sub_money=True),
            Script(follower_choice=(SUB, NO_SLOT), sub_money=True)]
    t = table(4, policies=pols, display=[P_, R_, J_, Y_, B_], shoal=[B_, B_, B_], ice=1,
              money=1)
    ref.play_round(t)
    # the Captain cannot pay the joker (2$ + 1 ice): the card stays; seat 1 cannot pay the
    # purple (2 ice + 1$) either
    assert t.seats[0].fish == 0 and t.seats[1].fish == 0 and t.display == [P_, R_, J_, Y_, B_]
    t = table(4, policies=[Script(captain_action=(SF, 2))] + [
        Script(follower_choice=join(SF, s)) for s in (0, 3, 1)],
        display=[P_, R_, J_, Y_, B_], shoal=[B_, Y_, R_], ice=2, money=2)
    ref.play_round(t)
    assert [p.hand for p in t.seats] == [[0, 0, 0, 0, 1], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0],
                                         [1, 0, 0, 0, 0]]
    assert [(p.ice, p.money) for p in t.seats] == [(1, 0), (0, 1), (2, 2), (1, 2)]
    assert t.display == [B_, Y_, R_, None, B_] and t.shoal == []


def test_selective_fishing_fifth_position_takes_a_blind_fish():
    t = table(5, ifp=[Y_])
    for s in range(4):
        t.pawns.append(Pawn(s, SF, s, s + 1))
    assert ref.join_slots(t, SF, 5) == [NO_SLOT]
    assert ref.join_slots(t, SF, 4) == [4]
    ref.fishing_selective(t, Pawn(4, SF, NO_SLOT, 5))
    assert t.seats[4].hand[Y_] == 1


# ================================================================ §4.4 the free round


def test_free_round_everyone_may_mutiny_and_boxes_resolve_in_order():
    pols = [Script(free_round_choice=(MUT, 1)), Script(free_round_choice=(MUT, 1)),
            Script(free_round_choice=(TR, NO_SLOT)), Script(free_round_choice=(SUB, NO_SLOT),
                                                            sub_money=True)]
    t = table(4, policies=pols, dice=[2, 2], tdeck=[], marker=21)
    t.phase = ref.FREE
    t.captain = 3
    t.log = []
    ref.play_free_round(t)
    # placement from the Captain (seat 3) clockwise; TR position 1 gets the Captain's
    # threshold (> 1) and the coin
    assert [p.seat for p in t.pawns] == [3, 0, 1, 2]
    assert [(p.pv, p.money) for p in t.seats] == [(2, 3), (2, 3), (1, 6), (0, 5)]
    assert (t.marker, t.mutinies, t.mut_actions, t.phase) == (21, 0, 2, ref.OVER)
    order = [line for line in t.log if "resolves" in line]
    assert [line.split()[2] for line in order] == ["TR", "SUB", "MUT", "MUT"]
    options = ref.free_options(t, 0)
    assert (SUB, NO_SLOT) in options and (MUT, 3) in options


# ================================================================ §6 feasibility, sale options


def legal(combo, used):
    """Brute force: some assignment of the wild cards makes ``used`` exactly ``combo``."""
    n = COMBO_CARDS[combo]
    if sum(used) != n:
        return False
    for wild in itertools.product(NATURALS, repeat=used[JOKER]):
        colours = [c for c in NATURALS for _ in range(used[c])] + list(wild)
        counts = [colours.count(c) for c in NATURALS]
        if combo in (SAME3, SAME4) and max(counts) == n:
            return True
        if combo == TWOPAIRS and all(c % 2 == 0 for c in counts):
            return True
        if combo in (ANY2, ANY3, ANY4):
            return True
    return False


# every (r, b, p, y, wild) selection of each size with at most 4 of a kind, and its legality
SELECTIONS = {n: [(u, {c: legal(c, u) for c in COMBOS if COMBO_CARDS[c] == n})
                  for u in itertools.product(range(5), repeat=5) if sum(u) == n]
              for n in (2, 3, 4)}


def selections(hand, jokers, combo):
    """Every legal selection of ``combo`` that the hand (and its wild cards) holds."""
    for used, ok in SELECTIONS[COMBO_CARDS[combo]]:
        if ok[combo] and used[JOKER] <= jokers and all(
                u <= h for u, h in zip(used, hand, strict=False)):
            yield used


HANDS = [(h, j) for h in itertools.product(range(4), repeat=4) for j in range(4)]


def test_feasible_agrees_with_brute_force():
    feasible = 0
    for hand, jokers in HANDS + [((4, 0, 0, 0), 0), ((0, 4, 0, 1), 0), ((1, 1, 1, 1), 4)]:
        for combo in COMBOS:
            brute = any(True for _ in selections(hand, jokers, combo))
            assert ref.feasible(combo, hand, jokers) == brute, (combo, hand, jokers)
            feasible += brute
    assert 1000 < feasible < 6 * len(HANDS)


def test_makes_agrees_with_brute_force():
    for combo in COMBOS:
        for used in itertools.product(range(5), repeat=5):
            if sum(used) == COMBO_CARDS[combo]:
                assert ref.makes(combo, used) == legal(combo, used), (combo, used)


@pytest.mark.parametrize(("rules", "ices"), [
    (Rules(), (0, 1, 3, 6)),
    (Rules(market_ice_cap=2), (1, 6)),
    (Rules(fish_icons_rule="colour_table", fish_icons=(0, 2, 3, 1, 0)), (2, 6)),
], ids=["default", "cap2", "icons"])
def test_sale_options_agree_with_brute_force(rules, ices):
    icons = [rules.icons(c) for c in range(5)]
    for hand, jokers in HANDS:
        legal_sets = [(combo, used, sum(u * i for u, i in zip(used, icons, strict=True)))
                      for combo in COMBOS for used in selections(hand, jokers, combo)]
        for ice in ices:
            got = ref.sale_options(rules, hand, jokers, ice, COMBOS)
            assert len(got) == len(set(got))
            # invariant 10: x <= min(cap, icons of the cards sold, ice held)
            expected = {Sale(combo, used, x) for combo, used, n_icons in legal_sets
                        for x in range(min(rules.market_ice_cap, n_icons, ice) + 1)}
            assert set(got) == expected, (hand, jokers, ice)
            assert list(got) == sorted(got, key=lambda s: (s.combo, s.counts[:4], s.x))


def test_sale_options_for_one_combination():
    hand = (1, 1, 0, 0)
    assert ref.sale_options(Rules(), hand, 0, 4, (ANY2,)) == tuple(
        Sale(ANY2, (1, 1, 0, 0, 0), x) for x in range(3))
    assert ref.sale_options(Rules(), hand, 0, 4, (TWOPAIRS,)) == ()
    assert ref.sale_options(Rules(), hand, 2, 0, (TWOPAIRS,)) == (
        Sale(TWOPAIRS, (1, 1, 0, 0, 2), 0),)


# ================================================================ players, options, presets


@pytest.mark.parametrize("players", [2, 6])
def test_two_players_are_rejected_in_one_line(players):
    with pytest.raises(RulesError) as err:
        GAME.reference(Rules(), GAME.seat_policies("random", players), players, 0, 0)
    assert "3-5 players" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(RulesError, match="3-5 players"):
        Rules().check_players(players)


def test_cli_play_with_two_players_is_one_line_and_exit_code_2(capsys):
    code = main(["play", "motines", "-p", "2"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["rumsim: error: motines is played by 3-5 players, not 2"]


def test_cli_play_with_two_players_from_the_shell():
    rumsim = Path(sys.executable).with_name("rumsim")
    done = subprocess.run([str(rumsim), "play", "motines", "-p", "2"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert "3-5 players" in done.stderr


@pytest.mark.parametrize(("overrides", "message"), [
    ({"num_mutinies": 0}, "rule num_mutinies=0 is not allowed: expected int 1..40"),
    ({"num_mutinies": "many"}, "num_mutinies"),
    ({"if_return_to": "middle"}, "expected bottom|top|shuffle_in"),
    ({"treasure_roll_mode": "max_of_too"}, "did you mean 'max_of_two'"),
    ({"deck_counts": "1,1,1,1,1"}, "at least 20"),
    ({"deck_counts": "12,12,12,12"}, "deck_counts"),
    ({"fish_prices": "1,0,1"}, "fish_prices"),
    ({"market_table": "3,5,7,9"}, "market_table"),
    ({"gift_thresholds": "5,5,25,35"}, "two gifts at the same PV"),
    ({"hidden_hands": "maybe"}, "hidden_hands"),
    ({"max_rounds": 10}, "max_rounds"),
    ({"mutiny_pv": "-1,2,3,11"}, "mutiny_pv"),
    ({"num_mutinys": 21}, "did you mean 'num_mutinies'"),
])
def test_bad_options_are_rejected_with_the_key(overrides, message):
    with pytest.raises(RulesError, match=re.escape(message)):
        Rules.from_overrides(overrides)


def test_parsing_and_player_dependent_options():
    r = Rules.from_overrides({"num_mutinies": "15", "hidden_hands": "false",
                              "if_prices": "0,0,1,1,2", "free_round_resolution":
                              "placement_order"})
    assert (r.num_mutinies, r.hidden_hands, r.if_prices, r.free_round_resolution) == \
        (15, False, (0, 0, 1, 1, 2), "placement_order")
    assert "num_mutinies=15" in r.describe() and Rules().describe() == "default"
    with pytest.raises(RulesError, match="first_captain_seat=3"):
        Rules(first_captain_seat=3).check_players(3)
    Rules(first_captain_seat=3).check_players(4)
    small = Rules(deck_counts=(4, 4, 4, 4, 4), if_pile_size=20)
    with pytest.raises(RulesError, match="too few"):
        small.check_players(3)
    with pytest.raises(RulesError, match="first_captain_seat"):
        GAME.reference(Rules(first_captain_seat=4), GAME.seat_policies("random", 3), 3, 0, 0)


def test_presets():
    assert set(Rules.preset_names()) >= {"standard", "short", "very_short",
                                         "equal_start_money", "no_gifts"}
    assert Rules.from_overrides(preset="standard") == Rules()
    assert Rules.from_overrides(preset="short").changed() == {"num_mutinies": 11}
    assert Rules.from_overrides(preset="very_short").changed() == {
        "num_mutinies": 7, "treasure_modified_until_marker": 2}
    assert Rules.from_overrides(preset="equal_start_money").changed() == {
        "start_money_captain": 4}
    assert Rules.from_overrides(preset="no_gifts").gift_thresholds == (0, 0, 0, 0)
    for name in Rules.preset_names():
        r = Rules.from_overrides(preset=name)
        row = GAME.reference(r, GAME.seat_policies("greedy", 4), 4, 5, 0)
        assert row["mutinies"] == r.num_mutinies and row["rounds"] == row["normal_rounds"] + 2
    with pytest.raises(RulesError, match="did you mean 'short'"):
        Rules.from_overrides(preset="shrt")


def test_no_gifts_preset_gives_no_gifts():
    t = table(4, rules=Rules.from_overrides(preset="no_gifts"))
    p = give(t, 0, pv=0, money=0)
    ref.gain_pv(t, 0, 40)
    assert (p.money, p.ice, p.fish, p.gifts) == (0, 0, 0, [False] * 4)


def test_columns_and_one_reference_row():
    for players in (3, 4, 5):
        row = GAME.reference(Rules(), GAME.seat_policies("random", players), players, 1, 0)
        assert list(row) == GAME.column_names(players)
        assert sum(row[f"win_{s}"] for s in range(players)) == pytest.approx(1.0)
    assert GAME.default_players == 4 and GAME.default_policy == "greedy"
