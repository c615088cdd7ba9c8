"""Rum Runner, the readable reference path: the rules as the spec states them, step by step.

This module is the oracle. It plays one game with plain lists and names from
the rulebook (ports, boat, movement deck, hand, discard, rum piles,
collection), can narrate every card, and returns the outcome row that the
Numba fast path (``engine.py``) must reproduce exactly for the same rules,
policy, seed and game index.

Random draws, in the order both paths make them (the replay convention of
spec §3 plus the engine's RNG contract):

* world stream (``engines._rng.WORLD``): shuffle the 16 ports, the 16 movement
  cards, then the 6s, 8s, 10s and 7/9 piles, each listed in ascending
  (rank, suit) order before its shuffle; ``start_end=random`` draws
  ``below(2)`` (0 = left); every replenishment shuffles the discard pile
  (oldest first) and every reshuffle of an empty deck shuffles it too.
* policy stream (``engines._rng.POLICY``): the random policy's choices and
  the rollout policy's re-deals and imagined games.

A turn is ``begin_turn`` (T0), the action (T1-T3: ``draw``, ``play_cards`` or
``pass``), then ``end_turn`` (T4 flip, T5 end check). The rollout policy
re-uses these same pieces to finish imagined games.

Restricted play (``engines._restrict``): the seat's masks are read once, at setup, into
the table, and every decision's legal options are narrowed to the kept ones before the
policy is asked (so a search's imagined games, played on copies, keep them too). Each
option's kind is its ``CHOICES`` bit (``start_kind``, ``action_kind``, ``CHAIN``,
``close_kind``); ``took`` counts the kinds taken.
"""

from __future__ import annotations

import copy as _copy
from dataclasses import dataclass, field

from engines._restrict import kept, kept_binary
from engines._rng import Rng
from engines.rum_runner import CHOICE, CHOICES
from engines.rum_runner.cards import (
    MOVEMENT_RANKS,
    PILE_NAMES,
    PILE_OF_PORT,
    PILE_RANKS,
    PORT_RANKS,
    Card,
    show,
    sorted_cards,
)
from engines.rum_runner.rules import BAND_NAMES, Rules
from engines.rum_runner.scoring import score_with_rules

N_PORTS = 16
RIGHT, LEFT = +1, -1
END_REASONS = ("normal", "stranded", "capped")

DRAW, PLAY, PASS = "draw", "play", "pass"

NO_KIND = -1                    # an option of no declared kind (PASS, STOP)
CHAIN = CHOICE["chain"]         # D3: another card of the same number
CLOSE_NAMES = {11: "close_jack", 12: "close_queen", 13: "close_king", 14: "close_ace"}


@dataclass(frozen=True)
class Action:
    """What the player does at T1: DRAW, PASS, or PLAY ``count`` cards of ``value``.

    ``count`` is 1 except under ``multi_card_mode=combined``, where the
    player names how many cards of the value form the one move.
    """

    kind: str
    value: int = 0
    count: int = 1

    def __str__(self) -> str:
        if self.kind != PLAY:
            return self.kind.upper()
        return f"PLAY {self.value}" + (f" x{self.count}" if self.count > 1 else "")


@dataclass
class Deal:
    """The shuffled cards before play (for injecting a fixed deal, spec §9.6)."""

    ports: list[Card]
    movement_deck: list[Card]          # top first, before the hand is dealt
    piles: list[list[Card]]            # 6s, 8s, 10s, 7/9s; top first


