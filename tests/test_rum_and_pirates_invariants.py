"""Rum & Pirates invariants (spec §10) on thousands of reference games: every player count 2-5,
random layouts, random, greedy and mixed seats, a few rollout games, and every rule option's
non-default value.

Every game runs with ``checking=True``: ``Table.check`` asserts invariants 1-8, 10, 12 and 14
after every action, move, turn, round start and end, bunk fight and the scoring, and the bunk
fight asserts 9 pass by pass. On top of that this file checks the outcome row against the final
table, the rendezvous fulfilments of invariant 13 against the machine events, the start players
of 14, replay (the same seed and game give the same row), termination (11: no round reaches
``max_turns_per_round``), and the never-seen / always-seen facts of §11.13 that are cheap.
"""

from __future__ import annotations

import pytest

from engines._rng import POLICY, WORLD, Rng
from engines.rum_and_pirates import CATEGORIES, GAME, data
from engines.rum_and_pirates import policies as pol
from engines.rum_and_pirates import reference as ref
from engines.rum_and_pirates.rules import Rules

GAMES = 150   # per player count and policy mix


def makers(kinds: str, seed: int, game: int) -> list:
    out = []
    for s, k in enumerate(kinds):
        rng = Rng(seed, game, POLICY + s)
        if k == "r":
            out.append(pol.RandomPolicy(rng))
        elif k == "g":
            out.append(pol.GreedyPolicy())
        else:
            out.append(pol.RolloutPolicy(rng, samples=1, width=2))
    return out


def play(rules: Rules, kinds: str, seed: int, game: int, narrate: bool = False):
    t = ref.play_game(rules, len(kinds), makers(kinds, seed, game), Rng(seed, game, WORLD),
                      narrate=narrate, checking=True)
    row = ref.outcome(t, game)
    check_row(t, row)
    if narrate:
        check_events(t)
    return t, row


def check_row(t, row) -> None:
    P = t.players
    assert list(row) == [c.name for c in GAME.columns(P)]
    for s, p in enumerate(t.seats):
        assert row[f"score_{s}"] == sum(row[f"vp_{c}_{s}"] for c in CATEGORIES)
        assert row[f"score_{s}"] == ref.score(t.rules, p)
        assert row[f"bunk_{s}"] <= t.round
        assert row[f"scorpions_{s}"] * t.rules.scorpion_value == row[f"vp_scorpions_{s}"]
    assert sum(row[f"win_{s}"] for s in range(P)) == pytest.approx(1.0)
    assert 1 <= row["tied_first"] <= P
    assert row["rounds"] == t.rules.num_rounds
    assert row["turns"] == sum(row[f"turns_r{r}"] for r in range(1, 6))
    assert row["max_round_turns"] == max(row[f"turns_r{r}"] for r in range(1, 6))
    assert row["max_round_turns"] < t.rules.max_turns_per_round
    assert row["forced_dark_moves"] <= row["dark_moves"] <= row["moves"]
    assert row["bunk_hopeless_rerolls"] <= row["bunk_rerolls"] <= row["rerolls"] <= row["rolls"]
    # every turn is a move turn, a rest or a boarding (plus lone move turns)
    assert row["turns"] >= row["rests"]


def check_events(t) -> None:
    """Invariant 13 (a fulfilment only on the holder's own move onto a matching corner, at
    most one per arrival) and 14 (start players, mast rows in boarding order)."""
    last_move = None
    fulfilled_here = False
    r = t.rules
    for e in t.events:
        kind = e["event"]
        if kind == "move":
            last_move, fulfilled_here = e, False
        elif kind == "rendezvous_fulfilled":
            assert last_move is not None and last_move["seat"] == e["seat"]
            assert data.rdv_matches(e["target"], last_move["dest"])
            assert not fulfilled_here
            fulfilled_here = True
        elif kind in ("rest", "board", "round"):
            last_move = None
        if kind == "round":
            assert e["start"] == (r.first_start_seat + e["round"] - 1) % t.players


