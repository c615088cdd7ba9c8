"""21 Motines invariants (spec §8) on thousands of reference games: P = 3, 4, 5, every policy
and mixes, presets and rule options, truncated games.

Every game runs with ``checking=True`` (``Table.check`` asserts invariants 1-7 after every
step) and with an independent ``Checker`` hooked into the same steps: fish, ice and treasure
conservation per colour / type (1-3), money (4), the display after every refill (5), the
placement rules (6), the marker and phases round by round (7, 8), every gift against the PV
rise that brought it (9), every sale against the market table (10), final scoring recomputed
from the state before it (11). The outcome rows are checked against the table, and replaying
a seed and game index gives the same row (12).
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engines._play import decision_makers
from engines._rng import POLICY, WORLD, Rng
from engines.motines import GAME
from engines.motines import reference as ref
from engines.motines.data import (
    CAPTAIN_BOXES,
    COMBO_CARDS,
    FM,
    JOKER,
    MARKET_LEVELS,
    MUT,
    NATURALS,
    SAME3,
    SAME4,
    SF,
    SF_PICKS,
    SO,
    SUB,
    T_2MONEY,
    T_2PV,
    T_4PV_FOR_4,
    T_FISH,
    T_JOKER,
    T_MARKET,
    TWOPAIRS,
)
from engines.motines.policies import RandomPolicy
from engines.motines.reference import FREE, LAST_CAPTAIN, NO_SLOT, NORMAL
from engines.motines.rules import Rules


def legal(combo: int, used: tuple) -> bool:
    """Brute force: some colouring of the wild cards makes ``used`` exactly ``combo``."""
    if sum(used) != COMBO_CARDS[combo]:
        return False
    for wild in itertools.product(NATURALS, repeat=used[JOKER]):
        counts = [used[c] + wild.count(c) for c in NATURALS]
        if combo in (SAME3, SAME4):
            if max(counts) == COMBO_CARDS[combo]:
                return True
        elif combo == TWOPAIRS:
            if all(c % 2 == 0 for c in counts):
                return True
        else:
            return True
    return False


class Checker:
    """Spec §8 for one game, fed by the hooks below."""

    def __init__(self, rules: Rules, players: int):
        self.rules = rules
        self.P = players
        self.D = rules.display_size(players)
        self.marker = 0
        self.rounds = []          # per round: [phase, had_mutiny, marker before, captain before]
        self.free_rounds = 0
        self.last = None          # (box, Captain) of the previous normal round
        self.gift_calls = []      # (seat, before, after, first event, end event)
        self.sales = []           # (seat, price, x, cards from the hand, joker treasures, final)
        self.in_final = False
        self.scored = False
        self.steps = 0
        self.refills = 0
        self.start_money = sum(rules.start_money(s) for s in range(players))

    def conservation(self, t: ref.Table, where: str) -> None:
        r = self.rules
        # 1. Fish, per colour: pile, display, shoal, discard and hands hold the whole deck.
        hands = [sum(h) for h in zip(*(p.hand for p in t.seats), strict=True)]
        for c in range(5):
            n = t.ifp.count(c) + t.display.count(c) + t.shoal.count(c) + t.discard.count(c) \
                + hands[c]
            assert n == r.deck_counts[c], f"{where}: colour {c}: {n} cards"
        # 2. Ice.
        assert t.supply >= 0 and all(p.ice >= 0 for p in t.seats)
        assert t.supply + sum(p.ice for p in t.seats) == r.ice_supply, where
        # 3. Treasures, per type.
        held = [sum(h) for h in zip(*(p.treasures for p in t.seats), strict=True)]
        for k in range(7):
            n = t.tdeck.count(k) + held[k] + t.tdiscard[k]
            assert n == r.treasure_counts[k] and t.tdiscard[k] >= 0, f"{where}: treasure {k}"

    # ------------------------------------------------------------ every step

    def step(self, t: ref.Table, where: str) -> None:
        self.steps += 1
        r = self.rules
        # 4. Money: never negative; every change goes through the bank's ledger.
        assert all(p.money >= 0 for p in t.seats), where
        assert sum(p.money for p in t.seats) == self.start_money + t.money_in, where
        if not where.startswith("window"):  # (Table.check counts the totals there too)
            self.conservation(t, where)
        # 5. Display size.
        assert len(t.display) == self.D
        # 6, 7. One Captain; the marker never falls, never passes num_mutinies.
        assert 0 <= t.captain < self.P
        assert self.marker <= t.marker <= r.num_mutinies, where
        self.marker = t.marker
        if where == "setup":
            t.events = []         # the gift and mutiny events the checks below read
        elif where == "placement":
            self.placement(t)
        elif where == "end of round":
            self.end_of_round(t)
        elif where == "free placement":
            self.free_placement(t)

    def placed(self, t: ref.Table, first: int) -> None:
        """One pawn per seat, clockwise from ``first``; positions 1.. per box; slots."""
        r, P = self.rules, self.P
        assert [p.seat for p in t.pawns] == [(first + k) % P for k in range(P)]
        for box in range(8):
            assert [p.position for p in t.pawns if p.box == box] == \
                list(range(1, len(t.in_box(box)) + 1))
        free = t.phase == FREE
        for p in t.pawns:
            if p.box == SF:
                if p.position > SF_PICKS and r.sf_fifth_gets_blind:
                    assert p.slot == NO_SLOT
                else:
                    assert t.display[p.slot] is not None
            if p.box == MUT:
                assert 0 <= p.slot <= 3
                if r.mutiny_money_check == "placement":
                    assert p.slot <= t.seats[p.seat].money
        for box in (SF, FM, SO):
            slots = [p.slot for p in t.in_box(box) if p.slot != NO_SLOT]
            exclusive = box == SF or (not free or r.free_round_slots_exclusive) and (
                box != FM or r.market_slots_exclusive)
            if exclusive:
                assert len(slots) == len(set(slots)), f"shared {box} slot"

    def placement(self, t: ref.Table) -> None:
        r = self.rules
        assert t.phase in (NORMAL, LAST_CAPTAIN)
        self.placed(t, t.captain)
        captain, box = t.pawns[0], t.pawns[0].box
        # 6. The Captain: position 1 of one of the six actions, not the banned one.
        assert captain.seat == t.captain and captain.position == 1 and box in CAPTAIN_BOXES
        if self.last is not None:
            rule = r.previous_action_rule
            if rule == "previous_round" or (rule == "same_captain_only"
                                            and self.last[1] == t.captain):
                assert box != self.last[0]
        for p in t.pawns[1:]:
            assert p.box in (box, SUB, MUT)
        mutineers = t.in_box(MUT)
        assert len(mutineers) <= 1
        if t.phase == LAST_CAPTAIN and r.last_captain_mutiny == "forbidden":
            assert not mutineers
        assert len(self.rounds) + self.free_rounds + 1 == t.round
        self.rounds.append([t.phase, bool(mutineers), t.marker, t.captain,
                            mutineers[0].seat if mutineers else None])
        self.last = (box, t.captain)

    def end_of_round(self, t: ref.Table) -> None:
        r = self.rules
        phase, mutiny, marker, captain, mutineer = self.rounds[-1]
        if phase == NORMAL:
            # 7. +1 exactly in a normal round with a mutiny; the mutineer is Captain.
            assert t.marker == marker + mutiny
            assert t.captain == (mutineer if mutiny else captain)
            assert t.normal_rounds == sum(x[0] == NORMAL for x in self.rounds)
            if t.marker == r.num_mutinies:
                assert t.phase == LAST_CAPTAIN and not t.truncated
            elif t.normal_rounds == r.max_rounds:
                assert t.phase == FREE and t.truncated
            else:
                assert t.phase == NORMAL
        else:
            assert (t.marker, t.captain, t.phase) == (marker, captain, FREE)

    def free_placement(self, t: ref.Table) -> None:
        assert t.phase == FREE
        self.free_rounds += 1
        self.placed(t, t.captain)

    # ------------------------------------------------------------ the hooks

    def refilled(self, t: ref.Table) -> None:
        # 5. After every refill the display is full, unless no card was left to fill it.
        self.refills += 1
        held = sum(c is not None for c in t.display)
        assert held == self.D or (not t.shoal and not t.discard)

    def sale(self, t, seat, sale, make) -> None:
        """10. The sale is a legal canonical sale; the price is the table's."""
        r = self.rules
        p = t.seats[seat]
        hand, tj, ice, money = list(p.hand), p.treasures[T_JOKER], p.ice, p.money
        assert legal(sale.combo, sale.counts), sale
        assert all(sale.counts[c] <= hand[c] for c in NATURALS) and sale.wild <= hand[JOKER] + tj
        icons = sum(n * r.icons(c) for c, n in enumerate(sale.counts))
        assert 0 <= sale.x <= min(r.market_ice_cap, icons, ice)
        discard = len(t.discard)
        make()
        level = 0 if sale.x <= 1 else sale.x - 1
        price = r.market_table[MARKET_LEVELS * sale.combo + level]
        assert p.money == money + price and p.ice == ice - sale.x
        cards = sale.wild if sale.wild <= hand[JOKER] else hand[JOKER]
        for c in NATURALS:
            assert p.hand[c] == hand[c] - sale.counts[c]
        assert p.hand[JOKER] == hand[JOKER] - cards
        assert p.treasures[T_JOKER] == tj - (sale.wild - cards)
        n_cards = COMBO_CARDS[sale.combo] - (sale.wild - cards)
        assert len(t.discard) == discard + n_cards
        self.sales.append((seat, price, sale.x, n_cards, sale.wild - cards, self.in_final))

    def gifts(self, t, seat, before, after, give) -> None:
        """9. The gifts of one PV rise: each threshold in (before, after] not yet had."""
        r = self.rules
        assert not self.in_final, "a gift during final scoring"
        assert before < after
        had = list(t.seats[seat].gifts)
        first = len(t.events)
        give()
        end = len(t.events)
        self.gift_calls.append((seat, before, after, first, end))
        given = {(e["gift"], e["pv"]) for e in t.events[first:end]
                 if e["event"] == "gift" and e["seat"] == seat}
        for kind, pv in enumerate(r.gift_thresholds):
            if pv and before < pv <= after and not (r.gift_once_per_player and had[kind]):
                assert (kind, pv) in given

    def final(self, t, score) -> None:
        """11. Final scoring recomputed from the state before it and its step-1 sales."""
        r = self.rules
        pre = [(p.pv, p.money, p.ice, p.fish, list(p.treasures)) for p in t.seats]
        first_sale, events = len(self.sales), len(t.events)
        self.in_final = True
        score()
        self.in_final = False
        self.scored = True
        assert not any(e["event"] == "gift" for e in t.events[events:])
        # PV falls only on Mutiny spaces with negative PV (space 0: -1) and by ice at the end
        lost = [sum(max(0, -r.mutiny_pv[e["space"]]) for e in t.events
                    if e["event"] == "mutiny" and e["seat"] == s) for s in range(self.P)]
        for s, (pv, money, ice, fish, held) in enumerate(pre):
            sold = [x for x in self.sales[first_sale:] if x[0] == s]
            assert len(sold) <= held[T_MARKET] and (r.final_market_sales or not sold)
            money += sum(x[1] for x in sold)
            ice -= sum(x[2] for x in sold)
            fish -= sum(x[3] for x in sold)
            jokers = held[T_JOKER] - sum(x[4] for x in sold)
            money += 2 * held[T_2MONEY] + fish + held[T_FISH] + jokers
            bought = 0
            for _ in range(held[T_4PV_FOR_4]):
                if money >= 4:
                    money -= 4
                    bought += 1
            final = pv + 2 * held[T_2PV] + 4 * bought + money // 2 - ice
            if r.pv_floor == "zero":
                final = max(0, final)
            p = t.seats[s]
            assert (p.pv, p.leftover) == (final, money % 2), f"seat {s}"
            assert p.pv >= -(r.ice_supply + lost[s])   # spec: -(25 + 0$-mutinies)

    # ------------------------------------------------------------ the end

    def finish(self, t: ref.Table) -> None:
        r = self.rules
        assert self.scored and t.phase == ref.OVER
        phases = [x[0] for x in self.rounds]
        # 8. Termination; one FREE round; one LAST_CAPTAIN round unless truncated.
        assert self.free_rounds == 1
        assert phases.count(LAST_CAPTAIN) == (0 if t.truncated else 1)
        assert phases == [NORMAL] * t.normal_rounds + [LAST_CAPTAIN] * (1 - t.truncated)
        assert t.round == len(phases) + 1 <= r.max_rounds + 2
        # 7. Normal rounds with a mutiny = num_mutinies unless truncated.
        mutinies = sum(1 for x in self.rounds if x[0] == NORMAL and x[1])
        assert mutinies == t.mutinies == t.marker
        assert (t.marker == r.num_mutinies) != bool(t.truncated)
        assert not t.truncated or t.normal_rounds == r.max_rounds
        # 9. Each gift at most once per player (default), explained by a PV rise.
        gifts = [(i, e) for i, e in enumerate(t.events) if e["event"] == "gift"]
        for i, e in gifts:
            assert any(seat == e["seat"] and before < e["pv"] <= after and first <= i < end
                       for seat, before, after, first, end in self.gift_calls), e
        for s, p in enumerate(t.seats):
            kinds = [e["gift"] for _, e in gifts if e["seat"] == s]
            if r.gift_once_per_player:
                assert len(kinds) == len(set(kinds))
            assert p.gifts == [k in kinds for k in range(4)]
        assert self.steps > 3 * t.round


