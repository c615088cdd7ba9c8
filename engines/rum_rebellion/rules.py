"""Rum Rebellion's rule options (spec §7), their defaults and presets, and their numeric encoding.

Every ``[assumed]`` choice of the spec that changes play is an option here with
the spec's default; nothing about the rules is a silent constant elsewhere.
The player count is not a rule option: it is the game's ``--players`` (2-6,
default 4, spec §7.3's ``players`` row), and the options that depend on it
(``bond_store_seat``, ``tickets_per_player``, enough 10-vote cards to deal,
``start_barrels_by_seat`` within the Bond Store's supply) are checked against it
when a game starts (:meth:`Rules.check_players`).

``Rules.encode()`` (``engines._rules``) flattens the scalar options and the
``DERIVED`` facts into the int64 vector the fast path reads (indices
``R = Rules.slots()``), ``Rules.encode_float()`` the float ones
(``F = Rules.float_slots()``), and :func:`engines.rum_rebellion.data.encode_data`
the boards, decks and Vote pack.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines._rules import RulesBase, RulesError, option
from engines.rum_rebellion import data
from engines.rum_rebellion.data import (
    BOARD_CONVICT,
    BOARD_RUM_CORPS,
    BOARD_TICKET_OF_LEAVE,
    N_TICKETS,
    OCCUPATION_RENTS,
    STARTING_CARD_VALUE,
    STARTING_VOTE_CARDS,
    TICKETS_BY_PLAYERS,
    VOTE_PACK,
)

STARTING_LEVEL = ("convict", "ticket_of_leave", "rum_corps")
COUP_DELAY = ("next_round", "next_turn_any", "none")
STORE_SHORTFALL = ("pay_available", "pay_nothing")
STORE_EMPTY_VOTE_SALE = ("each_turn_while_empty", "once_per_event", "off")
TICKET_COST_MODE = ("fixed", "all_barrels")
TICKET_ASSIGNMENT = ("random", "choose")
WIN_LOSE_AFTER_DRAW = ("bottom", "iid")
FINE_UNPAID = ("gaol", "part_pay_then_gaol")
CHALLENGE_TARGETS = ("any_level", "same_level")
VOTE_MODEL = ("cards_5_10", "points")
PAYMENT_ORDER = ("notes_first", "barrels_first")
COUP_FAIL_VOTES_LOST = ("votes_for_coup", "all")
REDEEM_TIMING = ("start_of_turn", "any_time")
DOUBLES_AFTER_PENALTY = ("forfeit", "consume_marker", "take_anyway")
CAP_RESOLUTION = ("no_winner", "progress")

MAX_PLAYERS = 6            # the game's --players range is 2..6 (GAME.max_players)

# Named values of number options (the word a user types, the number stored).
RANDOM_SEAT = -1          # bond_store_seat=random
UNLIMITED = -1            # bond_store_supply=unlimited
NO_LIMIT = -1             # missed_turn_markers_limit=none
NO_DOUBLES_LIMIT = 0      # max_consecutive_doubles=none
BY_TABLE = 0              # tickets_per_player=by_table
CRIME_VALUE = -1          # crime_win_amount=crime_value


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every Rum Rebellion rule option (spec §7). Defaults are the spec's reading of the rulebook."""

    # ------------------------------------------------ §7.1 Variations for a Shorter Game (a-e)
    ticket_cost: int = option(6, "barrels a Convict pays for the Ticket(s) of Leave "
                              "(shorter game a)", low=1, high=6)
    commission_cost: int = option(15, "barrels a Ticket of Leave holder pays for the Rum Corps "
                                  "commission (shorter game a)", low=1, high=15)
    lose_cards_removed: int = option(0, "Lose cards taken out of the Win/Lose deck before the "
                                     "first shuffle (shorter game b)", low=0, high=11)
    gaol_cards_removed: int = option(0, "Gaol cards taken out of the Court Verdict deck "
                                     "(shorter game c)", low=0, high=4)
    fine_cards_removed: int = option(0, "Fine cards taken out of the Court Verdict deck "
                                     "(shorter game c)", low=0, high=4)
    votes_for_coup: int = option(55, "votes needed to announce and attempt a coup "
                                 "(shorter game d)", low=10, high=480)
    starting_level: str = option("convict", "level everyone starts on, tickets dealt free "
                                 "(shorter game e)", choices=STARTING_LEVEL)

    # ------------------------------------------------ §7.2 house rules
    side_bet_stake: int = option(0, "side bet on each Win/Lose card: barrels won from / paid "
                                 "to the Store (0 = off)", low=0, high=1000)
    allow_vote_trading: bool = option(False, "in S2 the active player may offer one Vote card "
                                      "to, or ask one from, another player at its printed price")
    max_consecutive_doubles: int = option(
        NO_DOUBLES_LIMIT, "the k-th double in a chain gives no further turn (none = no limit)",
        low=1, high=5, named=(("none", NO_DOUBLES_LIMIT),))
    sneak_turn_probability: float = option(0.0, "chance a player with a Missed Turn marker "
                                           "rolls before being reminded and plays anyway",
                                           low=0.0, high=1.0)
    exact_start_bonus: int = option(0, "extra barrels for landing exactly on Start", low=0,
                                    high=1000)
    coup_delay: str = option("next_round", "announcement to attempt: a full round later, any "
                             "later turn (a doubles turn may attempt), or no announcement",
                             choices=COUP_DELAY)
    start_barrels_by_seat: tuple = option(
        (0,) * MAX_PLAYERS, "extra barrels each seat starts with (seat 0 plays first), on top "
        "of the rulebook's set-up; taken from the Bond Store", low=0, high=100,
        length=MAX_PLAYERS)

    # ------------------------------------------------ §7.3 other ambiguities and data
    bond_store_seat: int = option(RANDOM_SEAT, "the Bond Store player: random, or a seat index "
                                  "(checked against the player count)", low=0, high=5,
                                  named=(("random", RANDOM_SEAT),))
    bond_store_bonus: int = option(1, "barrels the Store gives the Bond Store player at setup",
                                   low=0, high=1000)
    bond_store_supply: int = option(160, "barrels in the Bond Store at the start (unlimited: "
                                    "it never runs out)", low=0, high=1_000_000,
                                    named=(("unlimited", UNLIMITED),))
    store_shortfall: str = option("pay_available", "a Store that cannot pay in full pays what "
                                  "it has, or nothing", choices=STORE_SHORTFALL)
    store_empty_vote_sale: str = option("each_turn_while_empty", "while the Store is empty, "
                                        "Rum Corps officers may buy the top Vote card in S5: "
                                        "every turn, once per officer per empty spell, or never",
                                        choices=STORE_EMPTY_VOTE_SALE)
    store_empty_vote_price: int = option(8, "barrels paid for a Vote card while the Store is "
                                         "empty", low=1, high=1000)
    income_convict: int = option(3, "barrels for passing Start as a Convict", low=0, high=1000)
    income_ticket_of_leave: int = option(5, "barrels for passing Start on the Ticket of Leave "
                                         "level", low=0, high=1000)
    income_captain: int = option(8, "barrels for passing Start as a Rum Corps Captain", low=0,
                                 high=1000)
    income_major: int = option(16, "barrels for passing Start as a Major (first choice)", low=0,
                               high=1000)
    major_vote_option_barrels: int = option(8, "barrels a Major takes with the top Vote card "
                                            "(second choice)", low=0, high=1000)
    start_landing_counts_as_pass: bool = option(True, "landing exactly on Start completes a "
                                                "rotation (income, note transfer)")
    non_parole_rotations: int = option(1, "rotations a Convict must complete before buying a "
                                       "Ticket of Leave", low=0, high=3)
    tol_min_rotations: int = option(0, "rotations on the Ticket of Leave level before the "
                                    "commission may be bought", low=0, high=3)
    ticket_cost_mode: str = option("fixed", "the ticket costs ticket_cost, or all the barrels "
                                   "held (at least ticket_cost)", choices=TICKET_COST_MODE)
    tickets_per_player: int = option(BY_TABLE, "tickets each player takes: the rulebook's "
                                     "table (2p: 3, 3p: 2, 4-6p: 1) or a fixed number", low=1,
                                     high=3, named=(("by_table", BY_TABLE),))
    ticket_assignment: str = option("random", "tickets come off the shuffled deck, or the "
                                    "buyer picks the best remaining (highest total rent)",
                                    choices=TICKET_ASSIGNMENT)
    max_level_ups_per_turn: int = option(1, "levels a player may move up in one S4", low=1,
                                         high=2)
    win_cards: int = option(12, "Win cards in the Win/Lose deck", low=0, high=100)
    lose_cards: int = option(12, "Lose cards in the Win/Lose deck (before removals)", low=0,
                             high=100)
    go_free_cards: int = option(4, "Go Free cards in the Court Verdict deck", low=0, high=100)
    fine_cards: int = option(4, "Fine cards in the Court Verdict deck (before removals)", low=0,
                             high=100)
    gaol_cards: int = option(4, "Gaol cards in the Court Verdict deck (before removals)", low=0,
                             high=100)
    win_lose_after_draw: str = option("bottom", "a drawn Win/Lose card goes to the bottom, or "
                                      "every draw is a fresh random card", choices=WIN_LOSE_AFTER_DRAW)
    bonus_shuffles_decks: bool = option(True, "a Bonus square shuffles the Win/Lose and Court "
                                        "Verdict decks")
    fine_unpaid: str = option("gaol", "an unpayable crime Fine: Gaol for the crime value, or pay "
                              "what you have and Gaol for the rest", choices=FINE_UNPAID)
    crime_win_amount: int = option(CRIME_VALUE, "barrels for a crime's WIN: the crime value, or "
                                   "a fixed number", low=0, high=1000,
                                   named=(("crime_value", CRIME_VALUE),))
    challenge_stake: int = option(10, "votes that change hands in a challenge (a multiple of "
                                  "10 with vote cards)", low=5, high=480)
    challenge_min_votes: int = option(10, "votes a player needs to challenge or be challenged "
                                      "(at least the stake is always needed)", low=0, high=480)
    challenge_targets: str = option("any_level", "who may be challenged: any other player, or "
                                    "only players on the challenger's level",
                                    choices=CHALLENGE_TARGETS)
    vote_model: str = option("cards_5_10", "votes are 5/10 cards (exact change), or plain "
                             "integers (lost votes vanish)", choices=VOTE_MODEL)
    vote_pack: tuple = option(VOTE_PACK, "the Vote pack as value,price,count triples (values "
                              "5 or 10)", low=0, high=1000, group=3)
    vote_top_visible: bool = option(True, "the top Vote card is face up (false: bought blind, "
                                    "offered only if every card in the pack is affordable)")
    max_vote_buys_per_landing: int = option(1, "Vote cards one Buy Vote Cards landing may buy",
                                            low=1, high=5)
    promotion_cost: int = option(0, "barrels a Captain pays to become Major", low=0, high=1000)
    duel_fine: int = option(10, "barrels owed to the Store on a Duel WIN", low=0, high=1000)
    duel_missed_turns: int = option(2, "Missed Turn markers on a Duel LOSE", low=0, high=100)
    note_interest: int = option(1, "barrels of interest added to a new promissory note", low=0,
                                high=100)
    part_payment_before_note: bool = option(True, "pay all barrels first and write a note for "
                                            "the rest (false: note for the whole debt)")
    payment_order: str = option("notes_first", "after offsets, pay with transferable notes "
                                "before barrels, or barrels first", choices=PAYMENT_ORDER)
    note_interest_on_transfer: bool = option(False, "a note handed on as payment gains "
                                             "note_interest more")
    store_notes: bool = option(True, "an unpayable debt to the Store becomes a note (false: "
                               "Gaol for the shortfall)")
    coup_requires_rum_corps: bool = option(True, "only Rum Corps officers may announce and "
                                           "attempt a coup")
    coup_attempt_ends_turn: bool = option(True, "a failed coup ends the turn (false: roll and "
                                          "move after it)")
    coup_fail_votes_lost: str = option("votes_for_coup", "a failed coup returns votes_for_coup "
                                       "votes, or all the player's votes",
                                       choices=COUP_FAIL_VOTES_LOST)
    redeem_timing: str = option("start_of_turn", "notes are bought back in the debtor's S2, or "
                                "automatically as soon as affordable", choices=REDEEM_TIMING)
    missed_turn_markers_limit: int = option(NO_LIMIT, "Missed Turn markers in the box (none: "
                                            "unlimited)", low=0, high=10_000,
                                            named=(("none", NO_LIMIT),))
    doubles_after_penalty: str = option("forfeit", "a double in a turn that gained Missed Turn "
                                        "markers: no free turn, the free turn uses up a marker, "
                                        "or the free turn is played anyway",
                                        choices=DOUBLES_AFTER_PENALTY)
    max_rounds: int = option(1000, "safety cap on rounds", low=50, high=100_000)
    cap_resolution: str = option("no_winner", "a capped game has no winner, or the highest "
                                 "progress score wins (ties split)", choices=CAP_RESOLUTION)
    board_convict: tuple = option(BOARD_CONVICT, "Convict board, square codes from Start")
    board_ticket_of_leave: tuple = option(BOARD_TICKET_OF_LEAVE, "Ticket of Leave board, "
                                          "square codes from Start")
    board_rum_corps: tuple = option(BOARD_RUM_CORPS, "Rum Corps board, square codes from Start")
    occupation_rents: tuple = option(OCCUPATION_RENTS, "rent of each OC square in board order "
                                     "(Convict, Ticket of Leave, Rum Corps boards)", low=0,
                                     high=1000)

    PRESETS = {
        "standard": ("the spec's default reading of the rulebook", {}),
        "short_a": ("shorter game a: ticket 4 barrels, commission 10",
                    {"ticket_cost": 4, "commission_cost": 10}),
        "short_b": ("shorter game b: 4 Lose cards removed", {"lose_cards_removed": 4}),
        "short_c": ("shorter game c: 2 Gaol and 2 Fine cards removed",
                    {"gaol_cards_removed": 2, "fine_cards_removed": 2}),
        "short_d": ("shorter game d: 40 votes for a coup", {"votes_for_coup": 40}),
        "short_e_tol": ("shorter game e: start on the Ticket of Leave level",
                        {"starting_level": "ticket_of_leave"}),
        "short_e_rc": ("shorter game e: start on the Rum Corps level",
                       {"starting_level": "rum_corps"}),
        "short_all": ("shorter game a+b+c+d together (spec §7.1, §9.9)",
                      {"ticket_cost": 4, "commission_cost": 10, "lose_cards_removed": 4,
                       "gaol_cards_removed": 2, "fine_cards_removed": 2, "votes_for_coup": 40}),
        "side_bets": ("the rulebook's example house rule: 1-barrel side bets on every "
                      "Win/Lose card", {"side_bet_stake": 1}),
        "vote_trading": ("the rulebook's vote trading between players (simplified protocol)",
                         {"allow_vote_trading": True}),
        "three_doubles": ("common house limit: the third double in a row gives no free turn",
                          {"max_consecutive_doubles": 3}),
        "coup_without_warning": ("no announcement: attempt a coup whenever eligible",
                                 {"coup_delay": "none"}),
        "iid_win_lose": ("every Win/Lose draw is a fresh random card (for analysis)",
                         {"win_lose_after_draw": "iid"}),
    }

    # Facts the fast path reads that are computed from options (one int64 slot each).
    DERIVED = {
        # only then is a number drawn for a sneak turn
        "sneak_on": lambda r: r.sneak_turn_probability > 0,
    }

    # ------------------------------------------------------------ validation

    def check(self) -> None:
        try:
            self.boards()
        except ValueError as exc:
            raise RulesError(f"rule boards: {exc}") from None
        if self.lose_cards_removed > self.lose_cards:
            raise RulesError(f"rule lose_cards_removed={self.lose_cards_removed} is more than "
                             f"the {self.lose_cards} Lose cards")
        if self.gaol_cards_removed > self.gaol_cards:
            raise RulesError(f"rule gaol_cards_removed={self.gaol_cards_removed} is more than "
                             f"the {self.gaol_cards} Gaol cards")
        if self.fine_cards_removed > self.fine_cards:
            raise RulesError(f"rule fine_cards_removed={self.fine_cards_removed} is more than "
                             f"the {self.fine_cards} Fine cards")
        if not self.win_lose_deck():
            raise RulesError("the Win/Lose deck is empty: raise win_cards or lose_cards")
        if not self.court_verdict_deck():
            raise RulesError("the Court Verdict deck is empty: raise go_free_cards, fine_cards "
                             "or gaol_cards")
        pack = self.vote_pack
        if not pack:
            raise RulesError("rule vote_pack needs at least one value,price,count triple")
        for g in range(0, len(pack), 3):
            value, price, count = pack[g:g + 3]
            if value not in (5, 10):
                raise RulesError(f"rule vote_pack: card value {value} is not allowed "
                                 "(values are 5 or 10)")
            if price < 1 or count < 1:
                raise RulesError(f"rule vote_pack: ({value},{price},{count}) needs a price and "
                                 "a count of at least 1")
        if self.vote_model == "cards_5_10" and self.challenge_stake % 10:
            raise RulesError(f"rule challenge_stake={self.challenge_stake} must be a multiple of "
                             "10 with vote_model=cards_5_10")
        if self.allow_vote_trading and self.vote_model != "cards_5_10":
            raise RulesError("rule allow_vote_trading=true trades Vote cards, so it needs "
                             "vote_model=cards_5_10")

    def check_players(self, players: int) -> None:
        """The options that depend on the player count (raised when a game starts)."""
        if self.bond_store_seat != RANDOM_SEAT and self.bond_store_seat >= players:
            raise RulesError(f"rule bond_store_seat={self.bond_store_seat} is not a seat of a "
                             f"{players}-player game (seats 0..{players - 1} or random)")
        if self.tickets_each(players) * players > N_TICKETS:
            raise RulesError(f"rule tickets_per_player={self.tickets_per_player} needs "
                             f"{self.tickets_each(players) * players} tickets for {players} "
                             f"players; there are {N_TICKETS}")
        pack = self.vote_pack  # value, price, count triples
        tens = sum(pack[g + 2] for g in range(0, len(pack), 3) if pack[g] == STARTING_CARD_VALUE)
        if tens < STARTING_VOTE_CARDS * players:
            raise RulesError(f"rule vote_pack has {tens} cards of value {STARTING_CARD_VALUE}; "
                             f"{players} players are dealt {STARTING_VOTE_CARDS * players}")
        extra = self.start_barrels(players)
        if self.bond_store_supply != UNLIMITED and sum(extra) > self.bond_store_supply:
            raise RulesError(f"rule start_barrels_by_seat gives {players} players {sum(extra)} "
                             f"barrels from the Bond Store, which holds "
                             f"bond_store_supply={self.bond_store_supply}")

    # ------------------------------------------------------------ derived facts

    def boards(self):
        """The three boards as tuples of ``data.Square`` (Convict, Ticket of Leave, Rum Corps)."""
        return data.build_boards((self.board_convict, self.board_ticket_of_leave,
                                  self.board_rum_corps), self.occupation_rents)

    def start_barrels(self, players: int) -> tuple[int, ...]:
        """The extra barrels seats 0..players-1 start with (``start_barrels_by_seat``)."""
        return self.start_barrels_by_seat[:players]

    def tickets_each(self, players: int) -> int:
        if self.tickets_per_player == BY_TABLE:
            return TICKETS_BY_PLAYERS[players]
        return self.tickets_per_player

    def win_lose_deck(self) -> list[str]:
        """The Win/Lose deck before its first shuffle (after shorter-game removals)."""
        return data.win_lose_deck(self.win_cards, self.lose_cards - self.lose_cards_removed)

    def court_verdict_deck(self) -> list[str]:
        return data.court_verdict_deck(self.go_free_cards,
                                       self.fine_cards - self.fine_cards_removed,
                                       self.gaol_cards - self.gaol_cards_removed)

    def income(self, level: int, is_major: bool) -> int:
        """Barrels for passing Start (a Major's first choice)."""
        if level == data.CONVICT:
            return self.income_convict
        if level == data.TICKET_OF_LEAVE:
            return self.income_ticket_of_leave
        return self.income_major if is_major else self.income_captain


# The fast path's indices into Rules.encode() and Rules.encode_float() (R.<option>, F.<option>),
# derived from the options.
R = Rules.slots()
F = Rules.float_slots()
