"""Montego Bay's rule options (spec §7), their defaults and presets, and their numeric encoding.

Every [assumed] detail of the spec is an option here with the spec's default;
the component tables (warehouse tiles, ships) are list options holding the
spec's tables. ``Rules.encode()`` (``engines._rules``) flattens the options
(the warehouse tiles included) and the ``DERIVED`` facts into the int64 vector
the fast path reads, at the indices ``R = Rules.slots()``; the ship table,
of no fixed length, follows it (``encode_ships``). ``encode_tiles`` and
``encode_ships`` give the two tables as int64 matrices.

The player count is not a rule option: it is the run's ``players`` (2-4,
default 3, declared in ``GameInfo``), so it cannot disagree with itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engines._rules import RulesBase, RulesError, option
from engines.montego_bay.data import (
    DEFAULT_SHIPS,
    DEFAULT_TILES,
    N_TILES,
    SHIP_FIELDS,
    TILE_FIELDS,
    room_problem,
    ships_from,
    tiles_from,
)

TWO_PLAYER_EXTRA = ("big_and_small", "both_big", "both_small")
PUB_ENTRY = ("standard", "left_bottom")
RESOLUTION_ORDER = ("tallyman_loop", "warehouse_columns")
RESHUFFLE_RULE = ("once", "every_round_drawing_b", "never")
LJ_ALLOCATION = ("fewest_vp", "auction")
LJ_TIEBREAK = ("rail_order", "fewer_coins", "random")
LJ_BLOCKED = ("to_supply", "stay_with_companion_unresolved")
LOAD_COUNT = ("fixed", "while_stock")
OVERFLOW_RULE = ("stay_in_stock",)
ZERO_MODE = ("beyond_printed", "lowest_loader_zero")
TIE_ROUNDING = ("ceil", "floor", "exact_fraction")
FINAL_TIEBREAK = ("coins_then_shared", "shared")

NEVER = 99  # lazy_jack_cost that no one can pay


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every Montego Bay rule option (spec §7). Defaults are the spec's reading."""

    # ---- set-up and figures
    workers_per_player_2p: int = option(3, "figures each player moves with 2 players (3: each "
                                        "also runs a worker of an unused colour)", low=2, high=3)
    two_player_extra_workers: str = option(
        "big_and_small", "with 2 players and 3 workers: seat 0 takes a spare big and seat 1 a "
        "spare small worker, or both big, or both small", choices=TWO_PLAYER_EXTRA)
    warehouse_tiles: tuple = option(
        DEFAULT_TILES, "the 8 warehouse tiles, each room A (good, broken, coin) then room B; "
        "2-3 players use the first 7", length=N_TILES * TILE_FIELDS, group=TILE_FIELDS,
        low=0, high=4, kind="intlist")
    tile_orientation_random: bool = option(True, "each placed tile shows room A north or south "
                                           "with even odds (false: room A always north)")
    # ---- board geometry
    path_end_spaces: int = option(0, "path spaces without a room at each end of the warehouse "
                                  "row (L = 2W + 2e)", low=0, high=2)
    pub_entry: str = option("standard", "where a card from the left pub lands: standard (value "
                            "k on index k-1) or left_bottom (in front of S0 first)",
                            choices=PUB_ENTRY)
    resolution_order: str = option("tallyman_loop", "the Tally-Man walks once round anticlock"
                                   "wise from the left end, or resolves each warehouse north "
                                   "then south, left to right", choices=RESOLUTION_ORDER)
    # ---- ships
    ship_table: tuple = option(DEFAULT_SHIPS, "the freight ships, each capacity, VP 1st/2nd/3rd "
                               "(2-3-player side), VP 1st/2nd/3rd (4-player side)",
                               group=SHIP_FIELDS, low=0, high=100, kind="intlist")
    freight_ships: int = option(15, "freight ships used (a random subset of the table when "
                                "fewer): 3 at the piers, the rest in stacks A and B",
                                low=6, high=15)
    stack_b_size: int = option(6, "ships in stack B, the last stack (0: the rail is never "
                               "re-drawn)", low=0, high=12)
    reshuffle_rule: str = option("once", "the rail is re-drawn once, in the round stack B is "
                                 "first drawn from; or in every round a stack-B ship is drawn; "
                                 "or never", choices=RESHUFFLE_RULE)
    # ---- Lazy Jack
    lazy_jack_cost: int = option(3, "coins paid to hire Lazy Jack (never: he cannot be hired)",
                                 low=2, high=5, named=(("never", NEVER),))
    lazy_jack_allocation: str = option("fewest_vp", "who gets Lazy Jack: asked in order of "
                                       "fewest VP at the fixed cost, or a sealed auction",
                                       choices=LJ_ALLOCATION)
    lazy_jack_tiebreak: str = option("rail_order", "fixed-price offer, among equal VP: earliest "
                                     "worker on the rail first, fewer coins first, or a random "
                                     "order (an auction's equal bids always go to fewest VP, "
                                     "then rail order)",
                                     choices=LJ_TIEBREAK)
    lazy_jack_distinct_card: bool = option(True, "Lazy Jack's card must differ from his "
                                           "companion's (one card of each value per set)")
    lazy_jack_collects_coin: bool = option(True, "Lazy Jack takes a room's coin (he never "
                                           "removes broken barrels)")
    lazy_jack_blocked: str = option("to_supply", "Lazy Jack left at his start goes back to the "
                                    "supply, or stays beside his companion; either way he does "
                                    "nothing that round", choices=LJ_BLOCKED)
    # ---- coins and barrels
    start_coins_by_seat: tuple = option((0, 0, 0, 0), "coins each seat starts with, taken "
                                        "from the bank", length=4, low=0, high=30,
                                        kind="intlist")
    start_coins_by_place: tuple = option(
        (0, 0, 0, 0), "coins each rail place starts with, on top of start_coins_by_seat: entry "
        "k goes to the player whose first worker stands k-th on the rail at set-up (turn "
        "order), taken from the bank", length=4, low=0, high=30, kind="intlist")
    bank_coins: int = option(15, "silver coins in the game", low=10, high=30)
    barrels_per_player: int = option(16, "barrels in each player's stock", low=8, high=20)
    must_load_all: bool = option(True, "every barrel a room gives must be loaded (false: the "
                                 "player may stop loading a room)")
    load_count: str = option("fixed", "barrels a room loads: min(good, stock) fixed before the "
                             "first barrel, or up to 'good' while the stock lasts",
                             choices=LOAD_COUNT)
    overflow_rule: str = option("stay_in_stock", "barrels no ship can take stay in stock",
                                choices=OVERFLOW_RULE)
    # ---- scoring
    fill_bonus: int = option(1, "VP for the barrel that fills a ship", low=0, high=2)
    majority_zero_mode: str = option("beyond_printed", "ranks beyond the 3 printed are worth 0, "
                                     "or the lowest group among 2+ groups of loaders gets 0",
                                     choices=ZERO_MODE)
    tie_rounding: str = option("ceil", "tied players share their ranks' VP rounded up, down, or "
                               "exactly (exact_fraction: fractional VP)", choices=TIE_ROUNDING)
    end_threshold: int = option(3, "the game ends in Phase 5 when this many ships or fewer "
                                "are at the piers", low=2, high=3)
    final_tiebreak: str = option("coins_then_shared", "equal VP: more coins wins, then a "
                                 "shared win; or shared at once", choices=FINAL_TIEBREAK)

    PRESETS = {
        "standard": ("the spec's default reading of the rules", {}),
        "short": ("9 freight ships, stacks of 3 + 3: a game of 3-4 rounds",
                  {"freight_ships": 9, "stack_b_size": 3}),
        "no_lazy_jack": ("Lazy Jack can never be hired", {"lazy_jack_cost": NEVER}),
        "auction_jack": ("Lazy Jack goes to the highest sealed bid",
                         {"lazy_jack_allocation": "auction"}),
        "two_workers_2p": ("with 2 players each moves only the big and small worker of the "
                           "colour", {"workers_per_player_2p": 2}),
    }

    # Facts the fast path reads that are computed from options (one int64 slot each).
    DERIVED = {
        "n_ships": lambda r: len(r.ship_table) // SHIP_FIELDS,  # rows of the ship table
        "max_rounds": lambda r: r.max_rounds,
    }

    def check(self) -> None:
        for tile in tiles_from(self.warehouse_tiles):
            for side, room in (("A", tile.room_a), ("B", tile.room_b)):
                problem = room_problem(room)
                if problem:
                    raise RulesError(f"rule warehouse_tiles: {tile.name} room {side}: {problem}")
        ships = ships_from(self.ship_table)
        if len(ships) < self.freight_ships:
            raise RulesError(f"rule ship_table has {len(ships)} ships but freight_ships="
                             f"{self.freight_ships} are used")
        for ship in ships:
            if ship.capacity < 1 or ship.capacity > 30:
                raise RulesError(f"rule ship_table: {ship.name} capacity {ship.capacity} is not "
                                 "in 1..30")
        if self.stack_b_size > self.freight_ships - 3:
            raise RulesError(f"rule stack_b_size={self.stack_b_size} is not allowed: at most "
                             f"freight_ships - 3 = {self.freight_ships - 3}")
        if sum(self.start_coins_by_seat) > self.bank_coins:
            raise RulesError(f"rule start_coins_by_seat={','.join(map(str, self.start_coins_by_seat))}"
                             f" needs more than bank_coins={self.bank_coins}")

    def check_players(self, players: int) -> None:
        """The options that depend on the player count (raised when a game starts)."""
        # Only the first P entries of each list are dealt: seat s gets its seat's coins, and
        # the player in rail place k (0 = earliest first worker) gets entry k by place.
        held = sum(self.start_coins_by_seat[:players]) + sum(self.start_coins_by_place[:players])
        if held > self.bank_coins:
            raise RulesError(f"rule start_coins_by_place="
                             f"{','.join(map(str, self.start_coins_by_place))} with "
                             f"start_coins_by_seat={','.join(map(str, self.start_coins_by_seat))}"
                             f" needs {held} coins for {players} players, more than "
                             f"bank_coins={self.bank_coins}")

    # ------------------------------------------------------------ derived facts

    @property
    def max_rounds(self) -> int:
        """The length bound (spec §4 'Length bound', §8.9): every round removes a ship."""
        return self.freight_ships + 2 - self.end_threshold

    def warehouses(self, players: int) -> int:
        return 8 if players == 4 else 7

    def workers_per_player(self, players: int) -> int:
        return self.workers_per_player_2p if players == 2 else 2

    def tiles(self, players: int):
        return tiles_from(self.warehouse_tiles)[:self.warehouses(players)]

    def ships(self):
        return ships_from(self.ship_table)


def encode_tiles(rules: Rules) -> np.ndarray:
    """int64[8, 6]: per tile room A (good, broken, coin), room B (good, broken, coin)."""
    return np.asarray(rules.warehouse_tiles, dtype=np.int64).reshape(-1, TILE_FIELDS)


def encode_ships(rules: Rules) -> np.ndarray:
    """int64[n, 7]: per freight ship capacity, VP 1-3 (2-3-player side), VP 1-3 (4-player side)."""
    return np.asarray(rules.ship_table, dtype=np.int64).reshape(-1, SHIP_FIELDS)


# The fast path's indices into Rules.encode() (R.<option>, R.n_ships, ...), derived from the options.
R = Rules.slots()
