"""Rum Runner's rule options (spec §7), their defaults and presets, and their numeric encoding.

Every choice the rules sheet leaves open is an option here with the spec's
default; nothing about the rules is a silent constant elsewhere.
``Rules.encode()`` (from ``engines._rules``) flattens the options and the
``DERIVED`` facts into the int64 vector the fast path reads, at the indices
``R = Rules.slots()``: ``R.draw_count``, ``R.wrap``, ...
"""

from __future__ import annotations

from dataclasses import dataclass

from engines._rules import RulesBase, RulesError, option

START_END = ("choose", "left", "right", "random")
PORT_TOPOLOGY = ("line", "ring")
MULTI_CARD_MODE = ("sequential", "combined")
BOUNCE_MODE = ("reflect", "stop_at_end", "wrap")
FLIPPED_PORT_EFFECT = ("replenish_only", "replenish_and_collect", "nothing")
REPLENISH_AMOUNT = ("card_value", "turn_steps", "cards_played_this_turn")
DRAW_WHEN_SHORT = ("take_remaining", "forbid")
SUIT_SET_MODE = ("additive", "exclusive")
PAIR_RULE = ("disjoint", "all_if_two_or_more")
EDGE_RULE = ("lower_inclusive", "upper_inclusive")

# The six score bands as the rules sheet prints them (spec §5.3), its words exactly.
BAND_LABELS = (
    "Completely broke.",
    "Poor with a few pennies left.",
    "A modest profit.",
    "You are well off.",
    "You're rich beyond dreams.",
    "You have become a god.",
)
# The one name of each band, everywhere a band is named (pages, the CLI, goals, figures,
# the reference trace): the key words of the sheet's line for it, lower case.
BAND_NAMES = ("broke", "poor", "modest profit", "well off", "rich", "god")


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every Rum Runner rule option (spec §7). Defaults are the spec's reading of the sheet."""

    start_end: str = option("choose", "which end the boat starts on: the player's choice (D1), "
                            "a fixed end, or a coin flip", choices=START_END)
    port_topology: str = option("line", "the snake of ports is a line with two ends, or a ring "
                                "with none (a ring is the same rule as bounce_mode=wrap)",
                                choices=PORT_TOPOLOGY)
    flipped_ports_count_as_spaces: bool = option(
        True, "closed ports still count as spaces when moving (false: steps skip to open ports)")
    multi_card_mode: str = option("sequential", "same-number cards in one turn move and land one "
                                  "at a time, or are summed into one move", choices=MULTI_CARD_MODE)
    bounce_mode: str = option("reflect", "at an end: leftover steps continue in reverse, are "
                              "lost, or wrap to the other end", choices=BOUNCE_MODE)
    flipped_port_effect: str = option("replenish_only", "what landing on a closed port does",
                                      choices=FLIPPED_PORT_EFFECT)
    replenish_amount: str = option("card_value", "cards returned to the deck by a closed-port "
                                   "landing: the card's value, all steps this turn, or cards "
                                   "played this turn", choices=REPLENISH_AMOUNT)
    replenish_includes_played_card: bool = option(
        True, "the card just played is in the discard when it is shuffled for replenishment")
    exhausted_pile_take: int = option(3, "movement cards taken from the deck into the collection "
                                      "on landing at an exhausted rum pile", low=0, high=16)
    draw_count: int = option(3, "cards taken by the DRAW action", low=1, high=16)
    draw_when_short: str = option("take_remaining", "DRAW with fewer cards than draw_count left: "
                                  "take them, or DRAW is not allowed", choices=DRAW_WHEN_SHORT)
    flip_after_draw: bool = option(True, "a DRAW turn also ends with a port flip (false makes "
                                   "the game ~24 turns instead of 16)")
    flip_on_pass: bool = option(True, "a forced PASS turn also ends with a port flip")
    reshuffle_discard_when_deck_empty: bool = option(
        False, "an empty movement deck is rebuilt from the shuffled discard pile")
    hand_scores: bool = option(False, "cards left in hand at the end join the collection "
                               "before scoring")
    suit_set_mode: str = option("additive", "suit sets score on top of card values, or use the "
                                "cards exclusively (best split)", choices=SUIT_SET_MODE)
    suit_set_value: int = option(30, "points for each set of all four suits", low=-10_000,
                                 high=10_000)
    pair_rule: str = option("disjoint", "three of a rank score as pair + odd card, or all at "
                            "the paired rate once two are held", choices=PAIR_RULE)
    score_band_edges: tuple = option((200, 250, 300, 325, 350), "lower edges of the printed "
                                     "bands 1..5 (band 0 is 'Completely broke')", length=5,
                                     increasing=True)
    score_band_edge_rule: str = option("lower_inclusive", "a score equal to an edge belongs to "
                                       "the band above it, or the band below", choices=EDGE_RULE)
    win_threshold: int = option(200, "score counted as a win (not 'Completely broke')",
                                low=-10_000, high=10_000)
    end_on_stranded: bool = option(True, "end the game when nothing can change any more "
                                   "(false: pass on until max_turns)")
    max_turns: int = option(200, "safety cap on the number of turns", low=16, high=100_000)

    PRESETS = {
        "standard": ("the spec's default reading of the rules sheet", {}),
        "long": ("DRAW turns do not flip a port: about 24 turns, scores nearer the printed "
                 "bands", {"flip_after_draw": False}),
        "combined": ("same-number cards summed into one move with one landing",
                     {"multi_card_mode": "combined"}),
        "exclusive_sets": ("suit sets use their cards exclusively (best split)",
                           {"suit_set_mode": "exclusive"}),
    }

    # Facts the fast path reads that combine options (each one int64 slot of Rules.encode()).
    DERIVED = {
        # A ring of ports and bounce_mode=wrap are the same rule (spec §7).
        "wrap": lambda r: r.wraps,
        "stop_at_end": lambda r: r.bounce_mode == "stop_at_end" and not r.wraps,
    }

    def check(self) -> None:
        if len(self.score_band_edges) != 5:
            raise RulesError("rule score_band_edges needs 5 increasing integers")

    # ------------------------------------------------------------ derived facts

    @property
    def wraps(self) -> bool:
        """A ring of ports and bounce_mode=wrap are the same rule (spec §7)."""
        return self.port_topology == "ring" or self.bounce_mode == "wrap"

    def band(self, score: int) -> int:
        """Band index 0..5 of a final score (spec §5.3)."""
        lower = self.score_band_edge_rule == "lower_inclusive"
        band = 0
        for edge in self.score_band_edges:
            if score >= edge if lower else score > edge:
                band += 1
        return band


# The fast path's indices into Rules.encode() (R.<option>, R.wrap, ...), derived from the options.
R = Rules.slots()