def check_row(row: dict, t: ref.Table, rules: Rules) -> None:
    """The outcome row against the table and the spec's bounds."""
    P = t.players
    assert list(row) == GAME.column_names(P)
    trunc = row["truncated"]
    assert row["mutinies"] == (rules.num_mutinies if not trunc else t.marker)
    assert trunc or row["mutinies"] == rules.num_mutinies
    assert row["rounds"] == row["normal_rounds"] + (1 if trunc else 2)
    assert row["rounds"] <= rules.max_rounds + 2
    assert sum(row[f"win_{s}"] for s in range(P)) == pytest.approx(1.0)
    best = max(row[f"score_{s}"] for s in range(P))
    tied = [s for s in range(P) if row[f"score_{s}"] == best]
    assert row["tied_first"] == len(tied)
    assert all(row[f"win_{s}"] == 0 for s in range(P) if s not in tied)
    assert sum(row[f"captain_rounds_{s}"] for s in range(P)) == row["rounds"] - 1
    assert sum(row[f"captain_{b}"] for b in ("if", "sf", "ice", "tr", "fm", "so")) == \
        row["rounds"] - 1
    assert row["mut_actions"] == sum(row[f"mut_{s}"] for s in range(P)) >= row["mutinies"]
    assert [row[f"score_{s}"] for s in range(P)] == [p.pv for p in t.seats]
    assert [row[f"ice_left_{s}"] for s in range(P)] == [p.ice for p in t.seats]
    assert row["first_captain"] == rules.first_captain_seat


