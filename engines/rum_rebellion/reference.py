"""Rum Rebellion, the readable reference path: the rules as the spec states them, step by step.

This module is the oracle. It plays one game with plain lists and names from
the rulebook (barrels, votes, missed_turns, promissory_notes, bond_store,
ticket_of_leave, commission, coup), can narrate every roll, square, card,
payment, note, level change, challenge, announcement and coup, and returns the
outcome row of spec §5 that the Numba fast path (``engine.py``) must reproduce
exactly for the same rules, policies, seed and game index.

Turn procedure (spec §4.3): ``take_turn`` runs ``s1_missed_turn`` ...
``s9_announce``; ``play_seat`` adds S10 (the doubles chain); ``play_rounds``
the rounds and the cap. Each square type has its own function
(``SQUARE_ACTIONS``); payments go through ``settle`` / ``settle_store`` /
``redeem`` (§4.6); Start through ``on_pass_start`` (§4.4); the coup through
``attempt_coup`` and ``return_coup_votes`` (§4.8). Every round end (a coup's moment
included) notes the standings (``note_standing``), from which ``lead_story`` gives the
``lead_changes`` and ``half_time_leader`` columns.

Random draws, in the order both paths make them
-----------------------------------------------
World stream ``Rng(seed, game, WORLD)``:

Setup (``setup``), in this order:

1. Deal the starting Vote cards: the cards of value 10 of the canonical pack
   (``vote_pack`` triples expanded in the order listed, card ids 0..59) are
   shuffled; seat 0 takes the first two, seat 1 the next two, and so on.
2. The Vote pack: every card not dealt, in canonical id order, shuffled; index
   0 is the face-up top card.
3. The Win/Lose deck: ``win_cards`` WIN then the remaining LOSE cards
   (after ``lose_cards_removed``), shuffled; index 0 is the top. Under
   ``win_lose_after_draw=iid`` this deck keeps its canonical order and is
   never shuffled (neither here nor by a Bonus square).
4. The Court Verdict deck: GO_FREE, FINE, GAOL cards (after removals) in that
   order, shuffled.
5. The Ticket of Leave cards 1..6, shuffled; index 0 is the top.
6. ``bond_store_seat=random``: ``below(P)``. Then, with no draw, the Store hands
   each seat its ``start_barrels_by_seat`` barrels, seat 0 first, and pays the
   Bond Store bonus.
7. ``starting_level`` above Convict: tickets are dealt from the top of the
   ticket deck (or picked, ``ticket_assignment=choose``), seat 0 first. No draw.

During play:

* S1, only when the player has a Missed Turn marker and
  ``sneak_turn_probability > 0``: ``uniform() < sneak_turn_probability``
  means the turn is played anyway.
* S6: two dice, ``dice(6)`` then ``dice(6)``.
* Every Win/Lose draw (crime, challenge, duel, coup): first the side bets are
  called (policy streams, see below), then the card: the deck's top card goes
  to the bottom (no random number), or under ``iid`` ``below(deck size)``
  indexes the canonical deck. Court Verdict draws take the top card to the
  bottom (no random number).
* A Bonus square (``bonus_shuffles_decks=true``): shuffle the Win/Lose deck
  (not under ``iid``), then the Court Verdict deck, each in its current order.
* A failed coup under ``vote_model=cards_5_10``: the returned cards go under
  the pack, change is taken, then the pack is shuffled. (Under ``points`` the
  votes vanish and nothing is shuffled.)

Policy streams ``Rng(seed, game, POLICY + seat)``: a seat's own random choices
(the ``random`` policy). A decision is only asked when it has at least two
legal options that the seat's restriction keeps (``decide``, ``engines._restrict``:
``expert:forbid=crime``), so a forced decision draws nothing. The random policy draws
``below(n)`` over the options in the order of spec §6.2 (yes/first option = 0).
Side bets are asked of the players other than the drawer in turn order after
the drawer, each holding at least the stake, before the card is drawn, and
settled in the same order after it.

Everything else is deterministic: redemptions (and ``redeem_timing=any_time``
checkpoints) run in a fixed order, notes are ordered by age (``Note.id``),
Vote cards by the order a player received them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines._restrict import kept, kept_binary
from engines._rng import Rng
from engines._standings import lead_story, leader  # noqa: F401 (tests use leader)
from engines.rum_rebellion import (
    C_ANNOUNCE,
    C_BUY_VOTE,
    C_CHALLENGE,
    C_COMMISSION,
    C_CRIME,
    C_MAJOR_VOTE,
    C_PROMOTION,
    C_REDEEM,
    C_STORE_VOTE,
    C_TICKET,
    CHOICES,
)
from engines.rum_rebellion.data import (
    BO,
    BV,
    CH,
    CONVICT,
    CR,
    DU,
    GAOL,
    GD,
    GO_FREE,
    LEVEL_NAMES,
    MF,
    N_TICKETS,
    OC,
    PL,
    PR,
    RUM_CORPS,
    SQUARE_NAMES,
    STARTING_CARD_VALUE,
    STARTING_LEVEL_INDEX,
    STARTING_VOTE_CARDS,
    TICKET_OF_LEAVE,
    WIN,
    Square,
    VoteCard,
    ticket_rents,
    vote_cards,
)
from engines.rum_rebellion.data import START as START_SQUARE
from engines.rum_rebellion.rules import (
    CRIME_VALUE,
    NO_LIMIT,
    RANDOM_SEAT,
    UNLIMITED,
    Rules,
)

STORE = -1                 # the holder of government debts (spec §4.6)
NO_KIND = -1               # an option of no declared choice (decline, "nobody") (engines._restrict)
DOUBLES_CHAIN_CAP = 1000   # safety cap on one doubles chain (spec §4.9); hits are counted


# ================================================================ state (spec §4.1)


@dataclass
class Note:
    """A promissory note: ``debtor`` owes ``holder`` (a seat or STORE) ``face`` barrels."""

    id: int                # age: lower is older (written earlier)
    debtor: int
    holder: int
    face: int
    issued_at_pass: int    # the debtor's start_passes when the note was written


@dataclass
class Player:
    seat: int
    level: int = CONVICT
    position: int = 0
    barrels: int = 0
    votes: int = 0
    vote_cards: list[VoteCard] = field(default_factory=list)   # oldest first
    tickets: list[int] = field(default_factory=list)
    missed_turns: int = 0
    rotations: int = 0          # passes of Start on the current level
    start_passes: int = 0       # passes of Start on all levels (note transfer)
    is_major: bool = False
    announced_round: int | None = None
    announced_turn: int | None = None
    store_offer_spell: int = -1  # the empty-Store spell in which S5 last offered a sale


@dataclass
class Table:
    """Everything on the table during one game."""

    rules: Rules
    players: list[Player]
    boards: tuple[tuple[Square, ...], ...]
    world: object               # engines._rng.Rng or anything with dice/below/uniform/shuffle
    policies: list              # one decision maker per seat
    # each seat's restriction (engines._restrict), read from its decision maker at setup so
    # that a search's playouts, whose decision makers are base players, keep it
    forbid: list[int] = field(default_factory=list)
    force: list[int] = field(default_factory=list)
    took: list[list[int]] = field(default_factory=list)   # took[seat][choice]: times taken
    bond_store: int = 0         # UNLIMITED (-1) when the Store never runs out
    store_paid_out: int = 0
    store_paid_in: int = 0
    store_spell: int = 0        # how many times the Store has been emptied
    win_lose: list[str] = field(default_factory=list)            # index 0 = top
    win_lose_seen: list[str] = field(default_factory=list)       # drawn since the last shuffle
    court_verdict: list[str] = field(default_factory=list)
    court_verdict_seen: list[str] = field(default_factory=list)
    vote_pack: list[VoteCard] = field(default_factory=list)      # index 0 = face-up top
    ticket_deck: list[int] = field(default_factory=list)         # index 0 = top
    ticket_owner: list[int | None] = field(default_factory=lambda: [None] * (N_TICKETS + 1))
    notes: list[Note] = field(default_factory=list)              # oldest first
    next_note_id: int = 0
    round: int = 1
    turn_id: int = 0            # every turn started, skipped or played (a clock)
    active: int = 0
    markers_gained: bool = False  # in the current turn (S10)
    doubles: bool = False       # the current turn's dice were doubles (S10)
    chain: int = 0              # free turns the active seat has had in this chain (S10)
    # A rollout's playout (policies.RolloutPolicy): each turn it starts draws from its own
    # world, Rng(playout_word, turn_key(round, seat, chain), 0); None in a game.
    playout_word: int | None = None
    winner: int | None = None
    capped: bool = False
    bond_store_seat: int = 0
    # outcome counters (spec §5)
    turns: int = 0
    coups_attempted: int = 0
    challenges: int = 0
    crimes_committed: int = 0
    notes_written: int = 0
    store_ran_out: int = 0
    doubles_chain_cap_hits: int = 0
    standings: list[list[int]] = field(default_factory=list)  # progress scores after each round
    log: list[str] | None = None
    events: list[dict] | None = None
    observe: object = None      # observe(table, kind, seat) after setup and every turn (tests)

    @property
    def P(self) -> int:
        return len(self.players)

    @property
    def unlimited(self) -> bool:
        return self.bond_store == UNLIMITED

    @property
    def narrating(self) -> bool:
        return self.log is not None

    def say(self, text: str, event: str | None = None, **fields) -> None:
        """One narration line and (optionally) one machine event. Call only when narrating."""
        self.log.append(text)
        if event is not None:
            self.events.append({"event": event, "round": self.round, **fields})

    def board(self, level: int) -> tuple[Square, ...]:
        return self.boards[level]

    def square(self, p: int) -> Square:
        pl = self.players[p]
        return self.boards[pl.level][pl.position]

    def others(self, p: int) -> list[int]:
        """The other seats in turn order after ``p``."""
        return [(p + k) % self.P for k in range(1, self.P)]



def _barrels(n: int) -> str:
    """'1 barrel', '3 barrels' (narration)."""
    return f"{n} barrel" if n == 1 else f"{n} barrels"

def who(p: int) -> str:
    return "the Store" if p == STORE else f"seat {p}"


def where(t: Table, p: int) -> str:
    pl = t.players[p]
    sq = t.boards[pl.level][pl.position]
    return f"{LEVEL_NAMES[pl.level]} {pl.position} ({SQUARE_NAMES[sq.kind]}{_square_detail(sq)})"


def _square_detail(sq: Square) -> str:
    if sq.kind == OC:
        return f" {sq.value}, rent {sq.rent}"
    if sq.kind in (GD, BO, CR, MF):
        return f" {sq.value}"
    return ""


# ================================================================ restricted play


def decide(t: Table, p: int, choice: int, ask) -> bool:
    """Seat p's yes/no decision whose yes is of ``choice`` (the declared CHOICES): its
    restriction's answer when that leaves one option (the policy is not asked), else
    ``ask()``, the policy's; a yes is counted in ``took``."""
    yes = kept_binary(choice, t.forbid[p], t.force[p])
    if yes is None:
        yes = ask()
    if yes:
        t.took[p][choice] += 1
    return yes