@dataclass
class Table:
    """Everything on the table during one game."""

    rules: Rules
    ports: list[Card]
    face_up: list[bool]
    movement_deck: list[Card]          # index 0 is the top
    # The batch each deck card arrived with: 0 for the dealt deck, then one
    # number per replenishment or reshuffle. The player knows which cards each
    # batch holds but not their order (spec §6.1); the rollout policy needs it.
    deck_batch: list[int]
    hand: list[Card]
    discard: list[Card]                # oldest first; the top is the last
    piles: list[list[Card]]            # top first
    collection: list[Card] = field(default_factory=list)
    boat: int = 0
    heading: int = RIGHT
    turn: int = 0
    end_reason: str | None = None
    steps_this_turn: int = 0
    cards_this_turn: int = 0
    batches: int = 0
    # counters for the outcome row
    landings: int = 0
    replenishments: int = 0
    exhausted_landings: int = 0
    draws: int = 0
    # the seat's restriction (engines._restrict), and the times it took each kind of option
    forbid: int = 0
    force: int = 0
    took: list[int] = field(default_factory=lambda: [0] * len(CHOICES))
    log: list[str] | None = None
    events: list[dict] | None = None

    # ------------------------------------------------------------ what can be seen

    def open_ports(self) -> list[int]:
        return [i for i in range(N_PORTS) if self.face_up[i]]

    def flip_candidates(self) -> list[int]:
        """F of T4: face-up ports the boat is not sitting on."""
        return [i for i in range(N_PORTS) if self.face_up[i] and i != self.boat]

    def hand_values(self) -> list[int]:
        return sorted({c.rank for c in self.hand})

    def hand_count(self, value: int) -> int:
        return sum(1 for c in self.hand if c.rank == value)

    def can_draw(self) -> bool:
        """DRAW is legal (spec T1, §4.4 items 8-9)."""
        available = len(self.movement_deck)
        if self.rules.reshuffle_discard_when_deck_empty:
            available += len(self.discard)
        needed = self.rules.draw_count if self.rules.draw_when_short == "forbid" else 1
        return available >= needed

    def score(self) -> int:
        return score_with_rules(self.collection, self.rules)

    def copy(self) -> Table:
        """A private copy for imagined play (no narration)."""
        new = _copy.copy(self)
        new.ports = self.ports  # never changes
        new.face_up = list(self.face_up)
        new.movement_deck = list(self.movement_deck)
        new.deck_batch = list(self.deck_batch)
        new.hand = list(self.hand)
        new.discard = list(self.discard)
        new.piles = [list(p) for p in self.piles]
        new.collection = list(self.collection)
        new.took = list(self.took)
        new.log = None
        new.events = None
        return new

    # ------------------------------------------------------------ restricted play

    def kept(self, options: list, kinds: list[int]) -> list:
        """The options the seat may choose (engines._restrict)."""
        return kept(options, kinds, self.forbid, self.force)

    def takes(self, kind: int) -> None:
        """The seat takes an option of ``kind`` (NO_KIND counts nothing)."""
        if kind != NO_KIND:
            self.took[kind] += 1

    # ------------------------------------------------------------ narration

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def record(self, **event) -> None:
        if self.events is not None:
            self.events.append(event)


# ================================================================ setup (spec §3)


def shuffled_deal(world: Rng) -> Deal:
    """Steps 1-3: shuffle the ports, the movement deck and each rum pile, in that order."""
    ports = sorted_cards(PORT_RANKS)
    world.shuffle(ports)
    movement = sorted_cards(MOVEMENT_RANKS)
    world.shuffle(movement)
    piles = []
    for ranks in PILE_RANKS:
        pile = sorted_cards(ranks)
        world.shuffle(pile)
        piles.append(pile)
    return Deal(ports, movement, piles)


def setup(rules: Rules, world: Rng, deal: Deal | None = None) -> Table:
    """Steps 1-4 and 6: deal the ports face up, build the piles, deal a hand of 3."""
    deal = deal or shuffled_deal(world)
    deck = list(deal.movement_deck)
    hand, deck = deck[:3], deck[3:]
    return Table(
        rules=rules,
        ports=list(deal.ports),
        face_up=[True] * N_PORTS,
        movement_deck=deck,
        deck_batch=[0] * len(deck),
        hand=hand,
        discard=[],
        piles=[list(p) for p in deal.piles],
    )


