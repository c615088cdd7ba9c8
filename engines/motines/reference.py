"""21 Motines, the readable reference path: the rules as the spec states them, round by round.

This module is the oracle. It plays one game with plain lists and the
rulebook's names (Captain, boxes, positions, slots, display, shoal,
Indiscriminate pile, treasures, Mutinies marker, gifts), can narrate every
placement, roll, purchase, sale and mutiny, and returns the outcome row that
the Numba fast path (``engine.py``) must reproduce exactly for the same
rules, policies, players, seed and game index.

Random draws. Chance uses only the world stream ``Rng(seed, game, WORLD)``,
in exactly this order of events (a fast path replays it draw for draw):

1. Set-up: the fish deck as colour codes (``deck_counts`` reds, then blues,
   purples, yellows, jokers) is shuffled (``Rng.shuffle``); its first D cards
   are the display (index 0 first), the next ``if_pile_size`` the
   Indiscriminate pile (top first), the rest the shoal (top first). Then the
   treasure deck as type codes (``treasure_counts`` in type order) is
   shuffled; its first card is the top.
2. During play, as the events happen:
   * Ice Factory: the position-1 player's roll, one ``dice(6)`` (two, first
     then second, under ``ice_factory_roll=two_d6``);
   * Treasures: every participant, in position order, rolls die A then die B
     (two ``dice(6)``), always both;
   * a blind draw from an empty Indiscriminate pile with an empty shoal, and a
     display refill from an empty shoal, first shuffle the fish discard (in
     the order its cards were discarded) into a new shoal;
   * a returned blind fish under ``if_return_to=shuffle_in`` goes in at
     ``below(len(pile) + 1)`` (0 = the top).

Nothing else draws from the world stream. Every decision belongs to a seat's
policy, which owns ``Rng(seed, game, POLICY + seat)`` (``policies.py``). A
decision with one legal option is not asked, so it draws nothing.

Orders both paths keep:

* option lists (D1, D2, D9): boxes in the order IF, SF, ICE, TR, FM, SO, SUB,
  MUT; inside a box its slots ascending (display index, combination, offer,
  Mutiny space); a follower's JOIN options first, then SUB, then MUT 0..3;
* sale options (D6): combinations in the order ANY2 .. SAME4, then colour
  counts (red, blue, purple, yellow) ascending lexicographically (jokers fill
  the rest), then ice 0 .. the most allowed;
* a sale discards its reds, blues, purples, yellows, then joker cards (joker
  cards are used before joker treasures);
* a treasure window (spec §4.9): first the simple treasures are used when
  ``auto_use_simple_treasures`` (fish, 2 PV, 2$, each until none is held),
  then the policy gets the usable treasures (one entry per card, in the order
  ice, market, 4 PV for 4$, then the simple ones when not auto-used) and
  answers with the kinds to use; each is used if still legal at its turn.

Restricted play (``engines._restrict``, the choices declared in ``engines.motines``): each
seat's masks are read once, in ``play_game``, from its decision maker into the table
(``Table.forbid``, ``Table.force``), so a search's playouts on clones keep them. A D1, D2
or D9 option is of its box's choice (``BOX_CHOICE``) and ``choose`` narrows the options
with ``kept`` before the policy is asked; a D6 sale is ``sell`` and declining none, so a
seat forced to sell is offered the sale as one it may not decline, and a seat forbidden to
sell declines it unasked (``offer_sale``). ``Table.took`` counts every pawn placed by its
box's choice and every sale made, for the outcome's ``took_<choice>_<seat>``.

A round is ``play_round`` (spec §4.2) or ``play_free_round`` (§4.4); set-up
is ``setup`` (§3); the end is ``final_scoring`` and ``winners`` (§5). Every
invariant of spec §8 is asserted by ``Table.check`` when ``Table.checking``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache

from engines._restrict import kept, kept_binary
from engines._rng import Rng
from engines._standings import lead_story, leader  # noqa: F401 (tests use leader)
from engines.motines import BOX_CHOICE, CHOICE_NAMES, CHOICES, SELL
from engines.motines.data import (
    BOX_CODES,
    BOX_NAMES,
    CAPTAIN_BOXES,
    COLOUR_CODES,
    COLOUR_NAMES,
    COMBO_CARDS,
    COMBO_CODES,
    COMBO_KIND,
    COMBOS,
    FINAL_FISH_PRICE,
    FM,
    FOUR_PV_GAIN,
    FOUR_PV_PRICE,
    GIFT_FISH,
    GIFT_ICE,
    GIFT_MONEY,
    GIFT_NAMES,
    GIFT_TREASURE,
    ICE,
    IF,
    JOKER,
    MODIFIED_MONEY,
    MODIFIED_PV,
    MUT,
    MUTINY_SPACES,
    MUTINY_ZERO_MONEY,
    NATURALS,
    NO_ACTION,
    OFFER_NAMES,
    OFFERS,
    PAIRS_KIND,
    SAME_KIND,
    SF,
    SF_PICKS,
    SIMPLE_TREASURES,
    SO,
    SO_2PV,
    SO_2PV_GAIN,
    SO_2PV_PRICE,
    SO_FISHING,
    SO_ICE,
    SO_LAST_PV,
    SO_MARKET,
    SO_TREASURE,
    SUB,
    T_2MONEY,
    T_2PV,
    T_4PV_FOR_4,
    T_FISH,
    T_ICE,
    T_JOKER,
    T_MARKET,
    TR,
    TREASURE_CODES,
    TREASURE_NAMES,
    TREASURES,
    TWO_MONEY,
    TWO_PV,
    WINDOW_TREASURES,
)
from engines.motines.rules import Rules

NORMAL, LAST_CAPTAIN, FREE, OVER = "normal", "last Captain", "free", "over"
NO_SLOT = -1       # a box without slots (IF, ICE, TR, SUB) or Selective fishing's blind fifth
BLIND = -1         # the D7 option "a free blind fish"
SEATS = "ABCDE"


# ================================================================ the pieces


@dataclass
class Player:
    """One fisherman: money, PV, ice, fish cards by colour, treasures by type, gifts had."""

    seat: int
    money: int
    pv: int = 0
    ice: int = 0
    hand: list = field(default_factory=lambda: [0] * 5)        # per colour
    treasures: list = field(default_factory=lambda: [0] * 7)   # per type
    gifts: list = field(default_factory=lambda: [False] * 4)   # per gift (data.GIFT_NAMES)
    # fish everyone knows to be in the hand: bought from the display, less what sales showed
    known: list = field(default_factory=lambda: [0] * 5)
    sales: int = 0
    captain_rounds: int = 0
    mut_actions: int = 0
    leftover: int = 0
    end_money: int = 0  # $ when the free round ended

    @property
    def fish(self) -> int:
        return sum(self.hand)

    def jokers(self) -> int:
        """Wild fish for a sale: joker cards and joker treasures."""
        return self.hand[JOKER] + self.treasures[T_JOKER]


@dataclass(frozen=True)
class Sale:
    """One canonical sale (spec §6 D6): a combination, the colour counts used, the ice added."""

    combo: int
    counts: tuple  # red, blue, purple, yellow, wild
    x: int

    @property
    def wild(self) -> int:
        return self.counts[JOKER]

    def show(self) -> str:
        cards = "".join(COLOUR_CODES[c] * n for c, n in enumerate(self.counts))
        return f"{COMBO_CODES[self.combo]} {cards} + {self.x} ice"


@dataclass
class Pawn:
    """A pawn placed this round: whose, in which box, on which slot, at which position."""

    seat: int
    box: int
    slot: int
    position: int
    done: bool = False  # resolved (a picked display card is reserved until then)


@dataclass
class Table:
    """Everything on the table during one game."""

    rules: Rules
    players: int
    seats: list                     # Player
    supply: int                     # ice in the supply
    display: list                   # colour per display index, None when empty
    ifp: list                       # the Indiscriminate pile, top first
    shoal: list                     # top first
    discard: list = field(default_factory=list)          # sold fish, in discard order
    tdeck: list = field(default_factory=list)            # treasure deck, top first
    tdiscard: list = field(default_factory=lambda: [0] * 7)  # used treasures per type
    marker: int = 0
    captain: int = 0
    previous_action: int = NO_ACTION
    previous_captain: int = -1
    round: int = 0
    normal_rounds: int = 0
    phase: str = NORMAL
    mutinies: int = 0
    mut_actions: int = 0
    truncated: int = 0
    captain_choices: list = field(default_factory=lambda: [0] * 6)
    pawns: list = field(default_factory=list)            # this round's Pawn, placement order
    win: list = field(default_factory=list)
    tied_first: int = 0
    # PV of each seat after every round, the last being the final PV (note_standing);
    # None on a playout's clone, which keeps none
    standings: list | None = field(default_factory=list)
    world: Rng | None = None
    policies: list | None = None
    log: list | None = None
    events: list | None = None
    checking: bool = False          # assert spec §8 after every step (tests)
    money_in: int = 0               # ledger: $ from the bank minus $ paid (invariant 4)
    # Each seat's restriction (engines._restrict): the bits of the choices it may never take
    # and of those it must take when it can, read once from its decision maker at set-up, so
    # a playout's base players keep it; and how often it took each choice (CHOICES order).
    forbid: list = field(default_factory=list)
    force: list = field(default_factory=list)
    took: list = field(default_factory=list)

    def __post_init__(self):
        # unrestricted seats until play_game reads the decision makers' restrictions
        self.forbid = self.forbid or [0] * self.players
        self.force = self.force or [0] * self.players
        self.took = self.took or [[0] * len(CHOICES) for _ in range(self.players)]

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def event(self, kind: str, **what) -> None:
        if self.events is not None:
            self.events.append({"round": self.round, "event": kind, **what})

    @property
    def modified(self) -> bool:
        """Treasures are replaced by +1$ +1 PV (spec §4.2 step 1, §4.6)."""
        return self.marker < self.rules.treasure_modified_until_marker or not self.tdeck

    def in_box(self, box: int) -> list:
        return [p for p in self.pawns if p.box == box]

    def taken(self, box: int) -> set:
        return {p.slot for p in self.pawns if p.box == box}

    def unseen_fish(self, seat: int) -> list:
        """Colours a player has not seen: the deck minus own hand, display and discard (spec
        §6.1), and minus every hand when hands are public."""
        unseen = list(self.rules.deck_counts)
        hands = [self.seats[seat].hand] if self.rules.hidden_hands else \
            [p.hand for p in self.seats]
        for hand in hands:
            for c in range(5):
                unseen[c] -= hand[c]
        for c in self.display:
            if c is not None:
                unseen[c] -= 1
        for c in self.discard:
            unseen[c] -= 1
        return unseen

    def unseen_treasures(self, seat: int) -> list:
        """Treasure types a player has not seen: the composition minus the discard and own
        treasures (minus everyone's when hands are public)."""
        unseen = [n - d for n, d in zip(self.rules.treasure_counts, self.tdiscard, strict=True)]
        held = [self.seats[seat].treasures] if self.rules.hidden_hands else \
            [p.treasures for p in self.seats]
        for treasures in held:
            for k in TREASURES:
                unseen[k] -= treasures[k]
        return unseen

    # ------------------------------------------------------------ spec §8

    def check(self, where: str) -> None:
        """Spec §8 invariants 1-7 (raise AssertionError naming the step)."""
        if not self.checking:
            return
        r = self.rules
        fish = len(self.ifp) + sum(c is not None for c in self.display) + len(self.shoal) \
            + len(self.discard) + sum(p.fish for p in self.seats)
        assert fish == sum(r.deck_counts), f"{where}: fish {fish}"
        ice = self.supply + sum(p.ice for p in self.seats)
        assert ice == r.ice_supply and self.supply >= 0, f"{where}: ice {ice}"
        treasures = len(self.tdeck) + sum(sum(p.treasures) for p in self.seats) + \
            sum(self.tdiscard)
        assert treasures == sum(r.treasure_counts), f"{where}: treasures {treasures}"
        money = sum(p.money for p in self.seats)
        start = sum(r.start_money(s) for s in range(self.players))
        assert money == start + self.money_in, f"{where}: money {money}"
        assert all(p.money >= 0 and p.ice >= 0 and min(p.hand) >= 0 and min(p.treasures) >= 0
                   for p in self.seats), f"{where}: a negative holding"
        assert sum(c is not None for c in self.display) <= r.display_size(self.players)
        assert 0 <= self.marker <= r.num_mutinies, f"{where}: marker {self.marker}"
        free = self.phase in (FREE, OVER)  # OVER: the free round's pawns are still out
        assert sum(p.box == MUT for p in self.pawns) <= 1 or free, f"{where}: two mutineers"
        for box in (SF, FM, SO):
            slots = [p.slot for p in self.pawns if p.box == box and p.slot != NO_SLOT]
            exclusive = box == SF or not free or r.free_round_slots_exclusive
            if box == FM:
                exclusive = exclusive and r.market_slots_exclusive
            if exclusive:
                assert len(slots) == len(set(slots)), f"{where}: shared {BOX_CODES[box]} slot"


def clone(t: Table) -> Table:
    """A copy of the table to play on (no story, no checks; the same policies and world until
    the caller replaces them)."""
    c = copy.copy(t)
    c.seats = [copy.copy(p) for p in t.seats]
    for p in c.seats:
        p.hand, p.treasures, p.gifts, p.known = (list(p.hand), list(p.treasures),
                                                 list(p.gifts), list(p.known))
    c.display, c.ifp, c.shoal, c.discard = (list(t.display), list(t.ifp), list(t.shoal),
                                            list(t.discard))
    c.tdeck, c.tdiscard, c.captain_choices = list(t.tdeck), list(t.tdiscard), \
        list(t.captain_choices)
    c.pawns = [copy.copy(p) for p in t.pawns]
    c.win = list(t.win)
    c.took = [list(counts) for counts in t.took]
    c.standings = None
    c.log = c.events = None
    c.checking = False
    return c


def seat_name(seat: int) -> str:
    return SEATS[seat]


def show_hand(p: Player) -> str:
    cards = "fish " + "".join(COLOUR_CODES[c] * n for c, n in enumerate(p.hand)) if p.fish \
        else "no fish"
    held = [f"{TREASURE_CODES[k]}x{n}" if n > 1 else TREASURE_CODES[k]
            for k, n in enumerate(p.treasures) if n]
    return cards + (" + " + " ".join(held) if held else "")


def show_player(p: Player) -> str:
    return f"{seat_name(p.seat)} {p.pv} PV {p.money}$ {p.ice} ice, {show_hand(p)}"


# ================================================================ set-up (spec §3)


def setup(rules: Rules, players: int, world: Rng) -> Table:
    """Money, ice, the shuffled fish deck dealt to display, pile and shoal, the treasure deck."""
    seats = [Player(seat=s, money=rules.start_money(s), ice=rules.start_ice)
             for s in range(players)]
    deck = [c for c, n in enumerate(rules.deck_counts) for _ in range(n)]
    world.shuffle(deck)
    d = rules.display_size(players)
    t = Table(rules=rules, players=players, seats=seats,
              supply=rules.ice_supply - rules.start_ice * players,
              display=deck[:d], ifp=deck[d:d + rules.if_pile_size],
              shoal=deck[d + rules.if_pile_size:])
    tdeck = [k for k, n in enumerate(rules.treasure_counts) for _ in range(n)]
    world.shuffle(tdeck)
    t.tdeck = tdeck
    t.captain = rules.first_captain_seat
    t.world = world
    return t


def narrate_setup(t: Table) -> None:
    t.say(f"21 Motines, {t.players} players; seat {seat_name(t.captain)} is the first Captain.")
    for p in t.seats:
        t.say(f"  {seat_name(p.seat)} starts with {p.money}$ and {p.ice} ice")
    t.say(f"  display: {show_display(t)}; Indiscriminate pile {len(t.ifp)} cards, shoal "
          f"{len(t.shoal)}, treasure deck {len(t.tdeck)}, ice supply {t.supply}")


def show_display(t: Table) -> str:
    return " ".join(f"{i}:{COLOUR_CODES[c]}" if c is not None else f"{i}:-"
                    for i, c in enumerate(t.display))


# ================================================================ gains (spec §4.5-4.10)


def gain_pv(t: Table, seat: int, n: int) -> None:
    """PV changes by ``n``; rising PV brings the gifts it reaches (spec §4.10)."""
    p = t.seats[seat]
    before = p.pv
    p.pv += n
    if n < 0 and t.rules.pv_floor == "zero":
        p.pv = max(0, p.pv)
    if n > 0:
        gifts(t, seat, before, p.pv)


def gifts(t: Table, seat: int, before: int, after: int) -> None:
    """Each gift whose PV lies in (before, after], in ascending PV (a gift's own +1 PV is a
    new rise, handled inside it)."""
    rules = t.rules
    p = t.seats[seat]
    order = sorted((pv, kind) for kind, pv in enumerate(rules.gift_thresholds) if pv)
    for pv, kind in order:
        if not before < pv <= after:
            continue
        if rules.gift_once_per_player and p.gifts[kind]:
            continue
        p.gifts[kind] = True
        t.say(f"    {seat_name(seat)} reaches {pv} PV: gift of {GIFT_NAMES[kind]}")
        t.event("gift", seat=seat, pv=pv, gift=kind)
        GIFTS[kind](t, seat)


def gain_money(t: Table, seat: int, n: int) -> None:
    t.seats[seat].money += n
    t.money_in += n


def pay(t: Table, seat: int, n: int) -> None:
    p = t.seats[seat]
    assert p.money >= n, "payments need the money in hand (spec §4.8)"
    p.money -= n
    t.money_in -= n


def gain_ice(t: Table, seat: int, n: int) -> int:
    """Up to ``n`` ice from the supply (spec §4.7: a gain the supply cannot pay is lost)."""
    got = min(n, t.supply)
    t.supply -= got
    t.seats[seat].ice += got
    return got


def return_ice(t: Table, seat: int, n: int) -> None:
    t.seats[seat].ice -= n
    t.supply += n


def reshuffle_discard(t: Table) -> None:
    """The fish discard, shuffled, becomes the shoal (spec §4.5)."""
    t.shoal = list(t.discard)
    t.discard = []
    t.world.shuffle(t.shoal)
    t.say(f"    the discard is shuffled into a new shoal of {len(t.shoal)}")


def blind_available(t: Table) -> bool:
    return bool(t.ifp or t.shoal or t.discard)


def draw_blind(t: Table) -> int | None:
    """The top card of the Indiscriminate pile, which is refilled from the shoal (spec §4.5)."""
    if not t.ifp:
        if not t.shoal and t.discard:
            reshuffle_discard(t)
        block = t.shoal[:t.rules.if_pile_size]
        t.shoal = t.shoal[len(block):]
        t.ifp = block
    if not t.ifp:
        return None
    return t.ifp.pop(0)


def take_blind(t: Table, seat: int, why: str) -> None:
    """A free blind fish into the hand (nothing when no card is left anywhere)."""
    colour = draw_blind(t)
    if colour is None:
        t.say(f"    {seat_name(seat)} would take a blind fish ({why}): none left")
        return
    t.seats[seat].hand[colour] += 1
    t.say(f"    {seat_name(seat)} takes a blind fish ({why}): {COLOUR_NAMES[colour]}")


def refill_display(t: Table) -> None:
    """Empty display indices, ascending, filled from the shoal (spec §4.5)."""
    for i, c in enumerate(t.display):
        if c is not None:
            continue
        if not t.shoal and t.discard:
            reshuffle_discard(t)
        if not t.shoal:
            break
        t.display[i] = t.shoal.pop(0)
    t.say(f"    display refilled: {show_display(t)}")


def gain_treasure(t: Table, seat: int, why: str) -> None:
    """The top treasure card, or +1$ +1 PV while treasures are modified or the deck is empty."""
    if t.modified:
        t.say(f"    {seat_name(seat)} gains a treasure ({why}), replaced: +1$ +1 PV")
        gain_money(t, seat, MODIFIED_MONEY)
        gain_pv(t, seat, MODIFIED_PV)
        return
    kind = t.tdeck.pop(0)
    t.seats[seat].treasures[kind] += 1
    t.say(f"    {seat_name(seat)} gains a treasure ({why}): {TREASURE_NAMES[kind]}")


def discard_treasure(t: Table, seat: int, kind: int) -> None:
    t.seats[seat].treasures[kind] -= 1
    t.tdiscard[kind] += 1


GIFTS = {
    GIFT_MONEY: lambda t, seat: gain_money(t, seat, 1),
    GIFT_TREASURE: lambda t, seat: gain_treasure(t, seat, "gift"),
    GIFT_ICE: lambda t, seat: gain_ice(t, seat, 1),
    GIFT_FISH: lambda t, seat: take_blind(t, seat, "gift"),
}


# ================================================================ sales (spec §2.4, §6)


def feasible(combo: int, counts: tuple, jokers: int) -> bool:
    """Whether a hand (natural colour counts, wild count) can make ``combo`` (spec §6)."""
    n = COMBO_CARDS[combo]
    kind = COMBO_KIND[combo]
    if kind == SAME_KIND:
        return max(counts[:4]) + jokers >= n
    if kind == PAIRS_KIND:
        pairs = sum(c // 2 for c in counts[:4])
        odd = sum(c % 2 for c in counts[:4])
        return pairs + min(jokers, odd) + max(0, jokers - odd) // 2 >= 2
    return sum(counts[:4]) + jokers >= n


def makes(combo: int, used: tuple) -> bool:
    """Whether these cards (colour counts, wild last) are exactly ``combo``."""
    if sum(used) != COMBO_CARDS[combo]:
        return False
    kind = COMBO_KIND[combo]
    if kind == SAME_KIND:
        return sum(1 for c in used[:4] if c) <= 1
    if kind == PAIRS_KIND:  # each odd colour needs a wild; the wilds left pair up
        return sum(c % 2 for c in used[:4]) <= used[JOKER]
    return True


@lru_cache(maxsize=1 << 16)
def sale_options(rules: Rules, hand: tuple, jokers: int, ice: int, combos: tuple) -> tuple:
    """Every canonical sale (spec §6 D6) of ``combos`` from a hand, in the documented order."""
    out = []
    cap = rules.market_ice_cap
    icons = [rules.icons(c) for c in range(5)]
    for combo in combos:
        n = COMBO_CARDS[combo]
        for r in range(min(n, hand[0]) + 1):
            for b in range(min(n - r, hand[1]) + 1):
                for p in range(min(n - r - b, hand[2]) + 1):
                    for y in range(min(n - r - b - p, hand[3]) + 1):
                        j = n - r - b - p - y
                        used = (r, b, p, y, j)
                        if j > jokers or not makes(combo, used):
                            continue
                        top = min(cap, sum(u * i for u, i in zip(used, icons, strict=True)),
                                  ice)
                        out.extend(Sale(combo, used, x) for x in range(top + 1))
    return tuple(out)


def sales_for(t: Table, seat: int, combos: tuple = COMBOS) -> tuple:
    p = t.seats[seat]
    return sale_options(t.rules, tuple(p.hand[:4]), p.jokers(), p.ice, combos)


def make_sale(t: Table, seat: int, sale: Sale, why: str) -> None:
    """Sell: cards to the discard (joker cards before joker treasures), ice to the supply."""
    p = t.seats[seat]
    for c in NATURALS:
        p.hand[c] -= sale.counts[c]
        p.known[c] = max(0, p.known[c] - sale.counts[c])
        t.discard.extend([c] * sale.counts[c])
    cards = min(sale.wild, p.hand[JOKER])
    p.hand[JOKER] -= cards
    p.known[JOKER] = max(0, p.known[JOKER] - cards)
    t.discard.extend([JOKER] * cards)
    for _ in range(sale.wild - cards):
        discard_treasure(t, seat, T_JOKER)
    return_ice(t, seat, sale.x)
    price = t.rules.market_price(sale.combo, sale.x)
    gain_money(t, seat, price)
    p.sales += 1
    t.took[seat][SELL] += 1
    t.say(f"    {seat_name(seat)} sells {sale.show()} for {price}$ ({why})")
    t.event("sale", seat=seat, combo=sale.combo, counts=list(sale.counts), x=sale.x,
            price=price)


def offer_sale(t: Table, seat: int, combos: tuple, why: str, optional: bool = True) -> bool:
    """D6: the seat's sale of one of ``combos``, or none; True if it sold. Under the seat's
    restriction an optional sale is one it must make (``sell`` forced) or declines unasked
    (forbidden)."""
    options = sales_for(t, seat, combos)
    if not options:
        t.say(f"    {seat_name(seat)} has no {why} sale")
        return False
    if optional:  # the seat's restriction: selling is the "yes" of a yes/no decision
        must = kept_binary(SELL, t.forbid[seat], t.force[seat])
        if must is False:
            t.say(f"    {seat_name(seat)} may not sell: declines the {why} sale")
            return False
        optional = must is None
    if len(options) == 1 and not optional:
        sale = options[0]
    else:
        sale = t.policies[seat].sale(t, seat, options, optional)
    if sale is None:
        t.say(f"    {seat_name(seat)} declines the {why} sale")
        return False
    make_sale(t, seat, sale, why)
    return True


# ================================================================ treasure windows (spec §4.9)


def use_treasure(t: Table, seat: int, kind: int) -> None:
    """Use one held treasure of ``kind`` (discarded when used)."""
    p = t.seats[seat]
    rules = t.rules
    if kind == T_MARKET:
        if offer_sale(t, seat, COMBOS, "market treasure"):
            discard_treasure(t, seat, T_MARKET)
        return
    discard_treasure(t, seat, kind)
    t.say(f"    {seat_name(seat)} uses a {TREASURE_NAMES[kind]} treasure")
    if kind == T_ICE:
        gain_ice(t, seat, rules.treasure_ice_amount)
    elif kind == T_FISH:
        take_blind(t, seat, "treasure")
    elif kind == T_2PV:
        gain_pv(t, seat, TWO_PV)
    elif kind == T_2MONEY:
        gain_money(t, seat, TWO_MONEY)
    elif kind == T_4PV_FOR_4:
        assert p.money >= FOUR_PV_PRICE
        pay(t, seat, FOUR_PV_PRICE)
        gain_pv(t, seat, FOUR_PV_GAIN)


def usable(t: Table, seat: int, kind: int) -> bool:
    """Whether a held treasure of ``kind`` can be used now."""
    p = t.seats[seat]
    if not p.treasures[kind]:
        return False
    if kind == T_ICE:
        return t.supply > 0
    if kind == T_MARKET:
        return bool(sales_for(t, seat))
    if kind == T_4PV_FOR_4:
        return p.money >= FOUR_PV_PRICE
    return kind in SIMPLE_TREASURES and not t.rules.auto_use_simple_treasures


def window(t: Table, seat: int) -> None:
    """A treasure-use window: simple treasures first (when auto-used), then D8."""
    p = t.seats[seat]
    if t.rules.auto_use_simple_treasures:
        for kind in SIMPLE_TREASURES:
            while p.treasures[kind]:
                use_treasure(t, seat, kind)
    offered = [kind for kind in WINDOW_TREASURES if usable(t, seat, kind)
               for _ in range(p.treasures[kind])]
    if offered:
        for kind in t.policies[seat].use_treasures(t, seat, offered):
            if usable(t, seat, kind):
                use_treasure(t, seat, kind)
    t.check(f"window of {seat_name(seat)}")


# ================================================================ the boxes (spec §4.3)


def fishing_blind(t: Table, pawn: Pawn) -> None:
    """Indiscriminate fishing: the free ice, then buy a blind fish, keep it or return it."""
    rules, seat, k = t.rules, pawn.seat, pawn.position
    p = t.seats[seat]
    free = rules.if_ice_gift[k - 1]
    if free:
        got = gain_ice(t, seat, free)
        t.say(f"    {seat_name(seat)} takes {got} free ice")
    price = rules.if_prices[k - 1]
    if p.money < price or not blind_available(t):
        t.say(f"    {seat_name(seat)} cannot buy a blind fish ({price}$)")
        return
    if not t.policies[seat].if_buy(t, seat, price):
        t.say(f"    {seat_name(seat)} passes ({price}$ a blind fish)")
        return
    pay(t, seat, price)
    colour = draw_blind(t)
    if t.policies[seat].if_keep(t, seat, colour, price):
        p.hand[colour] += 1
        t.say(f"    {seat_name(seat)} pays {price}$ and keeps a {COLOUR_NAMES[colour]}")
        return
    if rules.if_return_to == "bottom":
        t.ifp.append(colour)
    elif rules.if_return_to == "top":
        t.ifp.insert(0, colour)
    else:
        t.ifp.insert(t.world.below(len(t.ifp) + 1), colour)
    gain_money(t, seat, price)
    t.say(f"    {seat_name(seat)} draws a {COLOUR_NAMES[colour]}, returns it ({rules.if_return_to}"
          f") and gets {price}$ back")


def buy_display(t: Table, seat: int, index: int, why: str) -> None:
    """Pay a display card's price (ice to the supply, $ to the bank) and take it."""
    colour = t.display[index]
    ice, money = t.rules.price(colour)
    return_ice(t, seat, ice)
    pay(t, seat, money)
    t.seats[seat].hand[colour] += 1
    t.seats[seat].known[colour] += 1
    t.display[index] = None
    t.say(f"    {seat_name(seat)} buys display card {index} ({COLOUR_NAMES[colour]}) for "
          f"{ice} ice + {money}$ ({why})")


def can_pay(t: Table, seat: int, colour: int) -> bool:
    ice, money = t.rules.price(colour)
    p = t.seats[seat]
    return p.ice >= ice and p.money >= money


def fishing_selective(t: Table, pawn: Pawn) -> None:
    """Selective fishing: buy the picked display card (position 5: a free blind fish)."""
    seat = pawn.seat
    if pawn.slot == NO_SLOT:
        take_blind(t, seat, "fifth at Selective fishing")
        return
    colour = t.display[pawn.slot]
    if colour is None or not can_pay(t, seat, colour):
        t.say(f"    {seat_name(seat)} cannot pay for display card {pawn.slot}")
        return
    if not t.rules.sf_buy_mandatory and not t.policies[seat].sf_buy(t, seat, pawn.slot):
        t.say(f"    {seat_name(seat)} leaves display card {pawn.slot}")
        return
    buy_display(t, seat, pawn.slot, "Selective fishing")


def ice_direct(t: Table, pawn: Pawn) -> None:
    """The Ice Factory's direct gain of a position."""
    gifts_ = t.rules.ice_factory_gifts
    ice, money = gifts_[2 * (pawn.position - 1)], gifts_[2 * (pawn.position - 1) + 1]
    got = gain_ice(t, pawn.seat, ice) if ice else 0
    if money:
        gain_money(t, pawn.seat, money)
    if got or money:
        t.say(f"    {seat_name(pawn.seat)} at position {pawn.position} gets {got} ice "
              f"{money}$")


def ice_roll(t: Table) -> int:
    """N, the Ice Factory's ice (rolled by position 1)."""
    if t.rules.ice_factory_roll == "two_d6":
        return t.world.dice(6) + t.world.dice(6)
    die = t.world.dice(6)
    return die + (2 if t.rules.ice_factory_roll == "d6_plus_2" else 1)


def ice_hand_out(t: Table, pawns: list) -> None:
    """Roll, then N ice one at a time in position order, cycling, while the supply lasts."""
    n = ice_roll(t)
    got = [0] * len(pawns)
    given = 0
    while given < n and t.supply > 0:
        i = given % len(pawns)
        gain_ice(t, pawns[i].seat, 1)
        got[i] += 1
        given += 1
    t.say(f"    {seat_name(pawns[0].seat)} rolls: {n} ice; hand-out " + ", ".join(
        f"{seat_name(pw.seat)} {g}" for pw, g in zip(pawns, got, strict=True)))
    t.event("ice", n=n, got=got)


def treasure_hunt(t: Table, pawn: Pawn) -> None:
    """Treasures: the free ice, two dice, a treasure if die A beats the position, the coin."""
    rules, seat, k = t.rules, pawn.seat, pawn.position
    free = rules.treasure_ice_gift[k - 1]
    if free:
        got = gain_ice(t, seat, free)
        t.say(f"    {seat_name(seat)} takes {got} free ice")
    a, b = t.world.dice(6), t.world.dice(6)
    threshold = rules.treasure_thresholds[k - 1]
    mode = rules.treasure_roll_mode
    found = a > threshold if mode == "die_a" else \
        max(a, b) > threshold if mode == "max_of_two" else a + b > 2 * threshold
    t.say(f"    {seat_name(seat)} rolls {a}, {b} at position {k}: "
          + ("a treasure" if found else "nothing"))
    t.event("treasure_roll", seat=seat, dice=[a, b], found=found)
    if found:
        gain_treasure(t, seat, "Treasures")
    if k == 1 and rules.treasure_captain_coin and a > 1 and b > 1:
        gain_money(t, seat, 1)
        t.say(f"    {seat_name(seat)} gets the Captain's coin")


def fish_market(t: Table, pawn: Pawn) -> None:
    offer_sale(t, pawn.seat, (pawn.slot,), "Fish Market", optional=t.rules.sale_optional)


def special_offer(t: Table, pawn: Pawn) -> None:
    """The picked offer; the pawn at position 5 also gets 1 PV."""
    seat, offer = pawn.seat, pawn.slot
    p = t.seats[seat]
    t.say(f"    {seat_name(seat)} takes the offer: {OFFER_NAMES[offer]}")
    if offer == SO_2PV:
        if p.money >= SO_2PV_PRICE:
            t.say(f"    {seat_name(seat)} pays {SO_2PV_PRICE}$ for {SO_2PV_GAIN} PV")
            pay(t, seat, SO_2PV_PRICE)
            gain_pv(t, seat, SO_2PV_GAIN)
        else:
            t.say(f"    {seat_name(seat)} cannot pay {SO_2PV_PRICE}$")
    elif offer == SO_FISHING:
        options = [i for i, c in enumerate(t.display)
                   if c is not None and i not in reserved(t) and can_pay(t, seat, c)] + [BLIND]
        choice = options[0] if len(options) == 1 else \
            t.policies[seat].so_fishing(t, seat, options)
        if choice == BLIND:
            take_blind(t, seat, "Special Offers")
        else:
            buy_display(t, seat, choice, "Special Offers")
            refill_display(t)
    elif offer == SO_ICE:
        t.say(f"    {seat_name(seat)} takes {gain_ice(t, seat, 1)} ice")
    elif offer == SO_TREASURE:
        gain_treasure(t, seat, "Special Offers")
    elif offer == SO_MARKET:
        offer_sale(t, seat, COMBOS, "Special Offers")
    if pawn.position == 5:
        t.say(f"    {seat_name(seat)} took the last offer: +{SO_LAST_PV} PV")
        gain_pv(t, seat, SO_LAST_PV)


def reserved(t: Table) -> set:
    """Display cards picked by Selective fishing pawns that have not resolved yet."""
    return {p.slot for p in t.pawns if p.box == SF and p.slot != NO_SLOT and not p.done}


def subvention(t: Table, pawn: Pawn) -> None:
    seat = pawn.seat
    if t.policies[seat].sub_money(t, seat):
        t.say(f"    {seat_name(seat)} takes the Subvention as 1$")
        gain_money(t, seat, 1)
    else:
        t.say(f"    {seat_name(seat)} takes the Subvention as 1 PV")
        gain_pv(t, seat, 1)


def mutiny(t: Table, pawn: Pawn) -> None:
    """Pay the space's price for its PV (space 0: 1$ for its PV); unpaid: space 0."""
    seat, m = pawn.seat, pawn.slot
    p = t.seats[seat]
    if p.money < m:
        t.say(f"    {seat_name(seat)} cannot pay Mutiny space {m}: space 0")
        m = 0
    pv = t.rules.mutiny_pv[m]
    t.say(f"    {seat_name(seat)} mutinies on space {m}: pays {m}$, {pv:+d} PV"
          + (f", +{MUTINY_ZERO_MONEY}$" if m == 0 else ""))
    t.event("mutiny", seat=seat, space=m)
    if m:
        pay(t, seat, m)
    gain_pv(t, seat, pv)
    if m == 0:
        gain_money(t, seat, MUTINY_ZERO_MONEY)
    p.mut_actions += 1
    t.mut_actions += 1


STEPS = {IF: fishing_blind, SF: fishing_selective, TR: treasure_hunt, FM: fish_market,
         SO: special_offer, SUB: subvention, MUT: mutiny}


def resolve_pawn(t: Table, pawn: Pawn) -> None:
    """Window, the pawn's own step, window."""
    window(t, pawn.seat)
    t.say(f"  {seat_name(pawn.seat)} resolves {BOX_CODES[pawn.box]} at position {pawn.position}")
    STEPS[pawn.box](t, pawn)
    pawn.done = True
    t.check(f"{BOX_CODES[pawn.box]} of {seat_name(pawn.seat)}")
    window(t, pawn.seat)


def resolve_box(t: Table, box: int, pawns: list) -> None:
    """One box's pawns in position order; the Ice Factory's shared step; the display refill."""
    if not pawns:
        return
    if box == ICE:
        for pawn in pawns:
            window(t, pawn.seat)
        t.say("  the Ice Factory: " + ", ".join(seat_name(p.seat) for p in pawns))
        for pawn in pawns:
            ice_direct(t, pawn)
        ice_hand_out(t, pawns)
        for pawn in pawns:
            pawn.done = True
        t.check("Ice Factory")
        for pawn in pawns:
            window(t, pawn.seat)
        return
    for pawn in pawns:
        resolve_pawn(t, pawn)
    if box == SF:
        refill_display(t)


# ================================================================ choices (spec §6 D1, D2, D9)


def join_slots(t: Table, box: int, position: int, free_round: bool = False) -> list:
    """The slots a pawn arriving at ``position`` of ``box`` may take ([NO_SLOT] for a box
    without slots, [] when it has no room)."""
    rules = t.rules
    taken = t.taken(box)
    if box == SF:
        if position > SF_PICKS and rules.sf_fifth_gets_blind:
            return [NO_SLOT]
        return [i for i, c in enumerate(t.display) if c is not None and i not in taken]
    if box == FM:
        exclusive = rules.market_slots_exclusive and (
            not free_round or rules.free_round_slots_exclusive)
        return [c for c in COMBOS if not exclusive or c not in taken]
    if box == SO:
        exclusive = not free_round or rules.free_round_slots_exclusive
        return [o for o in OFFERS if not exclusive or o not in taken]
    return [NO_SLOT]


def mutiny_spaces(t: Table, seat: int) -> list:
    """Mutiny spaces a pawn may take (price checked now under mutiny_money_check=placement)."""
    money = t.seats[seat].money
    check = t.rules.mutiny_money_check == "placement"
    return [m for m in range(MUTINY_SPACES) if not check or money >= m]


def forbidden_action(t: Table) -> int:
    """The action the Captain may not choose (spec §4.2 step 2, previous_action_rule)."""
    rule = t.rules.previous_action_rule
    if rule == "none" or (rule == "same_captain_only" and t.captain != t.previous_captain):
        return NO_ACTION
    return t.previous_action


def captain_options(t: Table) -> list:
    """D1: every (action, slot) the Captain may choose."""
    banned = forbidden_action(t)
    return [(box, slot) for box in CAPTAIN_BOXES if box != banned
            for slot in join_slots(t, box, 1)]


def follower_options(t: Table, seat: int, box: int) -> list:
    """D2: JOIN (with a free slot), Subvention, or a Mutiny space."""
    position = len(t.in_box(box)) + 1
    options = [(box, slot) for slot in join_slots(t, box, position)]
    options.append((SUB, NO_SLOT))
    mutiny_open = not t.in_box(MUT) and not (
        t.phase == LAST_CAPTAIN and t.rules.last_captain_mutiny == "forbidden")
    if mutiny_open:
        options += [(MUT, m) for m in mutiny_spaces(t, seat)]
    return options


def free_options(t: Table, seat: int) -> list:
    """D9: any box (with a free slot) or Mutiny space, in the free round."""
    options = []
    for box in (IF, SF, ICE, TR, FM, SO, SUB):
        position = len(t.in_box(box)) + 1
        options += [(box, slot) for slot in join_slots(t, box, position, free_round=True)]
    options += [(MUT, m) for m in mutiny_spaces(t, seat)]
    return options


def place(t: Table, seat: int, box: int, slot: int) -> Pawn:
    pawn = Pawn(seat, box, slot, len(t.in_box(box)) + 1)
    t.pawns.append(pawn)
    t.took[seat][BOX_CHOICE[box]] += 1
    where = BOX_NAMES[box]
    if box == SF and slot != NO_SLOT:
        where += f" (display card {slot}, {COLOUR_NAMES[t.display[slot]]})"
    elif box == FM:
        where += f" ({COMBO_CODES[slot]})"
    elif box == SO:
        where += f" ({OFFER_NAMES[slot]})"
    elif box == MUT:
        where += f" (space {slot})"
    t.say(f"  {seat_name(seat)} places on {where}, position {pawn.position}")
    t.event("place", seat=seat, box=box, slot=slot, position=pawn.position)
    return pawn


def choose(t: Table, seat: int, decision: str, options: list):
    """A policy's pick among the ``options`` (box, slot) the seat's restriction keeps (not
    asked when one is left): each is of its box's choice (engines._restrict)."""
    options = kept(options, [BOX_CHOICE[box] for box, _ in options], t.forbid[seat],
                   t.force[seat])
    if len(options) == 1:
        return options[0]
    return getattr(t.policies[seat], decision)(t, seat, options)


# ================================================================ rounds (spec §4.2, §4.4)


def play_round(t: Table) -> None:
    """One normal or last-Captain round: choices, resolution, captaincy."""
    begin_round(t)
    C = t.captain
    place_captain(t, *choose(t, C, "captain_action", captain_options(t)))
    finish_round(t)


def begin_round(t: Table) -> None:
    t.round += 1
    t.pawns = []
    t.say(f"Round {t.round} ({t.phase}), Captain {seat_name(t.captain)}, marker {t.marker}"
          + (", treasures replaced" if t.modified else "") + ": "
          + "; ".join(show_player(p) for p in t.seats))


def place_captain(t: Table, box: int, slot: int) -> None:
    """The Captain's pawn on the chosen action, at position 1."""
    t.captain_choices[CAPTAIN_BOXES.index(box)] += 1
    t.seats[t.captain].captain_rounds += 1
    place(t, t.captain, box, slot)


def finish_round(t: Table) -> None:
    """The rest of a normal round from its next placement: the followers still to choose
    (clockwise), resolution, captaincy."""
    P, C = t.players, t.captain
    box = t.pawns[0].box
    for k in range(len(t.pawns), P):
        seat = (C + k) % P
        place(t, seat, *choose(t, seat, "follower_choice", follower_options(t, seat, box)))
    t.check("placement")
    resolve_box(t, box, t.in_box(box))
    for pawn in t.in_box(SUB):
        resolve_pawn(t, pawn)
    mutineers = t.in_box(MUT)
    for pawn in mutineers:
        resolve_pawn(t, pawn)
    end_round(t, box, mutineers)


def end_round(t: Table, box: int, mutineers: list) -> None:
    """Captaincy (spec §4.2 step 5), the previous action, the next phase."""
    rules, C = t.rules, t.captain
    if t.phase == NORMAL:
        t.normal_rounds += 1
        if mutineers:
            t.captain = mutineers[0].seat
            t.marker += 1
            t.mutinies += 1
            t.say(f"  {seat_name(t.captain)} is the new Captain; marker {t.marker}")
        t.previous_action, t.previous_captain = box, C
        if t.marker >= rules.num_mutinies:
            t.phase = LAST_CAPTAIN
        elif t.normal_rounds >= rules.max_rounds:
            t.phase = FREE
            t.truncated = 1
            t.say(f"  {rules.max_rounds} normal rounds: the game goes to the free round")
    else:
        t.previous_action, t.previous_captain = box, C
        t.phase = FREE
    t.check("end of round")


def play_free_round(t: Table) -> None:
    """The free round: everyone, from the Captain clockwise, places anywhere (spec §4.4)."""
    t.round += 1
    t.pawns = []
    t.say(f"Round {t.round} (free), from {seat_name(t.captain)}: "
          + "; ".join(show_player(p) for p in t.seats))
    finish_free_round(t)


def finish_free_round(t: Table) -> None:
    """The rest of the free round from its next placement: placement, resolution."""
    P = t.players
    for k in range(len(t.pawns), P):
        seat = (t.captain + k) % P
        place(t, seat, *choose(t, seat, "free_round_choice", free_options(t, seat)))
    t.check("free placement")
    if t.rules.free_round_resolution == "box_order":
        for box in (IF, SF, ICE, TR, FM, SO, SUB, MUT):
            resolve_box(t, box, t.in_box(box))
    else:
        for pawn in list(t.pawns):
            resolve_in_placement_order(t, pawn)
    t.phase = OVER
    t.check("free round")


def resolve_in_placement_order(t: Table, pawn: Pawn) -> None:
    """free_round_resolution=placement_order: each pawn in turn; the Ice Factory's roll and
    hand-out with its last pawn, the display refill after its last Selective fishing pawn."""
    last = t.in_box(pawn.box)[-1] is pawn
    if pawn.box == ICE:
        window(t, pawn.seat)
        ice_direct(t, pawn)
        if last:
            ice_hand_out(t, t.in_box(ICE))
        pawn.done = True
        window(t, pawn.seat)
        return
    resolve_pawn(t, pawn)
    if pawn.box == SF and last:
        refill_display(t)


# ================================================================ the end (spec §5)


def final_scoring(t: Table) -> None:
    """Steps 1-6 of spec §5 for each player (no gifts)."""
    rules = t.rules
    for p in t.seats:
        seat = p.seat
        p.end_money = p.money
        if rules.final_market_sales:
            for _ in range(p.treasures[T_MARKET]):
                if offer_sale(t, seat, COMBOS, "final market treasure"):
                    discard_treasure(t, seat, T_MARKET)
        p.pv += TWO_PV * p.treasures[T_2PV]
        p.money += TWO_MONEY * p.treasures[T_2MONEY]
        fish = p.fish + p.treasures[T_FISH] + p.treasures[T_JOKER]
        p.money += FINAL_FISH_PRICE * fish
        for _ in range(p.treasures[T_4PV_FOR_4]):
            if p.money >= FOUR_PV_PRICE:
                p.money -= FOUR_PV_PRICE
                p.pv += FOUR_PV_GAIN
        p.pv += p.money // 2
        p.leftover = p.money % 2
        p.pv -= p.ice
        if rules.pv_floor == "zero":
            p.pv = max(0, p.pv)
        t.say(f"  {seat_name(seat)} scores {p.pv} PV ({fish} fish sold, {p.money}$ -> "
              f"{p.money // 2} PV, leftover {p.leftover}, -{p.ice} for ice)")


def winners(t: Table) -> list:
    """Win shares: most PV; then a leftover 1$; then fewer ice or shared (final_tiebreak)."""
    best = max(p.pv for p in t.seats)
    tied = [p for p in t.seats if p.pv == best]
    t.tied_first = len(tied)
    rule = t.rules.final_tiebreak
    if rule != "shared":
        coin = [p for p in tied if p.leftover == 1]
        tied = coin or tied
    if rule == "leftover_coin_then_fewer_ice":
        fewest = min(p.ice for p in tied)
        tied = [p for p in tied if p.ice == fewest]
    win = [0.0] * t.players
    for p in tied:
        win[p.seat] = 1.0 / len(tied)
    return win


def play_game(rules: Rules, players: int, policies: list, world: Rng, narrate: bool = False,
              checking: bool = False) -> Table:
    """Set up, play the normal rounds, the last Captain round and the free round, score."""
    t = setup(rules, players, world)
    t.policies = policies
    t.forbid = [getattr(p, "forbid", 0) for p in policies]
    t.force = [getattr(p, "force", 0) for p in policies]
    t.checking = checking
    if narrate:
        t.log, t.events = [], []
    narrate_setup(t)
    t.check("setup")
    play_on(t)
    return t


def play_on(t: Table) -> None:
    """From a round boundary to the end: the rounds left, the free round, final scoring."""
    while t.phase in (NORMAL, LAST_CAPTAIN):
        play_round(t)
        note_standing(t)
    if t.phase == FREE:
        play_free_round(t)
    finish_game(t)


def finish_game(t: Table) -> None:
    """Final scoring and the winners."""
    t.say("Final scoring:")
    final_scoring(t)
    note_standing(t)  # the free round's standing is the final score
    t.win = winners(t)
    t.say("Winner: " + ", ".join(f"{seat_name(s)} ({w:g})" for s, w in enumerate(t.win) if w)
          + f" after {t.round} rounds and {t.mutinies} mutinies")


# ================================================================ who leads, round by round


def note_standing(t: Table) -> None:
    """The PV track as a round ends (after the free round: the final PV), in t.standings."""
    if t.standings is not None:
        t.standings.append([p.pv for p in t.seats])



def outcome(t: Table, game: int) -> dict:
    """The outcome row (column order as declared in ``__init__``)."""
    row: dict = {"game": game, "players": t.players}
    per_seat = (("score", "pv"), ("win", None), ("captain_rounds", "captain_rounds"),
                ("money", "end_money"), ("ice_left", "ice"), ("sales", "sales"),
                ("mut", "mut_actions"))
    for prefix, attr in per_seat:
        for p in t.seats:
            row[f"{prefix}_{p.seat}"] = t.win[p.seat] if attr is None else getattr(p, attr)
    row.update(rounds=t.round, normal_rounds=t.normal_rounds, mutinies=t.mutinies,
               mut_actions=t.mut_actions, truncated=t.truncated,
               first_captain=t.rules.first_captain_seat, tied_first=t.tied_first)
    for box, n in zip(CAPTAIN_BOXES, t.captain_choices, strict=True):
        row[f"captain_{BOX_CODES[box].lower()}"] = n
    assert len(t.standings) == t.round, "one standing per round"
    row["lead_changes"], row["half_time_leader"] = lead_story(t.standings)
    for k, name in enumerate(CHOICE_NAMES):
        for p in t.seats:
            row[f"took_{name}_{p.seat}"] = t.took[p.seat][k]
    return row


def final_state(t: Table) -> dict:
    """Where everything ended up: players, piles, marker."""
    return {
        "players": [{"seat": seat_name(p.seat), "pv": p.pv, "money": p.money, "ice": p.ice,
                     "hand": dict(zip(COLOUR_NAMES, p.hand, strict=True)),
                     "treasures": {TREASURE_CODES[k]: n for k, n in enumerate(p.treasures) if n},
                     "leftover": p.leftover} for p in t.seats],
        "marker": t.marker,
        "captain": seat_name(t.captain),
        "display": [COLOUR_CODES[c] if c is not None else None for c in t.display],
        "indiscriminate_pile": len(t.ifp),
        "shoal": len(t.shoal),
        "discard": len(t.discard),
        "treasure_deck": len(t.tdeck),
        "ice_supply": t.supply,
    }