class NoMutiny:
    """A random player that never mutinies in the normal rounds (games run to max_rounds)."""

    def __init__(self, rng):
        self.inner = RandomPolicy(rng)

    def follower_choice(self, t, seat, options):
        calm = [o for o in options if o[0] != MUT or t.phase != NORMAL]
        return calm[0] if len(calm) == 1 else self.inner.follower_choice(t, seat, calm)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def play(monkeypatch):
    """play(rules, policies, players, seed, game) -> row: one checked reference game."""
    state = {"seen": Counter()}

    def hook(name, wrap):
        original = getattr(ref, name)
        monkeypatch.setattr(ref, name, wrap(original))

    check = ref.Table.check

    def table_check(self, where):   # the hooks watch checked games only
        check(self, where)
        if self.checking:
            state["ck"].step(self, where)

    monkeypatch.setattr(ref.Table, "check", table_check)

    def refill(original):
        def wrapped(t):
            original(t)
            if t.checking:
                state["ck"].refilled(t)
        return wrapped

    def make_sale(original):
        def wrapped(t, seat, sale, why):
            if not t.checking:
                return original(t, seat, sale, why)
            state["ck"].sale(t, seat, sale, lambda: original(t, seat, sale, why))
        return wrapped

    def gifts(original):
        def wrapped(t, seat, before, after):
            if not t.checking:
                return original(t, seat, before, after)
            state["ck"].gifts(t, seat, before, after, lambda: original(t, seat, before, after))
        return wrapped

    def final_scoring(original):
        def wrapped(t):
            if not t.checking:
                return original(t)
            state["ck"].final(t, lambda: original(t))
        return wrapped

    hook("refill_display", refill)
    hook("make_sale", make_sale)
    hook("gifts", gifts)
    hook("final_scoring", final_scoring)

    def run(rules: Rules, policies: str, players: int, seed: int, game: int,
            makers=None) -> dict:
        if makers is None:
            makers = decision_makers(GAME, GAME.seat_policies(policies, players), seed, game)
        ck = state["ck"] = Checker(rules, players)
        t = ref.play_game(rules, players, makers, Rng(seed, game, WORLD), checking=True)
        ck.finish(t)
        row = ref.outcome(t, game)
        check_row(row, t, rules)
        state["last"] = ck
        seen = state["seen"]
        seen["games"] += 1
        seen["sales"] += len(ck.sales)
        seen["final sales"] += sum(x[5] for x in ck.sales)
        seen["gifts"] += sum(e["event"] == "gift" for e in t.events)
        seen["refills"] += ck.refills
        seen["zero mutinies"] += sum(e["event"] == "mutiny" and e["space"] == 0
                                     for e in t.events)
        return row

    run.state = state
    return run