def place_boat(t: Table, end: str) -> None:
    """Step 5: the boat on the left or right end port, heading toward the other end."""
    t.boat, t.heading = (0, RIGHT) if end == "left" else (N_PORTS - 1, LEFT)
    t.say(f"Setup: ports {show(t.ports)}")
    t.say(f"  hand {show(sorted(t.hand))}; deck {len(t.movement_deck)} cards; pile tops "
          + ", ".join(f"{name} {p[0]}" for name, p in zip(PILE_NAMES, t.piles, strict=True)))
    t.say(f"  boat on the {end} end (port {t.boat}, {t.ports[t.boat]}), heading "
          f"{'right' if t.heading == RIGHT else 'left'}")
    t.record(event="setup", start_end=end, boat=t.boat)


def start_kind(end: str) -> int:
    return CHOICE[f"start_{end}"]


def choose_start(t: Table, policy, world: Rng) -> str:
    """Decision D1 under start_end=choose; otherwise a fixed end or a coin flip."""
    rule = t.rules.start_end
    if rule == "choose":
        ends = t.kept(["left", "right"], [start_kind("left"), start_kind("right")])
        end = ends[0] if len(ends) == 1 else policy.choose_start_end(t)
        t.takes(start_kind(end))
        return end
    if rule == "random":
        return "left" if world.below(2) == 0 else "right"
    return rule


# ================================================================ movement (spec §4.1, §7)


def _nothing_ahead(rules: Rules, face_up: list[bool], pos: int, heading: int) -> bool:
    """No space left in this direction: the line's end, or (closed ports skipped) no open port."""
    if rules.flipped_ports_count_as_spaces:
        return not 0 <= pos + heading < N_PORTS
    i = pos + heading
    while 0 <= i < N_PORTS:
        if face_up[i]:
            return False
        i += heading
    return True


def _next_space(rules: Rules, face_up: list[bool], pos: int, heading: int) -> int:
    """The space one step ahead (the next open port when closed ports are skipped)."""
    if rules.flipped_ports_count_as_spaces:
        return (pos + heading) % N_PORTS
    for k in range(1, N_PORTS):
        i = (pos + heading * k) % N_PORTS
        if rules.wraps or 0 <= pos + heading * k < N_PORTS:
            if face_up[i]:
                return i
    return pos  # the boat's own port is the only open one: it stays


def course(rules: Rules, face_up: list[bool], pos: int, heading: int,
           steps: int) -> tuple[int, int]:
    """Where ``steps`` spaces of sailing take the boat: (port, heading) after the move.

    Reflect: when the next space would be off the line the boat turns first,
    then steps (carry-over). Stop at end: the move ends at the end, leftover
    steps are lost. Wrap (or a ring): past one end is the other end. When
    closed ports are skipped, the outermost open ports act as the ends, and a
    boat whose own port is the only open one stays where it is.
    After the move a boat on an end port faces back along the line (spec §8.3).
    """
    for _ in range(steps):
        if rules.wraps:
            pos = _next_space(rules, face_up, pos, heading)
            continue
        if _nothing_ahead(rules, face_up, pos, heading):
            if rules.bounce_mode == "stop_at_end":
                break
            if _nothing_ahead(rules, face_up, pos, -heading):
                break  # no other open port anywhere: the boat stays
            heading = -heading
        pos = _next_space(rules, face_up, pos, heading)
    if not rules.wraps:
        if pos == 0:
            heading = RIGHT
        elif pos == N_PORTS - 1:
            heading = LEFT
        elif (_nothing_ahead(rules, face_up, pos, heading)
              and not _nothing_ahead(rules, face_up, pos, -heading)):
            heading = -heading
    return pos, heading


def sail(t: Table, steps: int) -> None:
    t.boat, t.heading = course(t.rules, t.face_up, t.boat, t.heading, steps)


# ================================================================ landing (spec §4.3)