# ---------------------------------------------------------------- the policy mixes

MIXES = {
    2: ("rr", "gg", "gr"),
    3: ("rrr", "ggg", "rgr"),
    4: ("rrrr", "gggg", "grrr"),
    5: ("rrrrr", "ggggg", "rrgrg"),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_random_greedy_and_mixed(players):
    facts = {"dark": 0, "games": 0}
    for m, kinds in enumerate(MIXES[players]):
        for g in range(GAMES):
            t, row = play(Rules(), kinds, 100 + m, g, narrate=g < 10)
            facts["games"] += 1
            # §11.13: always a boarding and a lone-player turn; never a stuck dead end,
            # a relocation past the second candidate, a round over 28 turns, an empty map,
            # supplies, rendezvous or small-guard stack, a map display under 4
            assert any(p.sleeping for p in t.seats), "nobody ever boarded"
            assert t.count.get("lone_turns", 0) >= 1
            assert t.count.get("dead_end_stuck", 0) == 0
            assert not any(t.count.get(f"relocation_k{k}", 0) for k in range(3, 10))
            assert row["max_round_turns"] <= 28
            for name in ("maps", "supplies", "rendezvous", "small_guards"):
                assert t.stacks[name], f"{name} ran out"
            assert len(t.map_display) == 4
            if kinds == "g" * players:
                assert row["rests"] == 0          # greedy never rests
            if kinds == "r" * players:
                facts["dark"] += row["dark_moves"] > 0
    assert facts["dark"] >= 0.9 * GAMES


def test_replay_is_identical():
    for kinds in ("rrgg", "grg", "rrrrr"):
        rows = [play(Rules(), kinds, 7, 3)[1] for _ in range(2)]
        assert rows[0] == rows[1]


def test_rollout_games():
    for kinds in ("xg", "rxg", "gxrg"):
        for g in range(2):
            play(Rules(), kinds, 11, g, narrate=True)
    play(Rules(num_rounds=2), "xx", 12, 0)


def test_rollout_horizon_game():
    rules = Rules(num_rounds=2)
    policies = [pol.RolloutPolicy(Rng(13, 0, POLICY), samples=1, width=2, horizon=1),
                pol.GreedyPolicy(), pol.RandomPolicy(Rng(13, 0, POLICY + 2))]
    t = ref.play_game(rules, 3, policies, Rng(13, 0, WORLD), checking=True)
    check_row(t, ref.outcome(t, 0))


# ---------------------------------------------------------------- every option's other values

OPTION_VALUES = [
    ("num_rounds", 3), ("num_rounds", 1),
    ("starting_coins_by_seat", (0, 1, 2, 3, 4)),
    ("starting_hand", 1), ("starting_hand", 15),
    ("first_start_seat", 1),
    ("hq_tile_position", "center"),
    ("tile_rotation", "none"),
    ("layout", tuple(x for pair in data.REFERENCE_LAYOUT for x in pair)),
    ("sleeping_tile_order", "ascending"), ("sleeping_tile_order", "descending"),
    ("bedroll_with_2_3_players", True),
    ("stop_after_move_boards", True),
    ("board_after_move_same_turn", True),
    ("move_again_coin", 0), ("move_again_coin", 2),
    ("rest_coin", 0), ("rest_coin", 2),
    ("dark_coin", 0), ("dark_coin", 2),
    ("forced_dark_free", False),
    ("forced_dark_by_affordability", True),
    ("dark_same_corner", True),
    ("lone_player_free_moves", False),
    ("dead_end_rule", "no_free_road_or_half"),
    ("dead_end_next_move_free", True),
    ("zero_hand_may_rest", True),
    ("rum_per_visit", 1), ("rum_per_visit", 4),
    ("rerolls_per_rum", 2),
    ("rum_supply", 12), ("rum_supply", 0),
    ("coin_supply", 15),
    ("supply_sell_coins", 0), ("supply_sell_coins", 3),
    ("map_price", 1),
    ("pub_take_rule", "highest_one"), ("pub_take_rule", "all_below"),
    ("pub_join_requires_active", True),
    ("guard_stack_visible", True),
    ("guard_win_rule", "greater_or_equal"),
    ("hq_dark_pair_any", False),
    ("reroll_window", "after_column"),
    ("scorpion_value", 0), ("scorpion_value", -3),
    ("bunk_tie_rule", "lower_wins"), ("bunk_tie_rule", "reroll"),
    ("bunk_elimination_order", "row_only"), ("bunk_elimination_order", "pirates_at_pass_start"),
    ("unawarded_sleeping_tiles", "return_to_bottom"),
    ("supply_scoring", "best_per_kind"),
    ("tiebreak", "most_coins"), ("tiebreak", "most_coins_then_rum"),
]


def test_every_option_is_listed():
    listed = {k for k, _ in OPTION_VALUES}
    fixed = {"rendezvous_target", "bunk_cross_packing", "max_turns_per_round"}  # one value
    assert {o.key for o in Rules.options()} - fixed <= listed


@pytest.mark.parametrize("key,value", OPTION_VALUES, ids=lambda x: str(x)[:20])
def test_invariants_under_option(key, value):
    rules = Rules.from_overrides({key: value})
    for g in range(12):
        players = 2 + g % 4
        if key == "coin_supply" and players == 5:
            players = 4
        kinds = ("r" * players, "g" * players, ("gr" * 3)[:players])[g % 3]
        play(rules, kinds, 200, g, narrate=g < 3)


def test_option_combinations_with_rerolls_and_limits():
    rules = Rules.from_overrides({"rerolls_per_rum": 2, "reroll_window": "after_column",
                                  "bunk_tie_rule": "reroll", "rum_supply": 12,
                                  "coin_supply": 15, "zero_hand_may_rest": True})
    for g in range(20):
        play(rules, ("rrg", "ggg", "rgrg", "ggggg")[g % 4], 300, g)


def test_zero_hand_may_rest_counts_as_active():
    rules = Rules.from_overrides({"zero_hand_may_rest": True})
    t = ref.setup(rules, 3, Rng(1, 0, WORLD))
    p = t.seats[0]
    p.hand, p.coins = 0, 1
    assert t.active(0)
    assert ref.turn_options(t, 0) == [ref.REST]
    p.coins = 0
    assert not t.active(0)


def snapshot(t) -> str:
    seats = [(p.hand, p.reserve, p.coins, p.rum, p.boarded, p.pubs, p.maps, p.supplies, p.drawn,
              p.rdv, p.sleeping) for p in t.seats]
    return repr((seats, t.stacks, t.road_owner, t.dark_owner, t.pub_display, t.map_display,
                 t.chest, t.scorpion, t.captain, t.mast, t.cur, t.in_turn, t.count,
                 t.world.s))


def test_rollout_decisions_leave_the_table_alone():
    """A rollout's playouts run on clones: the table, its world and the other seats' streams
    are as they were; the deciding seat drew exactly ``samples`` words per rollout."""

    class Watch(pol.RolloutPolicy):
        def decide(self, t, seat, options, decision, again):
            before, draws = snapshot(t), self.rng.draws
            n = len(self.candidates(t, seat, options, again))
            choice = super().decide(t, seat, options, decision, again)
            assert snapshot(t) == before
            assert self.rng.draws - draws == (self.samples if n > 1 else 0)
            self.rollouts += n > 1
            return choice

    watch = Watch(Rng(21, 0, POLICY), samples=2, width=3)
    watch.rollouts = 0
    policies = [watch, pol.GreedyPolicy(), pol.RandomPolicy(Rng(21, 0, POLICY + 2))]
    t = ref.play_game(Rules(num_rounds=2), 3, policies, Rng(21, 0, WORLD), checking=True)
    check_row(t, ref.outcome(t, 0))
    assert watch.rollouts >= 5
