"""Montego Bay invariants (spec §8) after every move, barrel, sail, removal and phase,
over thousands of reference games: P = 2, 3, 4, every policy and mixes, presets and options.
"""

from __future__ import annotations

import pytest

from engines._play import decision_makers
from engines._rng import WORLD, Rng
from engines.montego_bay import GAME
from engines.montego_bay import reference as ref
from engines.montego_bay.board import LEFT_PUB, RIGHT_PUB, SUPPLY, WITH_COMPANION
from engines.montego_bay.rules import Rules

PHASES = ("phase1", "phase2", "phase3", "phase4", "phase5", "phase6")


class Checker:
    """An observer that checks spec §8 on the table after every step of one game."""

    def __init__(self, t: ref.Table):
        self.rules = t.rules
        self.players = t.players
        self.n_ships = t.rules.freight_ships + 1
        self.vp = list(t.vp)
        self.rail = list(t.rail)
        self.reshuffles = 0
        self.last = "setup"
        self.on_path_at_phase3: dict[int, int] = {}
        self.resolved: list[int] = []
        self.events_seen = 0
        self.steps = 0

    def __call__(self, t: ref.Table, what: str) -> None:
        self.steps += 1
        rules = self.rules
        P = self.players
        # 1. Barrels.
        for s in range(P):
            assert t.stock[s] >= 0
            assert t.stock[s] + t.aboard(s) == rules.barrels_per_player
        # 2. Coins.
        assert all(c >= 0 for c in t.coins) and t.bank >= 0
        assert t.bank + sum(t.coins) == rules.bank_coins
        # 3. Ships: counted once each; the pilot only at pier 1, empty; at most four piers.
        assert len(t.piers) + len(t.stack_a) + len(t.stack_b) + len(t.departed) == self.n_ships
        assert len(t.piers) <= 4
        names = [s.name for s in t.piers + t.stack_a + t.stack_b + t.departed]
        assert len(set(names)) == self.n_ships
        for j, ship in enumerate(t.piers):
            if ship.pilot:
                assert j == 0 and ship.load == 0
            assert all(b >= 0 for b in ship.barrels)
        # 4. Capacity: never over; a full ship is only ever seen right after its last barrel.
        for ship in t.piers:
            assert ship.pilot or ship.load <= ship.capacity
            if what != "barrel":
                assert not ship.full
        for ship in t.departed + t.stack_a + t.stack_b:
            assert ship.load == 0
        # 5. Path: one figure per space; every figure somewhere legal.
        on_path = [q for q in t.loc if q >= 0]
        assert len(on_path) == len(set(on_path))
        assert all(q < t.board.length for q in on_path)
        for w in t.workers:
            assert t.loc[w.id] >= 0 or t.loc[w.id] == w.pub
            assert t.loc[w.id] >= 0 or t.loc[w.id] in (LEFT_PUB, RIGHT_PUB)
        assert t.loc[t.lazy_jack] >= 0 or t.loc[t.lazy_jack] in (SUPPLY, WITH_COMPANION)
        if t.lazy_jack_hirer is None:
            assert t.loc[t.lazy_jack] == SUPPLY
        # 6. Rail: a permutation of the workers in play.
        assert sorted(t.rail) == list(range(len(t.workers)))
        # 8. VP never decrease.
        assert all(now >= before for now, before in zip(t.vp, self.vp, strict=True))
        self.check_events(t)
        self.vp = list(t.vp)
        if what == "phase2":
            self.check_cards(t)
        if what == "phase3":
            # End spaces (path_end_spaces) have no room: the Tally-Man skips them.
            self.on_path_at_phase3 = {q: f for f, q in enumerate(t.loc)
                                      if q >= 0 and t.board.room_at[q] is not None}
            self.resolved = []
        if what == "phase4":
            # 10. Each figure in front of a room resolved exactly once; pubs never.
            assert sorted(self.resolved) == sorted(self.on_path_at_phase3.values())
        if what == "phase6":
            self.check_rail(t)
            assert t.loc[t.lazy_jack] == SUPPLY
            assert t.round <= rules.max_rounds
        if what == "end":
            # 9. The game ended in Phase 5, within the bound.
            assert self.last == "phase5" and t.game_over
            assert t.round <= rules.max_rounds
            assert len(t.piers) <= rules.end_threshold
            assert sum(t.win) == pytest.approx(1.0)
        if what in PHASES or what in ("setup", "end"):
            self.last = what
        if what in ("phase1", "setup"):
            self.rail = list(t.rail)

    def check_cards(self, t: ref.Table) -> None:
        # 7. Every figure in play has a value 1..5; Lazy Jack's differs from his companion's.
        for w in t.workers:
            assert 1 <= t.cards[w.id] <= 5
        if t.lazy_jack_hirer is not None:
            assert 1 <= t.cards[t.lazy_jack] <= 5
            if self.rules.lazy_jack_distinct_card:
                assert t.cards[t.lazy_jack] != t.cards[t.lazy_jack_companion]
        else:
            assert t.cards[t.lazy_jack] == 0

    def check_rail(self, t: ref.Table) -> None:
        # 6. The rail changes only by the rotation or the re-draw.
        if t.reshuffles > self.reshuffles:
            self.reshuffles = t.reshuffles
            assert sorted(t.rail) == sorted(self.rail)
            if self.rules.reshuffle_rule == "once":
                assert t.reshuffles == 1
        else:
            assert t.rail == [self.rail[-1]] + self.rail[:-1]

    def check_events(self, t: ref.Table) -> None:
        events = t.events[self.events_seen:]
        self.events_seen = len(t.events)
        filler = None
        for e in events:
            if e["event"] == "resolve":
                self.resolved.append(t.lazy_jack if e["figure"] == "Lazy Jack" else
                                     next(w.id for w in t.workers if w.name == e["figure"]))
            if e["event"] == "sail_full":
                filler = e["filler"]
            if e["event"] == "score_ship":
                ship = next(s for s in t.departed + t.piers if s.name == e["ship"])
                v1 = ship.values[0]
                # 8. Each participant gets between 0 and v1; outsiders nothing.
                for n, p in zip(e["barrels"], e["points"], strict=True):
                    assert 0 <= p <= v1 and (n > 0 or p == 0)
                if e["why"] == "full":
                    # The filler gets exactly fill_bonus on top of the majority points.
                    gained = [now - before for now, before in zip(t.vp, self.vp, strict=True)]
                    expected = [p + (self.rules.fill_bonus if s == filler else 0)
                                for s, p in enumerate(e["points"])]
                    assert gained == pytest.approx(expected)