# ================================================================ the runs


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_random(play, players):
    rows = [play(Rules(), "random", players, 1, g) for g in range(250)]
    assert not any(r["truncated"] for r in rows)
    seen = play.state["seen"]   # the hooked checks did run
    assert min(seen[k] for k in ("sales", "final sales", "gifts", "refills",
                                 "zero mutinies")) > 0, seen
    assert max(r["rounds"] for r in rows) > min(r["rounds"] for r in rows)
    assert sum(r[f"sales_{s}"] for r in rows for s in range(players)) > len(rows)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_greedy(play, players):
    rows = [play(Rules(), "greedy", players, 2, g) for g in range(80)]
    assert not any(r["truncated"] for r in rows)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_planner(play, players):
    for g in range(12):
        play(Rules(), "planner", players, 3, g)


@pytest.mark.parametrize(("players", "policies"), [
    (3, "greedy,random,planner"),
    (4, "random,greedy,random,greedy"),
    (4, "planner,random,random,random"),
    (5, "random,planner,greedy,random,greedy:captain_bonus=0"),
])
def test_invariants_policy_mixes(play, players, policies):
    for g in range(30):
        play(Rules(), policies, players, 4, g)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_invariants_presets(play, preset):
    rules = Rules.from_overrides(preset=preset)
    for players in (3, 4, 5):
        for g in range(15):
            play(rules, "random", players, 5, g)
        for g in range(3):
            play(rules, "greedy", players, 5, g)


