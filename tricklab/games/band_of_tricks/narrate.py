"""Band of Tricks narration: the facts of the rules as the events, captions and reasons a
learner reads, apart from the rules (:mod:`.rules` makes the facts, :meth:`BandOfTricks.narrate`
calls :func:`narrate`).

A fact carries what happened; the narrator reads only public fields besides it (the bids and
the wins so far, which every seat sees), so the same fact narrates for the teacher or, as
:meth:`Fact.seen_by` gives it, for one seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...actions import BID_SUITS, Action, AssignMetal, Bid, Play
from ...cards import BAND_SUIT_NAME, BAND_SUITS, Card
from ...errors import InvalidOption, describe
from ...explain import Reason, and_list, plural, signed
from ..base import Event, EventKind, SeatView, TrickOutcome
from ..core import Fact, event
from .rulebook import RULEBOOK
from .rules import (
    ALL_BIDS,
    ASSIGN,
    BID,
    DECK,
    IDS,
    LABEL,
    METAL,
    NAME,
    PLAY,
    SUIT,
    TITLE,
    WIN_KEYS,
    BandOfTricksView,
    BidMade,
    Counted,
    DealScored,
    Dealt,
    Ended,
    MetalChoice,
    Played,
    TiedForLead,
    TrickWon,
    Wins,
    _counted_trick,
    _follow_of,
    _join,
    _metal_choices,
    _plays,
    _rank_ids,
    _score,
)

if TYPE_CHECKING:
    from .game import BandOfTricks


class Public(Protocol):
    """What the narrator reads besides a fact: the bids and the wins so far, public to every
    seat (a state and both kinds of view have them)."""

    @property
    def bid_ids(self) -> tuple[int, ...]: ...
    @property
    def won(self) -> tuple[Wins, ...]: ...


def narrate(rules: BandOfTricks, fact: Fact, state: Public) -> Event:
    """The event for ``fact``; ``state`` is the state (or a view of it) right after the fact."""
    if isinstance(fact, Played):
        return _played(rules, fact)
    if isinstance(fact, TrickWon):
        return _trick(rules, fact, state)
    if isinstance(fact, BidMade):
        return _bid(rules, fact)
    if isinstance(fact, Counted):
        return _count(rules, fact, state)
    if isinstance(fact, Dealt):
        return _deal(rules, fact)
    if isinstance(fact, DealScored):
        return _scored(rules, fact, state)
    if isinstance(fact, TiedForLead):
        names = _join(rules.seat_name(s) for s in fact.leaders)
        return event(
            EventKind.TIE,
            None,
            f"{names} share the lead with {plural(fact.best, 'point')}, so an extra deal is played.",
            (Reason("bt.win.tie", RULEBOOK["bt.win.tie"].text),),
            leaders=fact.leaders,
        )
    if isinstance(fact, Ended):
        result = rules.outcome(fact.totals, fact.deals)
        return event(EventKind.END, None, result.reasons[0].text, result.reasons, winners=result.winners)
    raise TypeError(f"{TITLE} has no fact {describe(fact)}")


def _deal(rules: BandOfTricks, fact: Dealt) -> Event:
    n, each = rules.players, rules.cards_each
    deal, start = fact.deal, fact.seat
    assert start is not None
    aside_note = " One card is left over and goes back in the box unseen." if n * each < len(DECK) else ""
    if deal < n:
        title = f"Deal {deal + 1} of {n}"
        second = Reason("bt.deals", f"Deal {deal + 1}: {rules.seat_name(start)} is the start player and bids first.")
    else:
        title = f"Extra deal {deal - n + 1}"
        second = Reason("bt.win.tie", "The highest total is shared, so an extra deal is played.")
    return event(
        EventKind.DEAL,
        start,
        f"{title}: everyone gets {each} cards; {rules.seat_name(start)} is the start player.{aside_note}",
        (Reason("bt.deal", RULEBOOK["bt.deal"].text), second),
        deal=deal,
        start_player=start,
    )


def _bid(rules: BandOfTricks, fact: BidMade) -> Event:
    seat = fact.seat
    assert seat is not None
    bid = ALL_BIDS[fact.bid]
    name = rules.seat_name(seat)
    reasons: list[Reason] = []
    if bid.zero:
        if not fact.as_numbers:
            text = f"{name} bids Zero Success: no trick at all."
            reasons.append(Reason("bt.bid.zero", "Zero Success means winning no trick at all."))
        else:
            text = f"{name} bids 0 in every suit, which is Zero Success: no trick at all."
            reasons.append(Reason("bt.bid.zero", "A bid of 0 in all three suits is Zero Success."))
    else:
        total = bid.rock + bid.soul + bid.pops
        text = f"{name} bids Rock {bid.rock}, Soul {bid.soul}, Pops {bid.pops} ({plural(total, 'trick')} in all)."
        reasons.append(Reason("bt.bid", "Bids are public: everyone sees this bid."))
    if fact.last:
        text += f" All bids are in; {rules.seat_name(fact.leader)} leads the first trick."
        reasons.append(Reason("bt.trick", "The start player leads the first trick."))
    return event(EventKind.BID, seat, text, reasons, bid=str(bid))


def _played(rules: BandOfTricks, fact: Played) -> Event:
    seat = fact.seat
    assert seat is not None
    card = IDS.card(fact.card)
    before = fact.trick[:-1]
    name = rules.seat_name(seat)
    reasons: list[Reason] = []
    follow = _follow_of(before)
    if not before:
        text = f"{name} leads {card.name}."
        if card.suit == METAL:
            reasons.append(
                Reason(
                    "bt.follow.open",
                    "A Metal lead sets no suit: the first Rock, Soul or Pops card after it does.",
                    (card,),
                )
            )
    elif follow < 0:
        text = f"{name} plays {card.name}."
        why = "Only Metal has been played so far, so any card may be played."
        if card.suit != METAL:
            why += f" {card.name} now sets the suit to follow: {card.suit_name}."
        reasons.append(Reason("bt.follow.open", why, (card,)))
    else:
        suit = BAND_SUIT_NAME[BAND_SUITS[follow]]
        if SUIT[fact.card] == follow:
            text = f"{name} follows with {card.name}."
            reasons.append(Reason("bt.follow", f"{suit} is the suit to follow and {card.name} follows it.", (card,)))
        elif card.suit == METAL:
            text = f"{name} plays {card.name}."
            why = "Metal may always be played" + (f", even while holding {suit}." if fact.holding else ".")
            reasons.append(Reason("bt.follow.metal", why, (card,)))
        else:
            text = f"{name} has no {suit} and plays {card.name}."
            reasons.append(Reason("bt.follow.void", f"No {suit} card in hand, so any card may be played.", (card,)))
    if before:
        text += f" {IDS.card(fact.trick[fact.best]).name} is winning so far."
    return event(EventKind.PLAY, seat, text, reasons, card=card)


def _choices(state: Public, seat: int, won: Wins) -> tuple[MetalChoice, ...]:
    return _metal_choices(ALL_BIDS[state.bid_ids[seat]], won)


def _trick(rules: BandOfTricks, fact: TrickWon, state: Public) -> Event:
    last = _counted_trick(fact.trick, rules.players)
    ranking = _rank_ids(fact.trick.ids)
    seats = tuple(last.seats[i] for i in ranking)
    winner = last.winner
    name = rules.seat_name(winner)
    outcome = TrickOutcome(NAME, last.cards, ranking, _explain_trick, {"full": True})
    reasons = list(outcome.reasons)
    best = last.winning_card
    text = f"{name} wins trick {fact.number} with {best.name}."
    choices: tuple[MetalChoice, ...] = ()
    if last.counts_for is None:
        choices = _choices(state, winner, state.won[winner])
        text += f" It was won with Metal, so {name} chooses whether it counts for Rock, Soul or Pops."
        reasons.append(Reason("bt.metal.assign", RULEBOOK["bt.metal.assign"].text, (best,)))
        reasons.extend(Reason("bt.metal.assign", c.text) for c in choices)
    elif last.counts_for == "metal":
        text += f" {name} bid Zero Success, so the Metal win simply counts as a trick won."
        reasons.append(Reason("bt.metal.zero", RULEBOOK["bt.metal.zero"].text, (best,)))
    else:
        text += f" It counts for {LABEL[last.counts_for]}: {_progress(state, winner, last.counts_for)}."
    if fact.number < rules.cards_each:
        reasons.append(Reason("bt.lead.next", f"{name} won the trick, so {name} leads the next one."))
    return event(
        EventKind.TRICK,
        winner,
        text,
        reasons,
        trick=last,
        cards=last.cards,
        ranking=ranking,
        seats=seats,
        leader=last.leader,
        counts_for=last.counts_for,
        choices=choices,
    )


def _progress(state: Public, seat: int, key: str) -> str:
    bid = ALL_BIDS[state.bid_ids[seat]]
    won = state.won[seat]
    if bid.zero:
        return f"{plural(sum(won), 'trick')} won after bidding Zero Success"
    return f"{won[WIN_KEYS.index(key)]} won of {getattr(bid, key)} bid"


def _count(rules: BandOfTricks, fact: Counted, state: Public) -> Event:
    seat = fact.seat
    assert seat is not None
    key = BID_SUITS[fact.suit]
    won = state.won[seat]
    k = fact.suit
    before: Wins = (won[0] - (k == 0), won[1] - (k == 1), won[2] - (k == 2), won[3])
    choice = _choices(state, seat, before)[k]
    return event(
        EventKind.COUNT,
        seat,
        f"{rules.seat_name(seat)} counts the Metal win for {LABEL[key]}: {_progress(state, seat, key)}.",
        (Reason("bt.metal.assign", choice.text, (IDS.card(fact.card),)),),
        counts_for=key,
    )


def _scored(rules: BandOfTricks, fact: DealScored, state: Public) -> Event:
    n = rules.players
    scores = fact.scores
    details = [_score(ALL_BIDS[state.bid_ids[s]], state.won[s], n) for s in range(n)]
    text = f"Deal {fact.deal + 1} scored: " + ", ".join(f"{rules.seat_name(s)} {scores[s]:+d}" for s in range(n)) + "."
    reasons = tuple(Reason(r.rule_id, f"{rules.seat_name(s)}: {r.text}") for s in range(n) for r in details[s].reasons)
    return event(EventKind.SCORE, None, text, reasons, scores=scores, details=tuple(details))


# --- why a trick ranks as it does (resolve_trick's reasons and the trick events') ----------------


def _suit_list(cards: tuple[Card, ...]) -> tuple[list[str], str]:
    """The suits in order of first appearance, and a listing like ``"Pops (2 cards) and Soul (1 card)"``."""
    order: list[str] = []
    counts: dict[str, int] = {}
    for card in cards:
        if card.suit not in counts:
            order.append(card.suit)
            counts[card.suit] = 0
        counts[card.suit] += 1
    listing = _join(f"{BAND_SUIT_NAME[s]} ({plural(counts[s], 'card')})" for s in order)
    return order, listing


_COUNT_WORD = {3: "Three", 4: "Four"}


def _explain_trick(outcome: TrickOutcome) -> tuple[Reason, ...]:
    cards = outcome.cards
    ranking = outcome.ranking
    best = cards[ranking[0]]
    verb = "wins" if outcome.context.get("full", True) else "is winning so far"
    if len(cards) == 1:
        return (Reason("bt.trick", f"Only {best.name} has been played, so it is winning for now.", (best,)),)
    suits, listing = _suit_list(cards)
    reasons: list[Reason] = []
    if len(suits) == 1:
        reasons.append(
            Reason(
                "bt.one-suit",
                f"All {len(cards)} cards are {best.suit_name}: with one suit the highest number wins, "
                f"so {best.name} {verb}.",
                cards,
            )
        )
    elif len(suits) == 2:
        top = BAND_SUIT_NAME[best.suit]
        other = BAND_SUIT_NAME[next(s for s in suits if s != best.suit)]
        why = f"Metal loses to {top} when only two suits meet" if other == "Metal" else f"{top} beats {other}"
        reasons.append(
            Reason(
                "bt.two-suits",
                f"Two suits are in this trick: {listing}. {why}, so the highest {top} card {verb}: {best.name}.",
                cards,
            )
        )
    else:
        ties = [cards[i] for i in range(len(cards)) if cards[i].rank == best.rank and i != ranking[0]]
        head = (
            f"{_COUNT_WORD[len(suits)]} suits are in this trick: {listing}. With three or more suits the "
            "suit does not matter: the highest number wins."
        )
        if not ties:
            reasons.append(Reason("bt.three-suits", f"{head} That is {best.rank}, so {best.name} {verb}.", cards))
        else:
            reasons.append(Reason("bt.three-suits", head, cards))
            others = _join(c.name for c in ties)
            reasons.append(
                Reason(
                    "bt.tie.later",
                    f"The highest number, {best.rank}, is on {others} and {best.name}. On equal numbers the card "
                    f"played later wins, so {best.name} {verb}.",
                    (*ties, best),
                )
            )
    first = ranking[0]
    pairs = [(first, j) for j in ranking[1:]] + [(ranking[k], ranking[k + 1]) for k in range(1, len(ranking) - 1)]
    for a, b in pairs:
        reasons.append(_compare(cards, a, b, len(suits), a == first))
    return tuple(reasons)


def _compare(cards: tuple[Card, ...], i: int, j: int, suit_count: int, beats: bool) -> Reason:
    """Why card ``i`` places above card ``j`` (``beats``: ``i`` is the trick's winner)."""
    a, b = cards[i], cards[j]
    pair = (a, b)
    above = f"{a.name} beats {b.name}" if beats else f"{a.name} places above {b.name}"
    if suit_count >= 3:
        if a.rank == b.rank:
            return Reason("bt.tie.later", f"{above}: both show {a.rank}, and {a.name} was played later.", pair)
        return Reason(
            "bt.three-suits",
            f"{above}: with three or more suits only the number counts, and {a.rank} is higher than {b.rank}.",
            pair,
        )
    if a.suit == b.suit:
        rule = "bt.one-suit" if suit_count == 1 else "bt.two-suits"
        return Reason(rule, f"{above}: both are {a.suit_name}, and {a.rank} is higher than {b.rank}.", pair)
    if b.suit == METAL:
        return Reason(
            "bt.metal.loses",
            f"{above} because Metal loses to {a.suit_name} when a trick holds only two suits; "
            "the number does not matter here.",
            pair,
        )
    return Reason(
        "bt.cycle",
        f"{above} because {a.suit_name} beats {b.suit_name}; the number does not matter across suits here.",
        pair,
    )


# --- words for the learner: the decision's rule, actions in words -------------------------------------


def _cards_in_words(mask: int) -> str:
    return and_list(c.name for c in IDS.hand(mask))


def follow_to_you(hand: int, follow: int) -> str:
    """``bt.follow`` spoken to the seat holding ``hand`` (a mask) when ``follow`` (a suit index)
    is the suit to follow: ``"You must follow Rock: you hold Rock 7 and Rock 9, so play a Rock
    card or a Metal card"``."""
    suit = BAND_SUIT_NAME[BAND_SUITS[follow]]
    held = _cards_in_words(hand & IDS.suit_mask[follow])
    return f"You must follow {suit}: you hold {held}, so play a {suit} card or a Metal card"


def bid_in_words(bid: Bid) -> str:
    """A bid as a learner reads it: ``"Bid Rock 1, Soul 0, Pops 2"``, or ``"Zero Success: win no
    trick"`` (a bid of 0 in every suit is Zero Success, BT-3)."""
    if bid.zero or (bid.rock, bid.soul, bid.pops) == (0, 0, 0):
        return "Zero Success: win no trick"
    return f"Bid Rock {bid.rock}, Soul {bid.soul}, Pops {bid.pops}"


def describe_action(rules: BandOfTricks, action: Action, view: SeatView | None) -> str:
    """:meth:`BandOfTricks.describe_action`."""
    if isinstance(action, Play):
        return f"Play {action.card.name}"
    if isinstance(action, Bid):
        return bid_in_words(action)
    if isinstance(action, AssignMetal):
        label = LABEL[action.suit]
        choices: tuple[MetalChoice, ...] = getattr(view, "metal_choices", ())
        for choice in choices:
            if choice.suit == action.suit:
                return f"Count this trick for {label} (then {choice.won} of {choice.bid} bid: {signed(choice.points)})"
        return f"Count this trick for {label}"
    text = str(action)
    return text[:1].upper() + text[1:]


def explain_choice(rules: BandOfTricks, view: SeatView, seat: int | None) -> Reason:
    """:meth:`BandOfTricks.explain_choice`."""
    if not isinstance(view, BandOfTricksView):
        raise InvalidOption(f"a view of {TITLE} is needed (rules.view(state, seat)), not {describe(view)}")
    acting = next((s for s in (seat, view.seat, view.to_play) if s is not None), None)
    if acting is None:
        raise InvalidOption("the game is over: there is no decision to explain")
    if view.phase is BID:
        return Reason(
            "bt.bid",
            "Bid how many tricks you will win in each of Rock, Soul and Pops (0 to 6 each; count the Metal "
            "wins you expect in one of them), or Zero Success: no trick at all.",
        )
    if view.phase is ASSIGN:
        return Reason("bt.metal.assign", "You won this trick with Metal: count it for Rock, Soul or Pops.")
    if view.phase is PLAY:
        hand = view.held[acting] if acting < len(view.held) else None
        if hand is None:
            raise InvalidOption(
                f"this view does not show {rules.seat_name(acting)}'s hand: ask with that seat's own view"
            )
        mask = hand or 0
        follow = -1 if view.to_follow is None else BAND_SUITS.index(view.to_follow)
        allowed, rule = _plays(mask, follow)
        cards = IDS.hand(allowed)
        if rule is not None:
            return Reason(rule, follow_to_you(mask, follow) + ".", cards)
        if not view.trick_ids:
            return Reason("bt.trick", "Any card may be played: you lead this trick.", cards)
        if follow < 0:
            return Reason(
                "bt.follow.open",
                "Any card may be played: only Metal has been played, so there is no suit to follow yet.",
                cards,
            )
        suit = BAND_SUIT_NAME[BAND_SUITS[follow]]
        if mask & IDS.suit_mask[follow]:
            return Reason(
                "bt.follow", f"You must follow {suit} or play Metal: every card you hold is one of those.", cards
            )
        return Reason("bt.follow.void", f"Any card may be played: you hold no {suit}, the suit to follow.", cards)
    return Reason("bt.trick", "It is your turn.")
