"""Rum Runner's rule options (spec §7), their defaults and presets, and their numeric encoding.

Every choice the rules sheet leaves open is an option here with the spec's
default; nothing about the rules is a silent constant elsewhere.
``Rules.encode()`` flattens the options into the int64 vector the fast path
reads, at the indices named ``R_*`` below.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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

BAND_LABELS = (
    "Completely broke.",
    "Poor with a few pennies left.",
    "A modest profit.",
    "You are well off.",
    "You're rich beyond dreams.",
    "You have become a god.",
)


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

    def encode(self) -> np.ndarray:
        """The options as the int64 vector the fast path reads (indices R_*)."""
        r = np.zeros(R_SIZE, dtype=np.int64)
        r[R_START_END] = START_END.index(self.start_end)
        r[R_WRAP] = int(self.wraps)
        r[R_COUNT_CLOSED] = int(self.flipped_ports_count_as_spaces)
        r[R_COMBINED] = MULTI_CARD_MODE.index(self.multi_card_mode)
        r[R_STOP_AT_END] = int(self.bounce_mode == "stop_at_end" and not self.wraps)
        r[R_CLOSED_EFFECT] = FLIPPED_PORT_EFFECT.index(self.flipped_port_effect)
        r[R_REPLENISH_AMOUNT] = REPLENISH_AMOUNT.index(self.replenish_amount)
        r[R_REPLENISH_INCLUDES] = int(self.replenish_includes_played_card)
        r[R_EXHAUSTED_TAKE] = self.exhausted_pile_take
        r[R_DRAW_COUNT] = self.draw_count
        r[R_DRAW_FORBID_SHORT] = DRAW_WHEN_SHORT.index(self.draw_when_short)
        r[R_FLIP_AFTER_DRAW] = int(self.flip_after_draw)
        r[R_FLIP_ON_PASS] = int(self.flip_on_pass)
        r[R_RESHUFFLE] = int(self.reshuffle_discard_when_deck_empty)
        r[R_HAND_SCORES] = int(self.hand_scores)
        r[R_EXCLUSIVE] = SUIT_SET_MODE.index(self.suit_set_mode)
        r[R_SUIT_SET_VALUE] = self.suit_set_value
        r[R_PAIR_ALL] = PAIR_RULE.index(self.pair_rule)
        r[R_EDGES:R_EDGES + 5] = self.score_band_edges
        r[R_UPPER_INCLUSIVE] = EDGE_RULE.index(self.score_band_edge_rule)
        r[R_WIN_THRESHOLD] = self.win_threshold
        r[R_END_ON_STRANDED] = int(self.end_on_stranded)
        r[R_MAX_TURNS] = self.max_turns
        return r


# Indices into Rules.encode(); the fast path imports them as compile-time constants.
R_START_END = 0          # 0 choose, 1 left, 2 right, 3 random
R_WRAP = 1               # ring topology or bounce_mode=wrap
R_COUNT_CLOSED = 2       # flipped_ports_count_as_spaces
R_COMBINED = 3           # multi_card_mode=combined
R_STOP_AT_END = 4        # bounce_mode=stop_at_end (and not wrapping)
R_CLOSED_EFFECT = 5      # 0 replenish_only, 1 replenish_and_collect, 2 nothing
R_REPLENISH_AMOUNT = 6   # 0 card_value, 1 turn_steps, 2 cards_played_this_turn
R_REPLENISH_INCLUDES = 7
R_EXHAUSTED_TAKE = 8
R_DRAW_COUNT = 9
R_DRAW_FORBID_SHORT = 10
R_FLIP_AFTER_DRAW = 11
R_FLIP_ON_PASS = 12
R_RESHUFFLE = 13
R_HAND_SCORES = 14
R_EXCLUSIVE = 15
R_SUIT_SET_VALUE = 16
R_PAIR_ALL = 17
R_EDGES = 18             # 5 values
R_UPPER_INCLUSIVE = 23
R_WIN_THRESHOLD = 24
R_END_ON_STRANDED = 25
R_MAX_TURNS = 26
R_SIZE = 27