def play_checked(rules: Rules, policies: str, players: int, seed: int, game: int) -> dict:
    """One reference game with the checker watching; returns the outcome row."""
    pols = GAME.seat_policies(policies, players)
    world = Rng(seed, game, WORLD)
    t = ref.setup(rules, players, world)
    t.events = []
    checker = Checker(t)
    t = ref.play_game(rules, players, decision_makers(GAME, pols, seed, game), world,
                      observer=checker, table=t)
    row = ref.outcome(t, game)
    check_row(row, t, rules)
    assert checker.steps > 0
    return row


def check_row(row: dict, t: ref.Table, rules: Rules) -> None:
    P = t.players
    assert 1 <= row["rounds"] <= rules.max_rounds
    assert 0 <= row["ships_sailed_full"] <= row["ships_scored_total"] <= rules.freight_ships
    assert sum(row[f"win_{s}"] for s in range(P)) == pytest.approx(1.0)
    assert [row[f"coins_{s}"] for s in range(P)] == t.coins
    hires = sum(row[f"lazy_jack_hires_{s}"] for s in range(P))
    assert row["lazy_jack_blocked"] <= hires <= row["rounds"]
    assert 0 <= row["first_rail_seat"] < P
    assert sorted(row[f"first_rail_pos_{s}"] for s in range(P))[0] == 1
    best = max(row[f"score_{s}"] for s in range(P))
    for s in range(P):
        assert (row[f"win_{s}"] > 0) <= (row[f"score_{s}"] == best)