def take_from_deck(t: Table, world: Rng) -> Card | None:
    """The deck's top card; an empty deck is rebuilt from the discard only if the rules say so."""
    if not t.movement_deck and t.rules.reshuffle_discard_when_deck_empty and t.discard:
        pile = list(t.discard)
        world.shuffle(pile)
        t.movement_deck, t.discard = pile, []
        t.batches += 1
        t.deck_batch = [t.batches] * len(pile)
        t.say(f"    the empty deck is rebuilt from the shuffled discard ({len(pile)} cards)")
    if not t.movement_deck:
        return None
    t.deck_batch.pop(0)
    return t.movement_deck.pop(0)


def collect(t: Table, port: int, world: Rng) -> None:
    """Collect from the port's rum pile, or take movement cards when the pile is exhausted."""
    pile_index = PILE_OF_PORT[t.ports[port].rank]
    pile = t.piles[pile_index]
    if pile:
        card = pile.pop(0)
        t.collection.append(card)
        top = f"; next top {pile[0]}" if pile else "; that pile is now empty"
        t.say(f"    collects {card} from the {PILE_NAMES[pile_index]}{top} (score {t.score()})")
        t.record(event="collect", card=str(card), pile=PILE_NAMES[pile_index])
        return
    t.exhausted_landings += 1
    taken = []
    for _ in range(t.rules.exhausted_pile_take):
        card = take_from_deck(t, world)
        if card is None:
            break
        taken.append(card)
    t.collection.extend(taken)
    t.say(f"    the {PILE_NAMES[pile_index]} are exhausted: takes {show(taken)} from the "
          f"movement deck into the collection (score {t.score()})")
    t.record(event="exhausted", pile=PILE_NAMES[pile_index], cards=[str(c) for c in taken])


def replenish_count(t: Table, move_value: int) -> int:
    """How many cards a closed-port landing returns, before the discard limits it."""
    amount = t.rules.replenish_amount
    if amount == "card_value":
        return move_value
    if amount == "turn_steps":
        return t.steps_this_turn
    return t.cards_this_turn


def replenish(t: Table, move_value: int, just_played: int, world: Rng) -> None:
    """Shuffle the discard pile; its first n cards go under the movement deck, in that order."""
    wanted = replenish_count(t, move_value)
    if t.rules.replenish_includes_played_card:
        pool, kept = list(t.discard), []
    else:
        pool, kept = t.discard[:-just_played], t.discard[-just_played:]
    n = min(wanted, len(pool))
    world.shuffle(pool)
    returned = pool[:n]
    t.batches += 1
    t.movement_deck.extend(returned)
    t.deck_batch.extend([t.batches] * n)
    t.discard = pool[n:] + kept
    t.say(f"    replenishes: {n} card(s) from the shuffled discard go under the deck "
          f"({show(returned)}); deck {len(t.movement_deck)}, discard {len(t.discard)}")
    t.record(event="replenish", cards=[str(c) for c in returned])


def land(t: Table, move_value: int, just_played: int, world: Rng) -> None:
    """Resolve the landing at the boat's port (spec §4.3, flipped_port_effect)."""
    port = t.boat
    t.landings += 1
    where = f"port {port} ({t.ports[port]}, {'open' if t.face_up[port] else 'closed'})"
    t.say(f"    lands on {where}")
    if t.face_up[port]:
        collect(t, port, world)
        return
    t.replenishments += 1
    effect = t.rules.flipped_port_effect
    if effect == "replenish_and_collect":
        collect(t, port, world)
    if effect != "nothing":
        replenish(t, move_value, just_played, world)


# ================================================================ the turn (spec §4.2)


def begin_turn(t: Table) -> None:
    """T0."""
    t.turn += 1
    t.steps_this_turn = 0
    t.cards_this_turn = 0