# ================================================================ observation helpers


def notes_owed(t: Table, p: int) -> list[Note]:
    return [n for n in t.notes if n.debtor == p]


def owes_notes(t: Table, p: int) -> bool:
    return any(n.debtor == p for n in t.notes)


def transferable(t: Table, note: Note) -> bool:
    """A note may be handed on once its debtor has passed Start after writing it (§4.4)."""
    return t.players[note.debtor].start_passes > note.issued_at_pass


def coup_eligible(t: Table, p: int) -> bool:
    """Announce (S9) and attempt (S3): Rum Corps, enough votes, no notes (§4.8)."""
    pl = t.players[p]
    if t.rules.coup_requires_rum_corps and pl.level != RUM_CORPS:
        return False
    return pl.votes >= t.rules.votes_for_coup and not owes_notes(t, p)


def top_vote_card(t: Table) -> VoteCard | None:
    """The face-up top of the Vote pack, or None (empty pack, or vote_top_visible=false)."""
    if t.vote_pack and t.rules.vote_top_visible:
        return t.vote_pack[0]
    return None


def next_win_lose_odds(t: Table) -> tuple[int, int]:
    """(WIN cards the next draw may be, cards it may be) from what every player has seen.

    Drawn cards go under the deck, so after a full cycle since the last
    shuffle the next card is known (spec §4.11, §6.1).
    """
    deck = t.win_lose
    wins = sum(1 for c in deck if c == WIN)
    if t.rules.win_lose_after_draw == "iid":
        return wins, len(deck)
    seen = t.win_lose_seen
    if len(seen) >= len(deck):
        return (1 if seen[len(seen) - len(deck)] == WIN else 0), 1
    return wins - sum(1 for c in seen if c == WIN), len(deck) - len(seen)


def progress_score(t: Table, p: int) -> int:
    """1000 * stage + 10 * votes + net barrels (spec §5)."""
    pl = t.players[p]
    stage = 3 if t.winner == p else pl.level
    held = sum(n.face for n in t.notes if n.holder == p)
    owed = sum(n.face for n in t.notes if n.debtor == p)
    return 1000 * stage + 10 * pl.votes + pl.barrels + held - owed


# ================================================================ the Bond Store


def store_pays(t: Table, p: int, amount: int, why: str) -> int:
    """The Store pays ``amount`` barrels, or what it can (store_shortfall, §4.10)."""
    if amount <= 0:
        return 0
    pl = t.players[p]
    if t.unlimited or t.bond_store >= amount:
        paid = amount
    else:
        t.store_ran_out = 1
        paid = t.bond_store if t.rules.store_shortfall == "pay_available" else 0
    if not t.unlimited:
        t.bond_store -= paid
        if paid and t.bond_store == 0:
            t.store_spell += 1
    t.store_paid_out += paid
    pl.barrels += paid
    if t.narrating:
        short = f" (the Store had only {paid} of {amount})" if paid < amount else ""
        t.say(f"    {who(p)} receives {_barrels(paid)} from the Store for {why}{short} "
              f"-> {pl.barrels}; Store {_store(t)}", "store_pays", seat=p, amount=amount,
              paid=paid, why=why)
    return paid