# ---------------------------------------------------------------- the runs


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_random(players):
    rules = Rules()
    rounds = [play_checked(rules, "random", players, 1, g)["rounds"] for g in range(400)]
    assert max(rounds) <= 14


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_greedy(players):
    rules = Rules()
    for g in range(60 if players == 2 else 100):
        play_checked(rules, "greedy", players, 2, g)


@pytest.mark.parametrize("players, policies", [
    (2, "sampler:n_samples=2"),
    (3, "sampler:n_samples=2:q_myopic=0.2"),
    (4, "sampler:n_samples=1:q_myopic=0.8"),
    (3, "sampler:n_samples=3,greedy,random"),
])
def test_invariants_sampler(players, policies):
    for g in range(8):
        play_checked(Rules(), policies, players, 3, g)


@pytest.mark.parametrize("players, policies", [
    (2, "greedy,random"), (3, "random,greedy,random"), (4, "greedy,random,greedy,random"),
    (4, "random,random,random,greedy"),
])
def test_invariants_policy_mixes(players, policies):
    for g in range(60):
        play_checked(Rules(), policies, players, 4, g)


@pytest.mark.parametrize("preset", ["standard", "short", "no_lazy_jack", "auction_jack",
                                    "two_workers_2p"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_presets(preset, players):
    rules = Rules.from_overrides({}, preset=preset)
    rows = [play_checked(rules, "random", players, 5, g) for g in range(70)]
    rows += [play_checked(rules, "greedy", players, 5, g) for g in range(8)]
    if preset == "no_lazy_jack":
        assert all(r[f"lazy_jack_hires_{s}"] == 0 for r in rows for s in range(players))
    if preset == "short":
        assert all(r["rounds"] <= 8 for r in rows)


OPTION_SETS = [
    {"path_end_spaces": 1, "pub_entry": "left_bottom"},
    {"path_end_spaces": 2, "resolution_order": "warehouse_columns"},
    {"lazy_jack_tiebreak": "random", "lazy_jack_distinct_card": False,
     "lazy_jack_collects_coin": False, "lazy_jack_cost": 2},
    {"lazy_jack_blocked": "stay_with_companion_unresolved", "start_coins_by_seat": "3,3,3,3"},
    {"lazy_jack_allocation": "auction", "lazy_jack_tiebreak": "fewer_coins",
     "start_coins_by_seat": "0,1,5,2"},
    {"start_coins_by_place": "2,0,3,1", "start_coins_by_seat": "1,1,0,0", "lazy_jack_cost": 2},
    {"must_load_all": False, "load_count": "while_stock", "barrels_per_player": 8},
    {"tie_rounding": "exact_fraction", "majority_zero_mode": "lowest_loader_zero"},
    {"tie_rounding": "floor", "fill_bonus": 2, "end_threshold": 2, "final_tiebreak": "shared"},
    {"reshuffle_rule": "every_round_drawing_b", "freight_ships": 10, "stack_b_size": 7},
    {"reshuffle_rule": "never", "tile_orientation_random": False, "bank_coins": 10},
    {"two_player_extra_workers": "both_big", "fill_bonus": 0},
    {"two_player_extra_workers": "both_small", "freight_ships": 6, "stack_b_size": 0},
]


@pytest.mark.parametrize("overrides", OPTION_SETS, ids=lambda o: ",".join(o))
def test_invariants_rule_options(overrides):
    rules = Rules.from_overrides(overrides)
    for players in (2, 3, 4):
        for g in range(25):
            play_checked(rules, "random", players, 6, g)
        for g in range(4):
            play_checked(rules, "greedy", players, 6, g)
    play_checked(rules, "sampler:n_samples=1", 3, 6, 0)
