"""Rum & Pirates' rule options (spec §9), their defaults and presets, and their numeric encoding.

Every ``[assumed]`` reading of the spec, and every place where its sources
disagree, is an option with the spec's default. ``Rules.encode()``
(``engines._rules``) flattens them into the int64 vector the fast path reads
at the indices ``R = Rules.slots()``.

The player count is not a rule option: it is the run's ``players`` (2-5,
default 4, declared in ``GameInfo``); the per-count set-up (bedrolls with 4-5
players) follows from it (§4).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines._rules import RulesBase, RulesError, option
from engines.rum_and_pirates import data

HQ_TILE_POSITION = ("random", "center")
TILE_ROTATION = ("random", "none")
SLEEPING_TILE_ORDER = ("shuffled", "ascending", "descending")
DEAD_END_RULE = ("no_legal_move", "no_free_road_or_half")
PUB_TAKE_RULE = ("choose_one", "highest_one", "all_below")
GUARD_WIN_RULE = ("greater", "greater_or_equal")
RENDEZVOUS_TARGET = ("kind",)
REROLL_WINDOW = ("immediate", "after_column")
BUNK_TIE_RULE = ("upper_wins", "lower_wins", "reroll")
BUNK_ELIMINATION_ORDER = ("last_roll_then_row", "row_only", "pirates_at_pass_start")
BUNK_CROSS_PACKING = ("pack_to_mast",)
UNAWARDED_SLEEPING_TILES = ("discard", "return_to_bottom")
SUPPLY_SCORING = ("distinct_numbers", "best_per_kind")
TIEBREAK = ("shared", "most_coins", "most_coins_then_rum")

UNLIMITED = -1     # coin_supply / rum_supply = unlimited: the bank never runs out
GENERATED = -1     # layout entries: draw the layout (§3.7) instead of using the given one


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every Rum & Pirates rule option (spec §9). Defaults are the spec's reading."""

    # ---- §9.1 game size and set-up
    num_rounds: int = option(5, "rounds played (each has one bunk, hammock and bedroll tile)",
                             low=1, high=5)
    starting_coins_by_seat: tuple = option(
        (2,) * data.MAX_PLAYERS, "coins each seat 0-4 starts with", length=data.MAX_PLAYERS,
        low=0, high=15, kind="intlist")
    starting_hand: int = option(10, "pirates in hand at the start (the other 15 - this wait "
                                "in the reserve)", low=1, high=15)
    first_start_seat: int = option(0, "the seat that starts round 1 (the youngest player)",
                                   low=0, high=data.MAX_PLAYERS - 1)
    hq_tile_position: str = option("random", "the headquarters tile lies anywhere, or in the "
                                   "centre", choices=HQ_TILE_POSITION)
    tile_rotation: str = option("random", "each tile is turned at random, or lies as printed",
                                choices=TILE_ROTATION)
    layout: tuple = option((GENERATED,) * 18, "a fixed board: tile and quarter-turns "
                           "clockwise of positions 0-8 as pairs (-1: draw a layout)",
                           length=18, group=2, low=GENERATED, high=9, kind="intlist")
    sleeping_tile_order: str = option("shuffled", "the order the bunk, hammock and bedroll "
                                      "tiles are revealed round by round",
                                      choices=SLEEPING_TILE_ORDER)
    bedroll_with_2_3_players: bool = option(False, "the bedroll (third place) is used with 2-3 "
                                            "players too")
    # ---- §9.2 turn and movement
    stop_after_move_boards: bool = option(False, "a player who stops moving boards at once "
                                          "(the seed's literal wording)")
    board_after_move_same_turn: bool = option(False, "after moving a player may board in the "
                                              "same turn")
    move_again_coin: int = option(1, "coins each extra move of a turn costs", low=0, high=10)
    rest_coin: int = option(1, "coins a rest costs", low=0, high=10)
    dark_coin: int = option(1, "coins a dark move costs", low=0, high=10)
    forced_dark_free: bool = option(True, "a dark move is free when the corner has no free road")
    forced_dark_by_affordability: bool = option(False, "a dark move is also free when no free "
                                                "road is affordable")
    dark_same_corner: bool = option(False, "a dark move may come back in at the corner it left")
    lone_player_free_moves: bool = option(True, "the last active player's extra moves cost no "
                                          "coin")
    dead_end_rule: str = option("no_legal_move", "a dead end is a corner with no legal move, "
                                "or with no free road and no free dark half",
                                choices=DEAD_END_RULE)
    dead_end_next_move_free: bool = option(False, "the move after a dead-end relocation costs "
                                           "no move-again coin")
    zero_hand_may_rest: bool = option(False, "a player with no pirates in hand stays active "
                                      "and rests while they can pay")
    # ---- §9.3 actions
    rum_per_visit: int = option(2, "rum tiles a visit of a rum corner gives", low=1, high=4)
    rerolls_per_rum: int = option(1, "successive re-rolls of one roll a rum tile buys (an "
                                  "unused second is lost)", low=1, high=2)
    rum_supply: int = option(UNLIMITED, "rum tiles in the bank (the box has 12)", low=0,
                             high=100, named=(("unlimited", UNLIMITED),))
    coin_supply: int = option(UNLIMITED, "coins in the game, held and in the bank (the box "
                              "has 15)", low=0, high=100, named=(("unlimited", UNLIMITED),))
    supply_sell_coins: int = option(2, "coins for selling a drawn pirate-supplies tile", low=0,
                                    high=10)
    map_price: int = option(0, "coins a treasure map costs (the seed says 'buy', no price)",
                            low=0, high=10)
    pub_take_rule: str = option("choose_one", "a pub roll takes one tile below it of the "
                                "roller's choice, the highest one, or every one",
                                choices=PUB_TAKE_RULE)
    pub_join_requires_active: bool = option(False, "only players still active are invited to a "
                                            "pub")
    guard_stack_visible: bool = option(False, "the top guard of each stack is seen before "
                                       "choosing")
    guard_win_rule: str = option("greater", "the hand must exceed the guard count, or reach it",
                                 choices=GUARD_WIN_RULE)
    hq_dark_pair_any: bool = option(True, "headquarters returns any two own dark halves (false: "
                                    "the two halves of one dark move)")
    rendezvous_target: str = option("kind", "a rendezvous names a corner kind",
                                    choices=RENDEZVOUS_TARGET)
    reroll_window: str = option("immediate", "re-roll right after one's own roll, or (bunk "
                                "fight) in sweeps once the whole column has rolled",
                                choices=REROLL_WINDOW)
    scorpion_value: int = option(-2, "VP of a scorpion chest", low=-10, high=0)
    # ---- §9.4 bunk fight and scoring
    bunk_tie_rule: str = option("upper_wins", "equal highest rolls in a column: the upper row "
                                "(earlier boarder) wins, the lower, or the tied re-roll",
                                choices=BUNK_TIE_RULE)
    bunk_elimination_order: str = option("last_roll_then_row", "players knocked out in one "
                                         "pass rank by their column-1 roll then row, by row, or "
                                         "by pirates at the pass start then row",
                                         choices=BUNK_ELIMINATION_ORDER)
    bunk_cross_packing: str = option("pack_to_mast", "a crossing pirate takes the free slot "
                                     "next to the mast in its row", choices=BUNK_CROSS_PACKING)
    unawarded_sleeping_tiles: str = option("discard", "sleeping tiles nobody reached leave the "
                                           "game, or go under their stack",
                                           choices=UNAWARDED_SLEEPING_TILES)
    supply_scoring: str = option("distinct_numbers", "pirate supplies score each distinct "
                                 "number once, or the best tile of each kind",
                                 choices=SUPPLY_SCORING)
    tiebreak: str = option("shared", "equal top scores share the win, or most coins wins "
                           "(then shared), or most coins then most rum", choices=TIEBREAK)
    # ---- engine safety (not a rule)
    max_turns_per_round: int = option(10_000, "turns after which a round is a bug (raises)",
                                      low=1, high=1_000_000)

    PRESETS = {
        "standard": ("the spec's default reading of the rules", {}),
        "short_4": ("4 rounds instead of 5", {"num_rounds": 4}),
        "short_3": ("3 rounds instead of 5", {"num_rounds": 3}),
        "rum_barrel_two_rerolls": ("a rum visit gives 1 tile, each buys up to two re-rolls",
                                   {"rum_per_visit": 1, "rerolls_per_rum": 2}),
        "late_sleeper_ties": ("bunk-fight ties go to the lower row (later boarder)",
                              {"bunk_tie_rule": "lower_wins"}),
        "supply_by_kind": ("pirate supplies score the best tile of each kind",
                           {"supply_scoring": "best_per_kind"}),
        "hq_center": ("the headquarters tile in the centre of the board",
                      {"hq_tile_position": "center"}),
        "component_limits": ("15 coins and 12 rum tiles, as in the box",
                             {"coin_supply": 15, "rum_supply": 12}),
        "reference_board": ("one fixed board for every game: the spec's reference layout "
                            "(§3.8, headquarters in the centre, no tile turned)",
                            {"layout": tuple(x for pair in data.REFERENCE_LAYOUT for x in pair)}),
    }

    def check(self) -> None:
        if self.fixed_layout() is None and any(x != GENERATED for x in self.layout):
            text = ",".join(map(str, self.layout))
            tiles = self.layout[0::2]
            if sorted(tiles) != list(range(1, 10)):
                raise RulesError(f"rule layout={text}: a board places each tile 1-9 once, as "
                                 "(tile, turns) pairs for positions 0-8; or -1 throughout to "
                                 "draw one")
            raise RulesError(f"rule layout={text}: each tile's turns are 0-3 (quarter-turns "
                             "clockwise)")
        if self.zero_hand_may_rest and self.rest_coin == 0:
            raise RulesError("rule zero_hand_may_rest=true needs rest_coin >= 1 (a free rest "
                             "without pirates would never end the round)")

    def check_restrictions(self, forced: set[str]) -> None:
        """The choices some seat is forced to take (engines._restrict), refused where the rules
        would let a forced seat go on for ever (READINGS.md, "Restricted play")."""
        if "rest" in forced and self.rest_coin == 0:
            raise RulesError("force=rest needs rest_coin >= 1: a seat forced to rest for free "
                             "would never end the round")
        if "dark_road" in forced and self.dark_same_corner:
            raise RulesError("force=dark_road cannot be played with dark_same_corner=true: a "
                             "seat forced to go dark could come back to the corner it left, "
                             "for ever, in one turn")

    def check_players(self, players: int) -> None:
        """The options that depend on the player count (raised when a game starts)."""
        if not 2 <= players <= data.MAX_PLAYERS:
            raise RulesError(f"rum-and-pirates is played by 2-{data.MAX_PLAYERS} players, not "
                             f"{players}")
        if self.first_start_seat >= players:
            raise RulesError(f"rule first_start_seat={self.first_start_seat} is not a seat of a "
                             f"{players}-player game (seats 0..{players - 1})")
        held = sum(self.starting_coins_by_seat[:players])
        if self.coin_supply != UNLIMITED and held > self.coin_supply:
            raise RulesError(f"rule coin_supply={self.coin_supply} is less than the "
                             f"{held} coins the {players} players start with")

    # ------------------------------------------------------------ derived facts

    def fixed_layout(self):
        """The layout given by the ``layout`` option, or None when it is to be drawn."""
        if all(x == GENERATED for x in self.layout):
            return None
        pairs = tuple(zip(self.layout[0::2], self.layout[1::2], strict=True))
        if sorted(t for t, _ in pairs) != list(range(1, 10)) or \
                not all(0 <= r <= 3 for _, r in pairs):
            return None
        return pairs

    def uses_bedroll(self, players: int) -> bool:
        return players >= 4 or self.bedroll_with_2_3_players

    def places(self, players: int) -> int:
        """Sleeping places awarded per round (bunk, hammock, and the bedroll if used)."""
        return 3 if self.uses_bedroll(players) else 2


# The fast path's indices into Rules.encode() (R.<option>), derived from the options.
R = Rules.slots()