def pay_store(t: Table, p: int, amount: int, why: str) -> None:
    """``p`` pays the Store ``amount`` barrels (the caller made sure they are held)."""
    if amount <= 0:
        return
    pl = t.players[p]
    assert pl.barrels >= amount
    pl.barrels -= amount
    if not t.unlimited:
        t.bond_store += amount
    t.store_paid_in += amount
    if t.narrating:
        t.say(f"    {who(p)} pays {_barrels(amount)} to the Store for {why} -> {pl.barrels}; "
              f"Store {_store(t)}", "pays_store", seat=p, amount=amount, why=why)


def pay_player(t: Table, d: int, c: int, amount: int, why: str) -> None:
    if amount <= 0:
        return
    t.players[d].barrels -= amount
    t.players[c].barrels += amount
    if t.narrating:
        t.say(f"    {who(d)} pays {_barrels(amount)} to {who(c)} for {why} "
              f"({t.players[d].barrels} / {t.players[c].barrels})", "pays", seat=d, to=c,
              amount=amount, why=why)


def _store(t: Table) -> str:
    return "unlimited" if t.unlimited else str(t.bond_store)


# ================================================================ missed turns, vote cards


def add_missed_turns(t: Table, p: int, n: int, why: str) -> None:
    """Take ``n`` Missed Turn markers (fewer if the box runs out, §7.3)."""
    limit = t.rules.missed_turn_markers_limit
    if limit != NO_LIMIT:
        left = limit - sum(pl.missed_turns for pl in t.players)
        n = min(n, max(left, 0))
    pl = t.players[p]
    pl.missed_turns += n
    if n > 0:
        t.markers_gained = True
    if t.narrating:
        t.say(f"    {who(p)} takes {n} Missed Turn marker(s) for {why} -> {pl.missed_turns}",
              "missed_turns", seat=p, taken=n, why=why)


def gain_card(t: Table, p: int, card: VoteCard) -> None:
    pl = t.players[p]
    pl.votes += card.value
    if t.rules.vote_model == "cards_5_10":
        pl.vote_cards.append(card)


def _oldest_card(pl: Player, value: int) -> VoteCard | None:
    for card in pl.vote_cards:
        if card.value == value:
            return card
    return None


def _move_card(t: Table, giver: int, taker: int, card: VoteCard) -> None:
    g, k = t.players[giver], t.players[taker]
    g.vote_cards.remove(card)
    g.votes -= card.value
    k.vote_cards.append(card)
    k.votes += card.value