def legal_actions(t: Table) -> list[Action]:
    """D2's options in canonical order: DRAW, then PLAY by value (and count) ascending; or PASS."""
    options = [Action(DRAW)] if t.can_draw() else []
    for v in t.hand_values():
        if t.rules.multi_card_mode == "combined":
            options += [Action(PLAY, v, k) for k in range(1, t.hand_count(v) + 1)]
        else:
            options.append(Action(PLAY, v))
    return options or [Action(PASS)]


def action_kind(action: Action) -> int:
    """D2's kinds: DRAW, PLAY by the value played (any count), PASS none."""
    if action.kind == DRAW:
        return CHOICE["draw"]
    if action.kind == PLAY:
        return CHOICE[f"play_{action.value}"]
    return NO_KIND


def draw(t: Table, world: Rng) -> None:
    """T2: take draw_count cards (or what is left) into the hand."""
    t.draws += 1
    drawn = []
    for _ in range(t.rules.draw_count):
        card = take_from_deck(t, world)
        if card is None:
            break
        drawn.append(card)
    t.hand.extend(drawn)
    t.say(f"  draws {show(drawn)}; hand {show(sorted(t.hand))}; deck {len(t.movement_deck)}")
    t.record(event="draw", cards=[str(c) for c in drawn])


def lowest_suit_card(t: Table, value: int) -> Card:
    """The card of a chosen value that is played: its lowest-suit copy (spec §4.4 item 14)."""
    return min(c for c in t.hand if c.rank == value)


def play_one_move(t: Table, value: int, count: int, world: Rng) -> None:
    """T3 a-c: discard the card(s), sail, land."""
    played = []
    for _ in range(count):
        card = lowest_suit_card(t, value)
        t.hand.remove(card)
        t.discard.append(card)
        played.append(card)
    steps = value * count
    t.cards_this_turn += count
    t.steps_this_turn += steps
    start, heading = t.boat, t.heading
    sail(t, steps)
    turned = ""
    if t.heading != heading:
        turned = ", turned at the " + ("right" if heading == RIGHT else "left") + " end"
    t.say(f"  plays {show(played)}: boat {start} -> {t.boat} "
          f"(heading {'right' if t.heading == RIGHT else 'left'}{turned})")
    t.record(event="play", cards=[str(c) for c in played], start=start, boat=t.boat)
    land(t, steps, count, world)


def play_cards(t: Table, action: Action, policy, world: Rng) -> None:
    """T3: one move, then (sequential mode) as many same-number cards as the player wants (D3)."""
    play_one_move(t, action.value, action.count, world)
    if t.rules.multi_card_mode == "combined":
        return
    while t.hand_count(action.value) > 0:
        must = kept_binary(CHAIN, t.forbid, t.force)
        if not (must if must is not None else policy.choose_continue(t, action.value)):
            break
        t.takes(CHAIN)
        play_one_move(t, action.value, 1, world)


def close_kind(t: Table, port: int) -> int:
    """D4's kinds: the rank of the port closed."""
    return CHOICE[CLOSE_NAMES[t.ports[port].rank]]


def end_turn(t: Table, kind: str, policy) -> None:
    """T4: flip one face-up port the boat is not on (D4); T5: check for the end."""
    flips = (kind == PLAY or (kind == DRAW and t.rules.flip_after_draw)
             or (kind == PASS and t.rules.flip_on_pass))
    if flips:
        candidates = t.flip_candidates()
        if candidates:
            candidates = t.kept(candidates, [close_kind(t, i) for i in candidates])
            port = candidates[0] if len(candidates) == 1 else policy.choose_flip(t, candidates)
            t.takes(close_kind(t, port))
            t.face_up[port] = False
            t.say(f"  flips port {port} ({t.ports[port]}); {len(t.open_ports())} open")
            t.record(event="flip", port=port)
        else:
            t.say("  no port can be flipped (the only open port is under the boat)")
    check_end(t)


def check_end(t: Table) -> None:
    """T5 a-c, in that order."""
    rules = t.rules
    if not t.open_ports():
        t.end_reason = "normal"
    elif (rules.end_on_stranded and not t.hand and not t.can_draw()
          and (not rules.flip_on_pass or not t.flip_candidates())):
        t.end_reason = "stranded"
    elif t.turn >= rules.max_turns:
        t.end_reason = "capped"


