"""21 Motines' rule options (spec §7), their defaults and presets, and their numeric encoding.

Every ``[assumed]`` detail of the spec is an option with the spec's default;
the component tables (deck, prices, icons, treasures, market prices,
per-position gains) are fixed-length integer lists holding the spec's
tables. ``Rules.encode()`` (``engines._rules``) flattens them into the int64
vector the fast path reads at the indices ``R = Rules.slots()``.

The player count is not a rule option: it is the run's ``players`` (3-5,
default 4, declared in ``GameInfo``). Deck and treasure totals are free (the
spec's 54 and 24 are the defaults), so a house rule may add jokers.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines._rules import RulesBase, RulesError, option
from engines.motines import data

ICE_FACTORY_ROLL = ("d6_plus_2", "d6_plus_1", "two_d6")
TREASURE_ROLL_MODE = ("die_a", "max_of_two", "sum_of_two")
FISH_ICONS_RULE = ("equals_ice_price", "colour_table")
IF_RETURN_TO = ("bottom", "top", "shuffle_in")
MUTINY_MONEY_CHECK = ("placement", "resolution")
PREVIOUS_ACTION_RULE = ("previous_round", "same_captain_only", "none")
LAST_CAPTAIN_MUTINY = ("pv_only", "forbidden")
FREE_ROUND_RESOLUTION = ("box_order", "placement_order")
PV_FLOOR = ("none", "zero")
FINAL_TIEBREAK = ("leftover_coin_then_shared", "leftover_coin_then_fewer_ice", "shared")
BY_RULE = -1  # start_money_by_seat entry: the seat's money follows start_money_captain/_other


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every 21 Motines rule option (spec §7). Defaults are the spec's reading."""

    # ---- length and set-up
    num_mutinies: int = option(21, "mutinies that end the normal rounds (the Mutinies track's "
                               "final space)", low=1, high=40)
    treasure_modified_until_marker: int = option(
        5, "treasures are replaced by +1$ +1 PV while the Mutinies marker is below this",
        low=0, high=40)
    start_money_captain: int = option(3, "$ the first Captain starts with", low=0, high=10)
    start_money_other: int = option(4, "$ every other player starts with", low=0, high=10)
    start_money_by_seat: tuple = option(
        (BY_RULE,) * data.MAX_PLAYERS, "$ each seat 0-4 starts with (-1: start_money_captain "
        "or start_money_other)", length=data.MAX_PLAYERS, low=BY_RULE, high=30, kind="intlist")
    start_ice: int = option(1, "ice each player takes from the supply at set-up", low=0, high=3)
    first_captain_seat: int = option(0, "the seat that is the first Captain", low=0, high=4)
    # at least 15: start_ice (at most 3) for 5 players always fits
    ice_supply: int = option(data.SUPPLY_ICE, "ice cubes in the game (a hard limit)",
                             low=15, high=60)
    # ---- fish
    deck_counts: tuple = option(data.DEFAULT_DECK, "fish cards of each colour: red, blue, "
                                "purple, yellow, joker", length=5, low=0, high=40,
                                kind="intlist")
    fish_prices: tuple = option(data.DEFAULT_FISH_PRICES, "Selective fishing price of each "
                                "colour as ice, $ pairs: red, blue, purple, yellow, joker",
                                length=10, group=2, low=0, high=5, kind="intlist")
    fish_icons_rule: str = option("equals_ice_price", "ice icons on a card: the ice part of "
                                  "its price, or the fish_icons table", choices=FISH_ICONS_RULE)
    fish_icons: tuple = option(data.DEFAULT_FISH_ICONS, "ice icons on a card of each colour "
                               "(read under fish_icons_rule=colour_table); a treasure joker has "
                               "the joker's", length=5, low=0, high=4, kind="intlist")
    # ---- the Fish Market
    market_table: tuple = option(data.DEFAULT_MARKET, "$ of each sale, ANY2 ANY3 ANY4 SAME3 "
                                 "TWOPAIRS SAME4, each at ice levels 0/1, 2, 3, 4", length=24,
                                 group=4, low=0, high=99, kind="intlist")
    market_ice_cap: int = option(4, "most ice added to one sale", low=1, high=4)
    market_slots_exclusive: bool = option(True, "one pawn per Fish Market combination (false: "
                                          "several players may pick the same one)")
    sale_optional: bool = option(True, "a player on a sale may decline it (false: must sell "
                                 "when able)")
    # ---- Indiscriminate fishing
    if_prices: tuple = option(data.DEFAULT_IF_PRICES, "$ of a blind fish at positions 1-5",
                              length=5, low=0, high=5, kind="intlist")
    if_ice_gift: tuple = option(data.DEFAULT_IF_ICE, "free ice at positions 1-5", length=5,
                                low=0, high=3, kind="intlist")
    if_pile_size: int = option(10, "cards moved from the shoal when the Indiscriminate pile "
                               "is empty (10 are dealt to it at set-up)", low=5, high=20)
    if_return_to: str = option("bottom", "a returned blind fish goes to the bottom of the "
                               "pile, the top, or a random place in it", choices=IF_RETURN_TO)
    # ---- Selective fishing
    sf_display_size: tuple = option((4, 5, 5), "face-up display cards with 3, 4, 5 players",
                                    length=3, low=1, high=8, kind="intlist")
    sf_buy_mandatory: bool = option(True, "a player on a display card must buy it when able "
                                    "(false: may decline)")
    sf_fifth_gets_blind: bool = option(True, "position 5 takes a free blind fish (false: picks "
                                       "a display card like the others)")
    # ---- Ice Factory
    ice_factory_gifts: tuple = option(data.DEFAULT_ICE_GIFTS, "direct gains at positions "
                                      "1-5 as ice, $ pairs", length=10, group=2, low=0,
                                      high=5, kind="intlist")
    ice_factory_roll: str = option("d6_plus_2", "ice handed out: one die + 2, one die + 1, "
                                   "or two dice", choices=ICE_FACTORY_ROLL)
    # ---- Treasures
    treasure_thresholds: tuple = option(data.DEFAULT_TREASURE_THRESHOLDS, "die A must exceed "
                                        "this at positions 1-5 for a treasure", length=5,
                                        low=0, high=6, kind="intlist")
    treasure_roll_mode: str = option("die_a", "a treasure needs die A, the higher die, or the "
                                     "sum (against twice the threshold) above the threshold",
                                     choices=TREASURE_ROLL_MODE)
    treasure_captain_coin: bool = option(True, "position 1 gains 1$ when both dice exceed 1")
    treasure_ice_gift: tuple = option(data.DEFAULT_TREASURE_ICE, "free ice at positions 1-5 "
                                      "before the roll", length=5, low=0, high=3,
                                      kind="intlist")
    treasure_counts: tuple = option(data.DEFAULT_TREASURES, "treasure cards of each type: "
                                    "joker, ice, fish, market, 2 PV, 2$, 4 PV for 4$",
                                    length=7, low=0, high=20, kind="intlist")
    treasure_ice_amount: int = option(2, "ice an ice treasure gives", low=1, high=4)
    auto_use_simple_treasures: bool = option(True, "fish, 2 PV and 2$ treasures are used at "
                                             "the next window (false: the player decides)")
    # ---- Mutiny, captaincy, the last rounds
    mutiny_pv: tuple = option(data.DEFAULT_MUTINY_PV, "PV of Mutiny spaces 0-3 (space m "
                              "costs m$; space 0 also pays 1$)", length=4, low=-5, high=10,
                              kind="intlist")
    mutiny_money_check: str = option("placement", "a Mutiny space's price is checked when the "
                                     "pawn is placed, or only at resolution (then space 0)",
                                     choices=MUTINY_MONEY_CHECK)
    previous_action_rule: str = option("previous_round", "the Captain may not choose the "
                                       "previous round's action; only when Captain again; or "
                                       "no restriction", choices=PREVIOUS_ACTION_RULE)
    last_captain_mutiny: str = option("pv_only", "in the last Captain round a mutiny brings "
                                      "only its $/PV, or is not allowed",
                                      choices=LAST_CAPTAIN_MUTINY)
    free_round_slots_exclusive: bool = option(True, "in the free round Fish Market and Special "
                                              "Offers slots stay one pawn each")
    free_round_resolution: str = option("box_order", "the free round resolves box by box, or "
                                        "pawn by pawn in placement order",
                                        choices=FREE_ROUND_RESOLUTION)
    # ---- points and the end
    gift_thresholds: tuple = option(data.DEFAULT_GIFTS, "PV that bring the 1$, treasure, ice "
                                    "and blind-fish gifts (0: no such gift)", length=4, low=0,
                                    high=200, kind="intlist")
    gift_once_per_player: bool = option(True, "each gift at most once per player (false: at "
                                        "every upward crossing)")
    pv_floor: str = option("none", "PV may go negative, or never below 0", choices=PV_FLOOR)
    final_market_sales: bool = option(True, "unused market treasures may sell at final scoring")
    final_tiebreak: str = option("leftover_coin_then_shared", "equal PV: a leftover 1$ wins, "
                                 "then shared; or then fewer ice; or shared at once",
                                 choices=FINAL_TIEBREAK)
    hidden_hands: bool = option(True, "blind-drawn fish and treasures are private (false: "
                                "every hand is public, and policies count them)")
    max_rounds: int = option(200, "normal rounds after which a game without its last mutiny "
                             "goes to the free round (truncated)", low=50, high=1000)

    PRESETS = {
        "standard": ("the spec's default reading of the rules", {}),
        "short": ("11 mutinies instead of 21", {"num_mutinies": 11}),
        "very_short": ("7 mutinies, treasures real from the second",
                       {"num_mutinies": 7, "treasure_modified_until_marker": 2}),
        "equal_start_money": ("the first Captain starts with 4$ like everyone",
                              {"start_money_captain": 4}),
        "no_gifts": ("no points-track gifts", {"gift_thresholds": (0, 0, 0, 0)}),
        "mutiny_123": ("the literal reading of the Mutiny PV: 1/2/3 for 1$/2$/3$",
                       {"mutiny_pv": (-1, 1, 2, 3)}),
    }

    def check(self) -> None:
        if sum(self.deck_counts) < 20:
            raise RulesError(f"rule deck_counts={','.join(map(str, self.deck_counts))} has "
                             f"{sum(self.deck_counts)} cards; at least 20 are needed for the "
                             "display and the Indiscriminate pile")
        nonzero = [t for t in self.gift_thresholds if t]
        if len(set(nonzero)) != len(nonzero):
            raise RulesError(f"rule gift_thresholds={','.join(map(str, self.gift_thresholds))}"
                             ": two gifts at the same PV")

    def check_players(self, players: int) -> None:
        """The options that depend on the player count (raised when a game starts)."""
        if not 3 <= players <= data.MAX_PLAYERS:  # spec §7: 2 players are not defined
            raise RulesError(f"motines is played by 3-{data.MAX_PLAYERS} players, not {players}")
        if self.first_captain_seat >= players:
            raise RulesError(f"rule first_captain_seat={self.first_captain_seat} is not a seat "
                             f"of a {players}-player game (seats 0..{players - 1})")
        if self.display_size(players) + self.if_pile_size > sum(self.deck_counts):
            raise RulesError(f"rule deck_counts has {sum(self.deck_counts)} cards: too few for "
                             f"a display of {self.display_size(players)} and an "
                             f"Indiscriminate pile of {self.if_pile_size}")

    # ------------------------------------------------------------ derived facts

    def display_size(self, players: int) -> int:
        return self.sf_display_size[players - 3]

    def start_money(self, seat: int) -> int:
        by_seat = self.start_money_by_seat[seat]
        if by_seat != BY_RULE:
            return by_seat
        return self.start_money_captain if seat == self.first_captain_seat \
            else self.start_money_other

    def icons(self, colour: int) -> int:
        """Ice icons on a fish card of ``colour`` (a treasure joker: the joker's)."""
        if self.fish_icons_rule == "equals_ice_price":
            return self.fish_prices[2 * colour]
        return self.fish_icons[colour]

    def price(self, colour: int) -> tuple[int, int]:
        """(ice, $) a display card of ``colour`` costs."""
        return self.fish_prices[2 * colour], self.fish_prices[2 * colour + 1]

    def market_price(self, combo: int, x: int) -> int:
        """$ of a sale of ``combo`` with ``x`` ice (level '0/1' for x <= 1)."""
        level = 0 if x <= 1 else x - 1
        return self.market_table[data.MARKET_LEVELS * combo + level]

    def ice_rolls(self) -> list[tuple[int, int]]:
        """The Ice Factory's N with its weight (out of 36 for two dice, else 6)."""
        if self.ice_factory_roll == "two_d6":
            return [(a + b, 1) for a in range(1, 7) for b in range(1, 7)]
        plus = 2 if self.ice_factory_roll == "d6_plus_2" else 1
        return [(d + plus, 1) for d in range(1, 7)]


# The fast path's indices into Rules.encode() (R.<option>), derived from the options.
R = Rules.slots()
