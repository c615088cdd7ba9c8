"""21 Motines' printed data as tables: boxes, fish colours, treasures, sales, offers (spec §2, §4).

Most of the numbers are the spec's ``[assumed]`` design (the seed prints
three market prices and the component counts); every table the spec calls
open is also a rule option (``deck_counts``, ``fish_prices``, ``fish_icons``,
``treasure_counts``, ``market_table``, ``if_prices``, ...), so this module
holds the names, the codes both paths switch on, and the defaults.
"""

from __future__ import annotations

# ---------------------------------------------------------------- boxes (spec §2.1)

IF, SF, ICE, TR, FM, SO, SUB, MUT = range(8)
BOX_CODES = ("IF", "SF", "ICE", "TR", "FM", "SO", "SUB", "MUT")
BOX_NAMES = ("Indiscriminate fishing", "Selective fishing", "Ice Factory", "Treasures",
             "Fish Market", "Special Offers", "Subvention", "Mutiny")
CAPTAIN_BOXES = (IF, SF, ICE, TR, FM, SO)  # the Captain's choice (spec §4.2 step 2), in tie order
NO_ACTION = -1                               # previous_action before the first round

# ---------------------------------------------------------------- fish (spec §2.2)

RED, BLUE, PURPLE, YELLOW, JOKER = range(5)
COLOURS = (RED, BLUE, PURPLE, YELLOW, JOKER)
NATURALS = (RED, BLUE, PURPLE, YELLOW)       # jokers stand for any of these
COLOUR_CODES = "RBPYJ"
COLOUR_NAMES = ("red", "blue", "purple", "yellow", "joker")
DEFAULT_DECK = (12, 12, 12, 12, 6)           # cards of each colour
# Selective Fishing price of a card of each colour: (ice, $) pairs, R B P Y J
DEFAULT_FISH_PRICES = (1, 0, 1, 0, 2, 1, 0, 0, 1, 2)
DEFAULT_FISH_ICONS = (1, 1, 2, 0, 1)         # ice icons: the ice part of the price

# ---------------------------------------------------------------- treasures (spec §2.3)

T_JOKER, T_ICE, T_FISH, T_MARKET, T_2PV, T_2MONEY, T_4PV_FOR_4 = range(7)
TREASURES = (T_JOKER, T_ICE, T_FISH, T_MARKET, T_2PV, T_2MONEY, T_4PV_FOR_4)
TREASURE_CODES = ("T_JOKER", "T_ICE", "T_FISH", "T_MARKET", "T_2PV", "T_2MONEY", "T_4PV_FOR_4")
TREASURE_NAMES = ("joker fish", "ice", "fish", "market sale", "2 PV", "2$", "4 PV for 4$")
DEFAULT_TREASURES = (3, 3, 4, 4, 4, 3, 3)    # cards of each type (24)
SIMPLE_TREASURES = (T_FISH, T_2PV, T_2MONEY)  # auto-used at the next window (spec §4.9)
# The treasures a window's decision (D8) may use, in the order they are used.
WINDOW_TREASURES = (T_ICE, T_MARKET, T_4PV_FOR_4, T_FISH, T_2PV, T_2MONEY)
FOUR_PV_PRICE = 4
FOUR_PV_GAIN = 4
TWO_PV = 2
TWO_MONEY = 2
# tv(t), the valuation of a held treasure (spec §6.1); T_4PV_FOR_4 is 2 when affordable, else 1
TREASURE_VALUE = (0.75, 0.0, 0.75, 1.0, 2.0, 1.0, 2.0)
FOUR_PV_UNAFFORDABLE_VALUE = 1.0

# ---------------------------------------------------------------- sales (spec §2.4)

ANY2, ANY3, ANY4, SAME3, TWOPAIRS, SAME4 = range(6)
COMBOS = (ANY2, ANY3, ANY4, SAME3, TWOPAIRS, SAME4)
COMBO_CODES = ("ANY2", "ANY3", "ANY4", "SAME3", "TWOPAIRS", "SAME4")
COMBO_CARDS = (2, 3, 4, 3, 4, 4)
ANY_KIND, SAME_KIND, PAIRS_KIND = 0, 1, 2
COMBO_KIND = (ANY_KIND, ANY_KIND, ANY_KIND, SAME_KIND, PAIRS_KIND, SAME_KIND)
MARKET_LEVELS = 4  # price columns: x = 0 or 1, 2, 3, 4
# $ per combination (rows as COMBOS) and level (columns "0/1", 2, 3, 4)
DEFAULT_MARKET = (3, 5, 7, 9,
                  4, 7, 10, 13,
                  5, 9, 13, 17,
                  6, 10, 15, 20,
                  7, 12, 18, 24,
                  9, 15, 22, 30)
FINAL_FISH_PRICE = 1  # $ for each fish left at final scoring

# ---------------------------------------------------------------- special offers (spec §4.3)

SO_2PV, SO_FISHING, SO_ICE, SO_TREASURE, SO_MARKET = range(5)
OFFERS = (SO_2PV, SO_FISHING, SO_ICE, SO_TREASURE, SO_MARKET)
OFFER_CODES = ("SO_2PV", "SO_FISHING", "SO_ICE", "SO_TREASURE", "SO_MARKET")
OFFER_NAMES = ("2 PV for 2$", "a fish", "1 ice", "a treasure", "a sale")
SO_2PV_PRICE = 2
SO_2PV_GAIN = 2
SO_LAST_PV = 1  # the pawn taking the fifth offer also gets 1 PV

# ---------------------------------------------------------------- positions (spec §4.3)

MAX_PLAYERS = 5
SF_PICKS = 4  # positions 1-4 of Selective fishing pick a display card
DEFAULT_IF_PRICES = (0, 1, 1, 2, 2)
DEFAULT_IF_ICE = (0, 0, 0, 1, 1)
# Ice Factory direct gains per position: (ice, $) pairs, positions 1-5
DEFAULT_ICE_GIFTS = (1, 0, 0, 0, 0, 0, 0, 1, 0, 2)
DEFAULT_TREASURE_THRESHOLDS = (1, 2, 3, 4, 5)
DEFAULT_TREASURE_ICE = (0, 0, 0, 1, 1)
SUPPLY_ICE = 25

# ---------------------------------------------------------------- mutiny and gifts

MUTINY_SPACES = 4          # spaces 0..3, space m costs m $
MUTINY_ZERO_MONEY = 1      # space 0 pays 1 $ (and its PV entry is usually -1)
DEFAULT_MUTINY_PV = (-1, 2, 3, 4)
GIFT_MONEY, GIFT_TREASURE, GIFT_ICE, GIFT_FISH = range(4)
GIFT_NAMES = ("1$", "a treasure", "1 ice", "a blind fish")
DEFAULT_GIFTS = (5, 15, 25, 35)  # PV of each gift, in the order of GIFT_NAMES; 0 = no gift
MODIFIED_MONEY = 1  # a treasure replaced while modified or the deck is empty: +1 $ and +1 PV
MODIFIED_PV = 1