def hand_over_votes(t: Table, giver: int, taker: int, amount: int) -> None:
    """Move ``amount`` votes: per 10, the oldest 10-card, else the two oldest 5-cards (§4.5 CH)."""
    if t.rules.vote_model == "points":
        t.players[giver].votes -= amount
        t.players[taker].votes += amount
        return
    g = t.players[giver]
    for _ in range(amount // 10):
        ten = _oldest_card(g, 10)
        if ten is not None:
            _move_card(t, giver, taker, ten)
        else:
            for _ in range(2):
                _move_card(t, giver, taker, _oldest_card(g, 5))


def return_coup_votes(t: Table, p: int) -> None:
    """A failed coup: votes back to the pack with exact change, then the pack is shuffled (§4.8)."""
    pl = t.players[p]
    rules = t.rules
    if rules.vote_model == "points":
        lost = pl.votes if rules.coup_fail_votes_lost == "all" else rules.votes_for_coup
        pl.votes -= lost
        if t.narrating:
            t.say(f"    seat {p} loses {lost} votes -> {pl.votes}", "coup_votes_lost", seat=p,
                  votes=lost)
        return
    if rules.coup_fail_votes_lost == "all":
        given = list(pl.vote_cards)
        R = 0
    else:
        T = rules.votes_for_coup
        tens = [c for c in pl.vote_cards if c.value == 10]
        fives = [c for c in pl.vote_cards if c.value == 5]
        a = min(len(tens), T // 10)
        given = tens[:a]
        R = T - 10 * a
        b = min(len(fives), -(-R // 5))
        given += fives[:b]
        R -= 5 * b
        if R > 0:
            given.append(tens[a])
            R -= 10
    for card in given:
        pl.vote_cards.remove(card)
        pl.votes -= card.value
        t.vote_pack.append(card)
    change = []
    while R <= -5:
        five = next((c for c in t.vote_pack if c.value == 5), None)
        if five is None:
            break
        t.vote_pack.remove(five)
        gain_card(t, p, five)
        change.append(five)
        R += 5
    t.world.shuffle(t.vote_pack)
    if t.narrating:
        t.say(f"    seat {p} returns {len(given)} Vote card(s) "
              f"({sum(c.value for c in given)} votes) to the pack"
              + (f" and takes {len(change)} 5-card(s) back as change" if change else "")
              + f"; keeps {pl.votes} votes; the pack ({len(t.vote_pack)}) is shuffled",
              "coup_votes_returned", seat=p, given=[c.id for c in given],
              change=[c.id for c in change], votes=pl.votes)


# ================================================================ decks and side bets (§4.11, §4.12)


def draw_win_lose(t: Table, drawer: int, why: str) -> str:
    """The next Win/Lose card; side bets (if any) are called before it and settled after."""
    bets = call_side_bets(t, drawer) if t.rules.side_bet_stake > 0 else []
    if t.rules.win_lose_after_draw == "iid":
        card = t.win_lose[t.world.below(len(t.win_lose))]
    else:
        card = t.win_lose.pop(0)
        t.win_lose.append(card)
    t.win_lose_seen.append(card)
    if t.narrating:
        t.say(f"    {who(drawer)} draws Win/Lose for {why}: {card}", "win_lose", seat=drawer,
              card=card, why=why)
    if bets:
        settle_side_bets(t, bets, card)
    return card


def draw_court_verdict(t: Table, p: int) -> str:
    card = t.court_verdict.pop(0)
    t.court_verdict.append(card)
    t.court_verdict_seen.append(card)
    if t.narrating:
        t.say(f"    {who(p)} draws Court Verdict: {card}", "court_verdict", seat=p, card=card)
    return card


def shuffle_decks(t: Table) -> None:
    """Bonus square: shuffle the whole Win/Lose deck, then the whole Court Verdict deck."""
    if t.rules.win_lose_after_draw != "iid":
        t.world.shuffle(t.win_lose)
    t.win_lose_seen.clear()
    t.world.shuffle(t.court_verdict)
    t.court_verdict_seen.clear()
    if t.narrating:
        t.say("    the Win/Lose and Court Verdict decks are shuffled", "shuffle_decks")


def call_side_bets(t: Table, drawer: int) -> list[tuple[int, str]]:
    """Players other than the drawer, holding at least the stake, may call WIN or LOSE."""
    stake = t.rules.side_bet_stake
    bets = []
    for q in t.others(drawer):
        if t.players[q].barrels >= stake:
            call = t.policies[q].side_bet(t, q, drawer)
            if call is not None:
                bets.append((q, call))
    if bets and t.narrating:
        t.say("    side bets: " + ", ".join(f"seat {q} calls {c}" for q, c in bets),
              "side_bets", bets=[list(b) for b in bets])
    return bets


def settle_side_bets(t: Table, bets: list[tuple[int, str]], card: str) -> None:
    stake = t.rules.side_bet_stake
    for q, call in bets:
        if call == card:
            store_pays(t, q, stake, "a side bet won")
        else:
            pay_store(t, q, stake, "a side bet lost")


# ================================================================ payments and notes (§4.6)


def write_note(t: Table, debtor: int, holder: int, face: int) -> Note:
    note = Note(t.next_note_id, debtor, holder, face, t.players[debtor].start_passes)
    t.next_note_id += 1
    t.notes.append(note)
    t.notes_written += 1
    if t.narrating:
        t.say(f"    {who(debtor)} writes promissory note N{note.id} to {who(holder)}, face {face}",
              "note_written", note=note.id, debtor=debtor, holder=holder, face=face)
    return note


def _destroy(t: Table, note: Note) -> None:
    t.notes.remove(note)


def settle(t: Table, d: int, c: int, amount: int, why: str) -> None:
    """SETTLE(d, c, A): player ``d`` owes player ``c`` ``amount`` barrels."""
    A = amount
    # 1. Offset: notes d holds that c wrote, oldest first.
    for note in [n for n in t.notes if n.holder == d and n.debtor == c]:
        if A == 0:
            break
        x = min(A, note.face)
        note.face -= x
        A -= x
        if t.narrating:
            t.say(f"    offset: {who(d)} holds {who(c)}'s note N{note.id}: face reduced by {x} "
                  f"to {note.face}", "note_offset", note=note.id, amount=x, face=note.face)
        if note.face == 0:
            _destroy(t, note)
    if t.rules.payment_order == "notes_first":
        A = _pay_with_notes(t, d, c, A)
        A = _pay_with_barrels(t, d, c, A, why)
    else:
        A = _pay_with_barrels(t, d, c, A, why)
        A = _pay_with_notes(t, d, c, A)
    # 4. A new note for the rest, plus interest.
    if A > 0:
        write_note(t, d, c, A + t.rules.note_interest)


def _pay_with_notes(t: Table, d: int, c: int, A: int) -> int:
    """2. Hand on transferable notes of third players, largest face first (no change given)."""
    if A == 0:
        return 0
    usable = [n for n in t.notes if n.holder == d and n.debtor != c and transferable(t, n)]
    usable.sort(key=lambda n: (-n.face, n.id))
    for note in usable:
        if note.face <= A:
            A -= note.face
            note.holder = c
            if t.narrating:
                t.say(f"    {who(d)} hands {who(note.debtor)}'s note N{note.id} (face "
                      f"{note.face}) to {who(c)}", "note_handed_on", note=note.id, to=c,
                      face=note.face)
            if t.rules.note_interest_on_transfer:
                note.face += t.rules.note_interest
    return A


def _pay_with_barrels(t: Table, d: int, c: int, A: int, why: str) -> int:
    """3. Barrels: all that is owed, or (part payment) all that is held."""
    barrels = t.players[d].barrels
    if barrels >= A:
        x = A
    else:
        x = barrels if t.rules.part_payment_before_note else 0
    pay_player(t, d, c, x, why)
    return A - x


def settle_store(t: Table, d: int, amount: int, why: str) -> None:
    """SETTLE_STORE(d, A, allow_note=true): a government debt (the duel fine)."""
    barrels = t.players[d].barrels
    if barrels >= amount:
        x = amount
    else:
        x = barrels if t.rules.part_payment_before_note else 0
    pay_store(t, d, x, why)
    short = amount - x
    if short > 0:
        if t.rules.store_notes:
            write_note(t, d, STORE, short + t.rules.note_interest)
        else:
            add_missed_turns(t, d, short, f"the unpaid part of {why}")


def redeem(t: Table, note: Note) -> None:
    """REDEEM: the debtor pays the face to the holder and the note is destroyed."""
    if note.holder == STORE:
        pay_store(t, note.debtor, note.face, f"note N{note.id}")
    else:
        pay_player(t, note.debtor, note.holder, note.face, f"note N{note.id}")
    _destroy(t, note)
    if t.narrating:
        t.say(f"    seat {note.debtor} buys back note N{note.id}", "note_redeemed",
              note=note.id, debtor=note.debtor, holder=note.holder, face=note.face)


def redemption_order(t: Table, p: int) -> list[Note]:
    """p's own notes, smallest face first, ties oldest first (§6.2 redeem)."""
    return sorted(notes_owed(t, p), key=lambda n: (n.face, n.id))


def redeem_any_time(t: Table) -> None:
    """redeem_timing=any_time: every affordable note is bought back, seats from the active one."""
    if t.rules.redeem_timing != "any_time" or not t.notes:
        return
    changed = True
    while changed:
        changed = False
        for k in range(t.P):
            p = (t.active + k) % t.P
            for note in redemption_order(t, p):
                if t.players[p].barrels >= note.face:
                    redeem(t, note)
                    changed = True


# ================================================================ setup (spec §3)


def new_table(rules: Rules, players: int, policies: list, world, narrate: bool = False,
              observe=None) -> Table:
    """An empty table: pieces on Convict Start, nothing dealt (tests build states from this)."""
    rules.check_players(players)
    t = Table(rules=rules, players=[Player(seat=s) for s in range(players)],
              boards=rules.boards(), world=world, policies=list(policies),
              forbid=[getattr(pol, "forbid", 0) for pol in policies],
              force=[getattr(pol, "force", 0) for pol in policies],
              took=[[0] * len(CHOICES) for _ in range(players)])
    t.bond_store = rules.bond_store_supply
    if narrate:
        t.log, t.events = [], []
    t.observe = observe
    return t


def setup(t: Table) -> None:
    """Steps 1-8 of spec §3, with the draws in the order listed in the module docstring.

    Players start with no barrels (step 2) but the house rule ``start_barrels_by_seat``:
    once the Store holds its supply (step 6), it hands each seat its extra barrels, seat 0
    first, before it pays the Bond Store bonus. ``check_players`` made sure a limited Store
    holds them all, so they are always paid in full (the bonus may then fall short).
    """
    rules, world = t.rules, t.world
    cards = vote_cards(rules.vote_pack)
    # 3. Two 10-vote cards each, at random.
    tens = [c for c in cards if c.value == STARTING_CARD_VALUE]
    world.shuffle(tens)
    dealt = set()
    for p in range(t.P):
        for card in tens[STARTING_VOTE_CARDS * p:STARTING_VOTE_CARDS * (p + 1)]:
            gain_card(t, p, card)
            dealt.add(card.id)
    # 4. The rest of the pack, shuffled.
    t.vote_pack = [c for c in cards if c.id not in dealt]
    world.shuffle(t.vote_pack)
    # 5. Win/Lose, Court Verdict, Ticket of Leave cards.
    t.win_lose = rules.win_lose_deck()
    if rules.win_lose_after_draw != "iid":
        world.shuffle(t.win_lose)
    t.court_verdict = rules.court_verdict_deck()
    world.shuffle(t.court_verdict)
    t.ticket_deck = list(range(1, N_TICKETS + 1))
    world.shuffle(t.ticket_deck)
    # 6. The Bond Store and its player.
    t.bond_store = rules.bond_store_supply
    if t.bond_store == 0:
        t.store_spell = 1
    seat = world.below(t.P) if rules.bond_store_seat == RANDOM_SEAT else rules.bond_store_seat
    t.bond_store_seat = seat
    if t.narrating:
        t.say(f"Setup: {t.P} players; Store {_store(t)} barrels; seat {seat} is the Bond Store "
              f"player", "setup", players=t.P, bond_store_seat=seat)
        for pl in t.players:
            t.say(f"  seat {pl.seat} is dealt {', '.join(str(c) for c in pl.vote_cards)} "
                  f"({pl.votes} votes)")
        t.say(f"  Vote pack {len(t.vote_pack)} cards, top {_top(t)}; tickets shuffled")
    # House rule: each seat's extra starting barrels, from the Store, seat 0 first.
    for p, extra in enumerate(rules.start_barrels(t.P)):
        store_pays(t, p, extra, "its starting barrels")
    store_pays(t, seat, rules.bond_store_bonus, "being the Bond Store player")
    # Variation e: start higher, tickets dealt free.
    start = STARTING_LEVEL_INDEX[rules.starting_level]
    if start > CONVICT:
        for p in range(t.P):
            take_tickets(t, p)
            t.players[p].level = start
        if t.narrating:
            t.say(f"  everyone starts on the {LEVEL_NAMES[start]} level")
    t.round = 1


def _top(t: Table) -> str:
    if not t.vote_pack:
        return "none (empty)"
    return str(t.vote_pack[0]) if t.rules.vote_top_visible else "face down"


def take_tickets(t: Table, p: int) -> None:
    """The tickets for this player count: off the top of the deck, or the best remaining."""
    n = t.rules.tickets_each(t.P)
    if t.rules.ticket_assignment == "choose":
        rent = ticket_rents(t.boards)
        for _ in range(n):
            best = max(t.ticket_deck, key=lambda k: (rent[k], -k))
            t.ticket_deck.remove(best)
            _own_ticket(t, p, best)
    else:
        for _ in range(n):
            _own_ticket(t, p, t.ticket_deck.pop(0))


def _own_ticket(t: Table, p: int, k: int) -> None:
    t.players[p].tickets.append(k)
    t.ticket_owner[k] = p


# ================================================================ Start (spec §4.4)


def on_pass_start(t: Table, p: int) -> None:
    """ON_PASS_START: count the pass (notes become transferable), then the level's income."""
    pl = t.players[p]
    pl.start_passes += 1
    pl.rotations += 1
    if t.narrating:
        t.say(f"    passes Start (rotation {pl.rotations} on this level)", "pass_start",
              seat=p, rotations=pl.rotations, start_passes=pl.start_passes)
    pass_income(t, p)


def pass_income(t: Table, p: int) -> None:
    """The income of a pass of Start: the level's, or the Major's choice."""
    pl = t.players[p]
    rules = t.rules
    if pl.level == RUM_CORPS and pl.is_major and t.vote_pack:
        if decide(t, p, C_MAJOR_VOTE, lambda: t.policies[p].major_income(t, p)):
            store_pays(t, p, rules.major_vote_option_barrels, "Major's income")
            card = t.vote_pack.pop(0)
            gain_card(t, p, card)
            if t.narrating:
                t.say(f"    takes the top Vote card {card} -> {pl.votes} votes",
                      "major_vote_card", seat=p, card=card.id, votes=pl.votes)
            return
    store_pays(t, p, rules.income(pl.level, pl.is_major), "passing Start")


# ================================================================ squares (spec §4.5)


def land_on_start(t: Table, p: int, sq: Square) -> None:
    """Income was paid in S7; the house rule exact_start_bonus pays extra."""
    store_pays(t, p, t.rules.exact_start_bonus, "landing exactly on Start")


def plain(t: Table, p: int, sq: Square) -> None:
    pass


def good_deed(t: Table, p: int, sq: Square) -> None:
    store_pays(t, p, sq.value, "a Good Deed")


def bonus(t: Table, p: int, sq: Square) -> None:
    if t.rules.bonus_shuffles_decks:
        shuffle_decks(t)
    store_pays(t, p, sq.value, "a Bonus")


def misfortune(t: Table, p: int, sq: Square) -> None:
    add_missed_turns(t, p, sq.value, "a Misfortune")


def crime(t: Table, p: int, sq: Square) -> None:
    """Optional crime: WIN pays, LOSE goes to court (Go Free, Fine, Gaol)."""
    c = sq.value
    pl = t.players[p]
    if not decide(t, p, C_CRIME, lambda: t.policies[p].commit_crime(t, p, c)):
        if t.narrating:
            t.say(f"    declines the crime (value {c})", "crime_declined", seat=p, value=c)
        return
    t.crimes_committed += 1
    if t.narrating:
        t.say(f"    commits the crime (value {c})", "crime", seat=p, value=c)
    if draw_win_lose(t, p, "the crime") == WIN:
        amount = c if t.rules.crime_win_amount == CRIME_VALUE else t.rules.crime_win_amount
        store_pays(t, p, amount, "getting away with the crime")
        return
    verdict = draw_court_verdict(t, p)
    if verdict == GO_FREE:
        return
    if verdict == GAOL:
        add_missed_turns(t, p, c, "Gaol")
        return
    # FINE
    if pl.barrels >= c:
        pay_store(t, p, c, "the Fine")
    elif t.rules.fine_unpaid == "gaol":
        add_missed_turns(t, p, c, "an unpaid Fine (Gaol)")
    else:
        paid = pl.barrels
        pay_store(t, p, paid, "part of the Fine")
        add_missed_turns(t, p, c - paid, "the unpaid part of the Fine (Gaol)")


def challenge_threshold(rules: Rules) -> int:
    """Votes needed to challenge or be challenged: the stake must be payable either way."""
    return max(rules.challenge_min_votes, rules.challenge_stake)


def challenge_targets(t: Table, p: int) -> list[int]:
    """Players p may challenge, in turn order after p."""
    need = challenge_threshold(t.rules)
    same = t.rules.challenge_targets == "same_level"
    level = t.players[p].level
    return [q for q in t.others(p)
            if t.players[q].votes >= need and (not same or t.players[q].level == level)]


def challenge(t: Table, p: int, sq: Square) -> None:
    """Optional challenge for challenge_stake votes; the target must accept."""
    if t.players[p].votes < challenge_threshold(t.rules):
        return
    targets = challenge_targets(t, p)
    if not targets:
        return
    # nobody (no kind), or a target (a challenge); a seat forced to challenge only chooses whom
    options = kept([None, *targets], [NO_KIND] + [C_CHALLENGE] * len(targets),
                   t.forbid[p], t.force[p])
    if len(options) == 1:
        q = options[0]
    elif options[0] is None:
        q = t.policies[p].challenge(t, p, targets)
    else:
        q = t.policies[p].challenge_target(t, p, targets)
    if q is None:
        if t.narrating:
            t.say("    challenges nobody", "no_challenge", seat=p)
        return
    assert q in targets
    t.challenges += 1
    t.took[p][C_CHALLENGE] += 1
    stake = t.rules.challenge_stake
    if t.narrating:
        t.say(f"    challenges seat {q} ({t.players[q].votes} votes) for {stake} votes",
              "challenge", seat=p, target=q)
    if draw_win_lose(t, p, "the challenge") == WIN:
        hand_over_votes(t, q, p, stake)
    else:
        hand_over_votes(t, p, q, stake)
    if t.narrating:
        t.say(f"    votes now: seat {p} {t.players[p].votes}, seat {q} {t.players[q].votes}",
              "votes", seat=p, target=q, votes=t.players[p].votes,
              target_votes=t.players[q].votes)


def occupation(t: Table, p: int, sq: Square) -> None:
    """Pay the rent to the holder of ticket k (own or unsold ticket: nothing)."""
    holder = t.ticket_owner[sq.value]
    if holder is None or holder == p:
        if t.narrating:
            owner = "unsold" if holder is None else "its own"
            t.say(f"    occupation {sq.value} is {owner}: nothing to pay")
        return
    settle(t, p, holder, sq.rent, f"rent on occupation {sq.value}")


def buy_vote_cards(t: Table, p: int, sq: Square) -> None:
    """Optional purchase of the top Vote card with barrels only (no notes)."""
    pl = t.players[p]
    for _ in range(t.rules.max_vote_buys_per_landing):
        if not t.vote_pack:
            return
        card = t.vote_pack[0]
        if t.rules.vote_top_visible:
            affordable = pl.barrels >= card.price
        else:
            affordable = pl.barrels >= max(c.price for c in t.vote_pack)
        if not affordable or not decide(t, p, C_BUY_VOTE, lambda: t.policies[p].buy_vote(t, p)):
            return
        pay_store(t, p, card.price, "a Vote card")
        t.vote_pack.pop(0)
        gain_card(t, p, card)
        if t.narrating:
            t.say(f"    buys Vote card {card} -> {pl.votes} votes; next top {_top(t)}",
                  "buy_vote", seat=p, card=card.id, votes=pl.votes)


def promotion(t: Table, p: int, sq: Square) -> None:
    """A Captain may become Major."""
    pl = t.players[p]
    if pl.level != RUM_CORPS or pl.is_major or pl.barrels < t.rules.promotion_cost:
        return
    if not decide(t, p, C_PROMOTION, lambda: t.policies[p].accept_promotion(t, p)):
        if t.narrating:
            t.say("    declines promotion to Major")
        return
    pay_store(t, p, t.rules.promotion_cost, "promotion")
    pl.is_major = True
    if t.narrating:
        t.say("    is promoted to Major", "promotion", seat=p)


def duel(t: Table, p: int, sq: Square) -> None:
    """Mandatory Win/Lose: WIN is a fine owed to the Store, LOSE two missed turns."""
    if draw_win_lose(t, p, "the duel") == WIN:
        settle_store(t, p, t.rules.duel_fine, "the duelling fine")
    else:
        add_missed_turns(t, p, t.rules.duel_missed_turns, "injury in the duel")


SQUARE_ACTIONS = {
    START_SQUARE: land_on_start,
    GD: good_deed,
    BO: bonus,
    CR: crime,
    MF: misfortune,
    CH: challenge,
    OC: occupation,
    BV: buy_vote_cards,
    PR: promotion,
    DU: duel,
    PL: plain,
}


# ================================================================ level-up (spec §4.7)


def can_buy_ticket(t: Table, p: int) -> bool:
    pl = t.players[p]
    return (pl.level == CONVICT and pl.barrels >= t.rules.ticket_cost
            and pl.rotations >= t.rules.non_parole_rotations)


def can_buy_commission(t: Table, p: int) -> bool:
    pl = t.players[p]
    return (pl.level == TICKET_OF_LEAVE and pl.barrels >= t.rules.commission_cost
            and pl.rotations >= t.rules.tol_min_rotations and not owes_notes(t, p))


def buy_ticket_of_leave(t: Table, p: int) -> None:
    pl = t.players[p]
    cost = pl.barrels if t.rules.ticket_cost_mode == "all_barrels" else t.rules.ticket_cost
    pay_store(t, p, cost, "the Ticket of Leave")
    take_tickets(t, p)
    move_up(t, p, TICKET_OF_LEAVE)


def buy_commission(t: Table, p: int) -> None:
    pay_store(t, p, t.rules.commission_cost, "the Rum Corps commission")
    move_up(t, p, RUM_CORPS)


def move_up(t: Table, p: int, level: int) -> None:
    pl = t.players[p]
    pl.level = level
    pl.position = 0
    pl.rotations = 0
    if t.narrating:
        extra = f" with ticket(s) {pl.tickets}" if level == TICKET_OF_LEAVE else " as a Captain"
        t.say(f"  seat {p} moves up to the {LEVEL_NAMES[level]} level{extra}; "
              f"on Start with {pl.barrels} barrels", "level_up", seat=p, level=level,
              tickets=list(pl.tickets))


# ================================================================ the turn (spec §4.3)


def s1_missed_turn(t: Table, p: int) -> bool:
    """S1: a marker is handed back and the turn skipped (unless the player sneaks a roll)."""
    pl = t.players[p]
    if pl.missed_turns == 0:
        return True
    pl.missed_turns -= 1
    q = t.rules.sneak_turn_probability
    if q > 0 and t.world.uniform() < q:
        if t.narrating:
            t.say(f"  seat {p} rolls before anyone mentions the marker and plays "
                  f"({pl.missed_turns} left)", "sneak_turn", seat=p)
        return True
    if t.narrating:
        t.say(f"  seat {p} misses the turn ({pl.missed_turns} marker(s) left)", "missed_turn",
              seat=p, left=pl.missed_turns)
    return False


def s2_redemption(t: Table, p: int) -> None:
    """S2: buy back own notes (smallest face first), then at most one vote trade offer."""
    if t.rules.redeem_timing == "any_time":
        redeem_any_time(t)
    else:
        for note in redemption_order(t, p):
            if t.players[p].barrels >= note.face and decide(
                    t, p, C_REDEEM, lambda note=note: t.policies[p].redeem(t, p, note)):
                redeem(t, note)
    if t.rules.allow_vote_trading:
        s2_vote_trade(t, p)


@dataclass(frozen=True)
class TradeOffer:
    """``buyer`` pays ``price`` barrels to ``seller`` for ``card`` (one Vote card)."""

    kind: str        # "ask": the active player asks to buy; "offer": they offer to sell
    other: int       # the player who must accept
    card: VoteCard
    price: int


def trade_offers(t: Table, p: int) -> list[TradeOffer]:
    """Legal offers in canonical order: by player in turn order, asks then offers, value ascending."""
    out = []
    pl = t.players[p]
    for q in t.others(p):
        other = t.players[q]
        for value in sorted({c.value for c in other.vote_cards}):
            card = _oldest_card(other, value)
            if pl.barrels >= card.price:
                out.append(TradeOffer("ask", q, card, card.price))
        for value in sorted({c.value for c in pl.vote_cards}):
            card = _oldest_card(pl, value)
            if other.barrels >= card.price:
                out.append(TradeOffer("offer", q, card, card.price))
    return out


def s2_vote_trade(t: Table, p: int) -> None:
    """allow_vote_trading (§4.12): one offer to one player at the card's printed price."""
    offers = trade_offers(t, p)
    if not offers:
        return
    offer = t.policies[p].trade_offer(t, p, offers)
    if offer is None:
        return
    accepted = t.policies[offer.other].trade_accept(t, offer.other, p, offer)
    seller, buyer = (offer.other, p) if offer.kind == "ask" else (p, offer.other)
    if t.narrating:
        t.say(f"  seat {p} {'asks' if offer.kind == 'ask' else 'offers'} {offer.card} "
              f"{'from' if offer.kind == 'ask' else 'to'} seat {offer.other} for {offer.price} "
              f"barrels: {'accepted' if accepted else 'refused'}", "trade", seat=p,
              other=offer.other, kind=offer.kind, card=offer.card.id, accepted=accepted)
    if accepted:
        _move_card(t, seller, buyer, offer.card)
        pay_player(t, buyer, seller, offer.price, "a Vote card")


def s3_coup_window(t: Table, p: int) -> bool:
    """S3: attempt an announced coup when due (or lapse it). True if the turn ends here."""
    pl = t.players[p]
    delay = t.rules.coup_delay
    if delay == "none":
        if not coup_eligible(t, p) or not decide(
                t, p, C_ANNOUNCE, lambda: t.policies[p].announce_coup(t, p)):
            return False
    else:
        if pl.announced_round is None:
            return False
        due = (pl.announced_round < t.round if delay == "next_round"
               else pl.announced_turn < t.turn_id)
        if not due:
            return False
        if not coup_eligible(t, p):
            if t.narrating:
                t.say(f"  seat {p}'s coup announcement lapses ({pl.votes} votes, "
                      f"{len(notes_owed(t, p))} note(s) owed)", "announcement_lapses", seat=p)
            pl.announced_round = pl.announced_turn = None
            return False
    return attempt_coup(t, p)


def attempt_coup(t: Table, p: int) -> bool:
    pl = t.players[p]
    t.coups_attempted += 1
    if t.narrating:
        t.say(f"  seat {p} attempts a coup with {pl.votes} votes!", "coup", seat=p,
              votes=pl.votes)
    if draw_win_lose(t, p, "the coup") == WIN:
        t.winner = p
        if t.narrating:
            t.say(f"  The Governor is arrested: seat {p} takes the Seal of the Colony and wins "
                  f"in round {t.round}.", "win", seat=p)
        return True
    return_coup_votes(t, p)
    pl.announced_round = pl.announced_turn = None
    if t.narrating:
        t.say("  the coup fails" + ("; the turn ends" if t.rules.coup_attempt_ends_turn else ""),
              "coup_failed", seat=p)
    return t.rules.coup_attempt_ends_turn


def s4_level_up(t: Table, p: int) -> None:
    """S4: move up (optional), at most max_level_ups_per_turn levels."""
    for _ in range(t.rules.max_level_ups_per_turn):
        if can_buy_ticket(t, p):
            if not decide(t, p, C_TICKET, lambda: t.policies[p].level_up(t, p, TICKET_OF_LEAVE)):
                return
            buy_ticket_of_leave(t, p)
        elif can_buy_commission(t, p):
            if not decide(t, p, C_COMMISSION, lambda: t.policies[p].level_up(t, p, RUM_CORPS)):
                return
            buy_commission(t, p)
        else:
            return


def s5_store_shortage(t: Table, p: int) -> None:
    """S5: while the Store is empty, a Rum Corps officer may buy the top Vote card."""
    rules = t.rules
    pl = t.players[p]
    if (rules.store_empty_vote_sale == "off" or t.unlimited or t.bond_store != 0
            or pl.level != RUM_CORPS or pl.barrels < rules.store_empty_vote_price
            or not t.vote_pack):
        return
    if rules.store_empty_vote_sale == "once_per_event":
        if pl.store_offer_spell == t.store_spell:
            return
        pl.store_offer_spell = t.store_spell
    if not decide(t, p, C_STORE_VOTE, lambda: t.policies[p].store_empty_buy(t, p)):
        return
    pay_store(t, p, rules.store_empty_vote_price, "a Vote card (the Store is empty)")
    card = t.vote_pack.pop(0)
    gain_card(t, p, card)
    if t.narrating:
        t.say(f"    takes Vote card {card} -> {pl.votes} votes", "store_empty_buy", seat=p,
              card=card.id, votes=pl.votes)


def s6_roll(t: Table, p: int) -> tuple[int, int]:
    d1 = t.world.dice(6)
    d2 = t.world.dice(6)
    return d1, d2


def s7_move(t: Table, p: int, d1: int, d2: int) -> None:
    """S7: move forward; passing (or, by default, landing on) Start runs ON_PASS_START."""
    pl = t.players[p]
    L = len(t.boards[pl.level])
    start = pl.position
    new = start + d1 + d2
    passes = new >= L if t.rules.start_landing_counts_as_pass else new > L
    pl.position = new % L
    if t.narrating:
        t.say(f"  seat {p} rolls {d1} + {d2}{' (doubles)' if d1 == d2 else ''}: {start} -> "
              f"{where(t, p)}", "move", seat=p, dice=[d1, d2], start=start, level=pl.level,
              position=pl.position)
    if passes:
        on_pass_start(t, p)


def s8_resolve(t: Table, p: int) -> None:
    sq = t.square(p)
    SQUARE_ACTIONS[sq.kind](t, p, sq)


def s9_announce(t: Table, p: int) -> None:
    """S9: an eligible player without an announcement may announce a coup."""
    pl = t.players[p]
    if t.rules.coup_delay == "none" or pl.announced_round is not None:
        return
    if not coup_eligible(t, p) or not decide(
            t, p, C_ANNOUNCE, lambda: t.policies[p].announce_coup(t, p)):
        return
    pl.announced_round = t.round
    pl.announced_turn = t.turn_id
    if t.narrating:
        t.say(f"  seat {p} announces a coup ({pl.votes} votes)", "announce", seat=p,
              votes=pl.votes)


@dataclass
class TurnResult:
    played: bool
    doubles: bool = False
    penalised: bool = False    # Missed Turn markers were gained during the turn


def turn_key(round_: int, seat: int, chain: int) -> int:
    """A playout's turn's world: the same turn (round, seat, free turns before it) draws the
    same dice whatever the option played out, so the options' playouts differ by what
    the option changed, not by dice shifted onto other turns."""
    return (round_ * 8 + seat) * 1024 + chain


# Where a turn may be taken up again (``step``): the step of a decision, run again from its
# start. A rollout's playout (policies.RolloutPolicy) goes on from the decision it plays out;
# each of these steps asks it before it changes anything (the income: after the pass is
# counted; a square: as the first thing it does).
START = 0       # a new turn: S1 onwards
COUP = 3        # S3 onwards (coup_delay=none asks announce_coup there)
LEVEL_UP = 4    # S4 onwards
INCOME = 7      # the income of the pass of Start just counted (S7), then S8 onwards
SQUARE = 8      # S8 onwards
ANNOUNCE = 9    # S9


def take_turn(t: Table, p: int, skip_s1: bool = False, step: int = START) -> TurnResult:
    """One pass through S1-S9 (S10 is ``play_seat``'s chain), or the rest of it from ``step``."""
    if step == START:
        t.turn_id += 1
        t.active = p
        t.markers_gained = False
        t.doubles = False
        if t.playout_word is not None:
            t.world = Rng(t.playout_word, turn_key(t.round, p, t.chain), 0)
        pl = t.players[p]
        if t.narrating:
            t.say(f"Round {t.round}, seat {p}: {LEVEL_NAMES[pl.level]}"
                  f"{' Major' if pl.is_major else ''}"
                  f" at {pl.position}, {_barrels(pl.barrels)}, {pl.votes} votes"
                  + (f", {pl.missed_turns} missed turn(s)" if pl.missed_turns else "")
                  + (f", owes {len(notes_owed(t, p))} note(s)" if owes_notes(t, p) else ""))
        if not skip_s1 and not s1_missed_turn(t, p):
            return TurnResult(False)
        t.turns += 1
        s2_redemption(t, p)
    if step <= COUP and (s3_coup_window(t, p) or t.winner is not None):
        return TurnResult(True, False, t.markers_gained)
    if step <= INCOME:
        if step <= LEVEL_UP:
            s4_level_up(t, p)
            s5_store_shortage(t, p)
            redeem_any_time(t)
            d1, d2 = s6_roll(t, p)
            t.doubles = d1 == d2
            s7_move(t, p, d1, d2)
        else:
            pass_income(t, p)
        redeem_any_time(t)
    if step <= SQUARE:
        s8_resolve(t, p)
        redeem_any_time(t)
    s9_announce(t, p)
    return TurnResult(True, t.doubles, t.markers_gained)


def play_seat(t: Table, p: int, chain: int = 0, step: int = START) -> None:
    """A seat's turn and the free turns its doubles earn (S10); from ``step`` of the turn
    after ``chain`` free turns when a playout takes it up again."""
    rules = t.rules
    skip_s1 = False
    while True:
        t.chain = chain
        result = take_turn(t, p, skip_s1, step)
        step = START
        if t.observe is not None:
            t.observe(t, "turn" if result.played else "skipped", p)
        if t.winner is not None or not result.doubles:
            return
        chain += 1
        if rules.max_consecutive_doubles and chain >= rules.max_consecutive_doubles:
            if t.narrating:
                t.say(f"  double number {chain} in a row: no further turn (house limit)")
            return
        if chain >= DOUBLES_CHAIN_CAP:
            t.doubles_chain_cap_hits += 1
            return
        skip_s1 = False
        if result.penalised:
            mode = rules.doubles_after_penalty
            if mode == "forfeit":
                if t.narrating:
                    t.say("  the double's free turn is forfeited (Missed Turn markers taken)",
                          "free_turn_forfeited", seat=p)
                return
            if mode == "consume_marker":
                t.players[p].missed_turns -= 1
                if t.narrating:
                    t.say(f"  the double's free turn is skipped and uses up a marker "
                          f"({t.players[p].missed_turns} left)", "free_turn_skipped", seat=p)
                if t.observe is not None:
                    t.observe(t, "skipped", p)
                return
            skip_s1 = True  # take_anyway
        if t.narrating:
            t.say(f"  doubles: seat {p} takes a free turn")


def play_rounds(t: Table, seat: int = 0, step: int = START, chain: int = 0) -> None:
    """Rounds of seats 0..P-1 until a coup succeeds or max_rounds finishes; this round from
    ``seat``'s turn at ``step`` after ``chain`` free turns when a playout takes it up again."""
    while True:
        for p in range(seat, t.P):
            play_seat(t, p, chain, step)
            chain, step = 0, START
            if t.winner is not None:
                note_standing(t)   # the coup ends the round
                return
        seat = 0
        note_standing(t)
        if t.round >= t.rules.max_rounds:
            t.capped = True
            if t.narrating:
                t.say(f"Round {t.round} ends without a successful coup: the game is capped.",
                      "capped")
            return
        t.round += 1


# ================================================================ the lead, round by round


def note_standing(t: Table) -> None:
    """The end of round ``t.round`` (a successful coup ends it early): every seat's progress
    score as it stands now, the winner's stage counting 3."""
    t.standings.append([progress_score(t, p) for p in range(t.P)])



def play_game(rules: Rules, players: int, policies: list, world, narrate: bool = False,
              observe=None) -> Table:
    """Set up and play one game; returns the final table (narrated: with its ending told)."""
    t = new_table(rules, players, policies, world, narrate, observe)
    setup(t)
    if observe is not None:
        observe(t, "setup", -1)
    play_rounds(t)
    if t.narrating:
        tell_ending(t)
    return t


def tell_ending(t: Table) -> None:
    """The narration's last lines: how the game ended and where every seat stands."""
    if t.winner is None:
        t.log.append(f"Game over after {t.round} rounds: no winner.")
    t.log.append(f"{t.turns} turns played, {t.coups_attempted} coup attempt(s), "
                 f"{t.challenges} challenge(s), {t.crimes_committed} crime(s), "
                 f"{t.notes_written} note(s) written; Store {_store(t)} barrels.")
    for pl in t.players:
        t.log.append(f"  seat {pl.seat} ({t.policies[pl.seat].label}): "
                     f"{LEVEL_NAMES[pl.level]}{' Major' if pl.is_major else ''}, "
                     f"{pl.barrels} barrels, {pl.votes} votes, tickets {pl.tickets}, "
                     f"score {progress_score(t, pl.seat)}")


def wins(t: Table) -> list[float]:
    """win_<seat>: the coup winner; a capped game has none, or (progress) the best score."""
    win = [0.0] * t.P
    if t.winner is not None:
        win[t.winner] = 1.0
    elif t.capped and t.rules.cap_resolution == "progress":
        scores = [progress_score(t, p) for p in range(t.P)]
        best = max(scores)
        top = [p for p in range(t.P) if scores[p] == best]
        for p in top:
            win[p] = 1.0 / len(top)
    return win


def outcome(t: Table, game: int) -> dict:
    """The outcome row of spec §5."""
    row: dict = {"game": game, "players": t.P}
    win = wins(t)
    for p in range(t.P):
        row[f"win_{p}"] = win[p]
    for p in range(t.P):
        row[f"score_{p}"] = progress_score(t, p)
    for p in range(t.P):
        row[f"level_{p}"] = t.players[p].level
    for p in range(t.P):
        row[f"votes_{p}"] = t.players[p].votes
    row.update(
        rounds=t.round,
        turns=t.turns,
        coups_attempted=t.coups_attempted,
        challenges=t.challenges,
        crimes_committed=t.crimes_committed,
        notes_written=t.notes_written,
        store_ran_out=t.store_ran_out,
        capped=int(t.capped),
        bond_store_seat=t.bond_store_seat,
        doubles_chain_cap_hits=t.doubles_chain_cap_hits,
    )
    row["lead_changes"], row["half_time_leader"] = lead_story(t.standings)
    for k, choice in enumerate(CHOICES):
        for p in range(t.P):
            row[f"took_{choice.name}_{p}"] = t.took[p][k]
    return row


def final_state(t: Table) -> dict:
    """The final state of every player, the notes, the Store, the decks and the winner."""
    return {
        "players": [{
            "seat": pl.seat,
            "level": LEVEL_NAMES[pl.level],
            "position": pl.position,
            "barrels": pl.barrels,
            "votes": pl.votes,
            "vote_cards": [[c.value, c.price] for c in pl.vote_cards],
            "tickets": list(pl.tickets),
            "missed_turns": pl.missed_turns,
            "rotations": pl.rotations,
            "start_passes": pl.start_passes,
            "is_major": pl.is_major,
            "announced_round": pl.announced_round,
        } for pl in t.players],
        "notes": [{"id": n.id, "debtor": n.debtor, "holder": "store" if n.holder == STORE
                   else n.holder, "face": n.face, "transferable": transferable(t, n)}
                  for n in t.notes],
        "bond_store": None if t.unlimited else t.bond_store,
        "vote_pack": [[c.value, c.price] for c in t.vote_pack],
        "win_lose": list(t.win_lose),
        "court_verdict": list(t.court_verdict),
        "unsold_tickets": list(t.ticket_deck),
        "winner": t.winner,
        "capped": t.capped,
    }