def play_turn(t: Table, policy, world: Rng) -> None:
    """One whole turn, T0-T5."""
    begin_turn(t)
    t.say(f"Turn {t.turn}: boat at {t.boat}, hand {show(sorted(t.hand))}, "
          f"deck {len(t.movement_deck)}, discard {len(t.discard)}")
    options = legal_actions(t)
    options = t.kept(options, [action_kind(a) for a in options])
    action = options[0] if len(options) == 1 else policy.choose_action(t, options)
    t.takes(action_kind(action))
    if action.kind == DRAW:
        draw(t, world)
    elif action.kind == PLAY:
        play_cards(t, action, policy, world)
    else:
        t.say("  passes (no cards in hand or deck)")
        t.record(event="pass")
    end_turn(t, action.kind, policy)


def play_out(t: Table, policy, world: Rng) -> None:
    """Turns until the game is over."""
    while t.end_reason is None:
        play_turn(t, policy, world)


def finish(t: Table) -> int:
    """End of game: the hand joins the collection if hand_scores; returns the score."""
    if t.rules.hand_scores and t.hand:
        t.collection.extend(t.hand)
        t.hand = []
    return t.score()


# ================================================================ one game


def play_game(rules: Rules, players: int, policies: list, world: Rng, narrate: bool = False,
              deal: Deal | None = None) -> Table:
    """Set up (from ``deal`` if given), choose the start, play to the end, score.

    ``policies`` holds the one seat's decision maker. Returns the final table.
    """
    assert players == 1 and len(policies) == 1, "Rum Runner is a solo game"
    policy = policies[0]
    t = setup(rules, world, deal)
    t.forbid, t.force = getattr(policy, "forbid", 0), getattr(policy, "force", 0)
    if narrate:
        t.log, t.events = [], []
    place_boat(t, choose_start(t, policy, world))
    play_out(t, policy, world)
    final = finish(t)
    band = rules.band(final)
    t.say(f"Game over after {t.turn} turns ({t.end_reason}). Collection {show(t.collection)}.")
    t.say(f"Score {final}: {BAND_NAMES[band]}.")
    return t


def outcome(t: Table, game: int) -> dict:
    """The outcome row of spec §5.5."""
    rules = t.rules
    final = t.score()
    movement = sum(1 for c in t.collection if c.is_movement)
    return {
        "game": game,
        "players": 1,
        "score_0": final,
        "win_0": 1.0 if final >= rules.win_threshold else 0.0,
        "band_0": rules.band(final),
        "turns": t.turn,
        "end_reason": END_REASONS.index(t.end_reason),
        "collection_size": len(t.collection),
        "rum_cards": len(t.collection) - movement,
        "movement_cards_collected": movement,
        "landings": t.landings,
        "replenishments": t.replenishments,
        "exhausted_landings": t.exhausted_landings,
        "draws": t.draws,
    } | {f"took_{c.name}_0": t.took[i] for i, c in enumerate(CHOICES)}


def final_state(t: Table) -> dict:
    """Where every card ended up, and the band the score falls in."""
    return {
        "ports": [{"position": i, "card": str(c), "face_up": t.face_up[i]}
                  for i, c in enumerate(t.ports)],
        "boat": {"position": t.boat, "heading": "right" if t.heading == RIGHT else "left"},
        "movement_deck": [str(c) for c in t.movement_deck],
        "hand": [str(c) for c in sorted(t.hand)],
        "discard": [str(c) for c in t.discard],
        "rum_piles": {name: [str(c) for c in pile]
                      for name, pile in zip(PILE_NAMES, t.piles, strict=True)},
        "collection": [str(c) for c in t.collection],
        "band_label": BAND_NAMES[t.rules.band(t.score())],
    }