OPTION_SETS = [
    {"if_return_to": "top", "if_pile_size": 5, "if_prices": "0,0,1,1,2"},
    {"if_return_to": "shuffle_in", "deck_counts": "4,4,4,4,4", "if_pile_size": 5},
    {"free_round_slots_exclusive": False, "market_slots_exclusive": False},
    {"free_round_resolution": "placement_order", "free_round_slots_exclusive": False},
    {"previous_action_rule": "same_captain_only", "mutiny_money_check": "resolution"},
    {"previous_action_rule": "none", "last_captain_mutiny": "forbidden"},
    {"pv_floor": "zero", "gift_once_per_player": False, "mutiny_pv": "-3,1,2,3"},
    {"treasure_roll_mode": "max_of_two", "treasure_modified_until_marker": 0,
     "treasure_counts": "1,1,1,1,1,1,1"},
    {"treasure_roll_mode": "sum_of_two", "treasure_ice_amount": 1,
     "treasure_captain_coin": False},
    {"ice_factory_roll": "two_d6", "ice_supply": 15, "start_ice": 3},
    {"ice_factory_roll": "d6_plus_1", "market_ice_cap": 2},
    {"auto_use_simple_treasures": False, "final_market_sales": False},
    {"sf_buy_mandatory": False, "sf_fifth_gets_blind": False, "sale_optional": False},
    {"hidden_hands": False, "final_tiebreak": "leftover_coin_then_fewer_ice"},
    {"fish_icons_rule": "colour_table", "fish_icons": "0,2,2,1,3",
     "fish_prices": "0,1,1,1,2,0,0,0,0,3"},
    {"start_money_by_seat": "0,10,-1,2,-1", "first_captain_seat": 2, "start_ice": 0},
    {"gift_thresholds": "3,6,9,12", "num_mutinies": 5, "final_tiebreak": "shared"},
    {"deck_counts": "20,2,2,2,0", "treasure_counts": "6,0,0,6,0,0,0", "max_rounds": 50},
]


@pytest.mark.parametrize("overrides", OPTION_SETS, ids=lambda o: ",".join(o))
def test_invariants_rule_options(play, overrides):
    rules = Rules.from_overrides(overrides)
    for players in (3, 4, 5):
        for g in range(10):
            play(rules, "random", players, 6, g)
        play(rules, "greedy", players, 6, 0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants_truncated_games(play, players):
    rules = Rules(max_rounds=50)
    for g in range(12):
        makers = [NoMutiny(Rng(7, g, POLICY + s)) for s in range(players)]
        row = play(rules, "random", players, 7, g, makers=makers)
        assert row["truncated"] == 1 and row["rounds"] == 51 and row["mutinies"] == 0
    ck = play.state["last"]
    assert ck.free_rounds == 1 and all(x[0] == NORMAL for x in ck.rounds)


# ================================================================ invariant 12: determinism


@pytest.mark.parametrize(("players", "policies"), [(3, "random"), (4, "greedy"),
                                                   (5, "planner,random,greedy,random,random")])
def test_same_seed_and_game_give_the_same_row(play, players, policies):
    pols = GAME.seat_policies(policies, players)
    rules = Rules()
    for g in (0, 7):
        row = GAME.reference(rules, pols, players, 99, g)
        assert GAME.reference(rules, pols, players, 99, g) == row
        # checked, hooked and narrated play is the same game
        assert play(rules, policies, players, 99, g) == row
        lines, record = GAME.narrate(rules, pols, players, 99, g)
        assert record["outcome"] == row and lines
    rows = {tuple(GAME.reference(rules, pols, players, seed, 0).values())
            for seed in range(6)}
    assert len(rows) > 1
