"""Jewel Vault's narrator: the facts of its core as the events and reasons a learner reads.

Apart from the rules: each function reads a fact (and the rules' fixed facts: seat names,
sides, options), never a state, so a fact as another seat sees it (:meth:`Fact.seen_by`)
narrates just as well. Who wins a trick, who has the most of a suit and who wins the game
come from the rules' own functions, never a second copy.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from ...actions import Action, Announce, Pass, Play, Steal
from ...cards import SUIT_NAME, SUIT_SINGULAR, SUIT_SYMBOL, rank_word
from ...errors import InvalidOption, describe
from ...explain import Reason, and_list, plural
from ..base import Event, SeatView, TieBreak, Trick, TrickOutcome
from ..core import Decided, Fact, event
from .facts import (
    CARD_IDS,
    SUIT_MASKS,
    SUIT_OF,
    Acted,
    ActionResult,
    Announced,
    Dealt,
    DueAction,
    Ended,
    Exchanged,
    Jewels,
    Passed,
    Played,
    RoundEnded,
    TrickWon,
    due_action,
)
from .rulebook import (
    ACTION_PATH,
    ACTION_RULE,
    ANNOUNCE,
    MOST,
    NO_TARGET,
    NO_TRICK,
    PASS,
    ROUND_END_ORDER,
    RULEBOOK,
    SHOWROOM_EMPTY,
    START_SHOWROOM,
    STEAL,
    SUIT_INDEX,
    SUITS,
    SUPPLY_EMPTY,
    TRICK,
    VOID,
)

if TYPE_CHECKING:
    from .rules import JewelVault

_CARDS = CARD_IDS.cards


def narrate(rules: JewelVault, fact: Fact) -> Event:
    """The event for one fact of Jewel Vault's core."""
    if isinstance(fact, Played):
        return _played(rules, fact)
    if isinstance(fact, Acted):
        result = action_result(rules, fact)
        return event(fact.kind, fact.seat, result.text, result.reasons, result=result)
    if isinstance(fact, TrickWon):
        return _trick_won(rules, fact)
    if isinstance(fact, Passed):
        return _passed(rules, fact)
    if isinstance(fact, Exchanged):
        return _exchanged(rules, fact)
    if isinstance(fact, Announced):
        to = "their partner" if rules.options.partnerships else "the left"
        name = rules.seat_name(fact.seat or 0)
        return event(
            fact.kind,
            fact.seat,
            f"{name} (the dealer) announces: everyone passes {plural(fact.n, 'card')} to {to}.",
            (Reason("jv.announce", RULEBOOK["jv.announce"].text),),
            n=fact.n,
        )
    if isinstance(fact, RoundEnded):
        return _round_ended(rules, fact)
    if isinstance(fact, Dealt):
        return _dealt(rules, fact)
    if isinstance(fact, Ended):
        reasons = result_reasons(rules, fact.jewels, rules.decided(fact.jewels))
        totals = rules.seat_totals(fact.jewels)
        winners = rules.winning_seats(rules.decided(fact.jewels))
        return event(fact.kind, None, reasons[-1].text, reasons, winners=winners, totals=totals)
    raise TypeError(f"Jewel Vault has no narration for {describe(fact)}")


# --- dealing and passing ------------------------------------------------------------------------------


def _dealt(rules: JewelVault, fact: Dealt) -> Event:
    dealer = fact.seat or 0
    each = rules.cards_each
    left = len(rules.deck()) - each * rules.players
    aside_note = f" The other {plural(left, 'card')} stay aside, unseen." if left else ""
    reasons = [
        Reason("jv.deal", f"Everyone gets {plural(each, 'card')} this round.{aside_note}"),
        Reason(
            "jv.rounds",
            f"This is round {fact.round + 1} of {rules.rounds}; the deal moves one seat to the left each round.",
        ),
    ]
    if rules.options.known_deck:
        reasons.append(Reason("jv.known-deck", RULEBOOK["jv.known-deck"].text))
    start = ""
    if fact.round == 0:
        supply = fact.supply
        start = (
            f" Everyone starts with {START_SHOWROOM} jewels from the supply in their showroom; "
            f"{plural(supply, 'jewel')} {'stays' if supply == 1 else 'stay'} in the supply."
        )
        reasons.append(Reason("jv.start", RULEBOOK["jv.start"].text))
        reasons.append(Reason("jv.supply", RULEBOOK["jv.supply"].text))
        if rules.options.partnerships:
            reasons.append(Reason("jv.partnerships", RULEBOOK["jv.partnerships"].text))
    return event(
        fact.kind,
        dealer,
        f"Round {fact.round + 1} of {rules.rounds}: {rules.seat_name(dealer)} deals {each} cards each."
        f"{aside_note}{start}",
        reasons,
        round=fact.round,
        dealer=dealer,
        jewels=fact.jewels,
    )


def _passed(rules: JewelVault, fact: Passed) -> Event:
    seat = fact.seat or 0
    rule = "jv.partnerships.pass" if rules.options.partnerships else "jv.pass"
    cards = None if fact.cards is None else CARD_IDS.hand(fact.cards)
    return event(
        fact.kind,
        seat,
        f"{rules.seat_name(seat)} secretly chooses {plural(fact.n, 'card')} to pass.",
        (Reason(rule, RULEBOOK[rule].text), Reason("jv.pass.secret", RULEBOOK["jv.pass.secret"].text)),
        cards=cards,
    )


def _exchanged(rules: JewelVault, fact: Exchanged) -> Event:
    to = "their partner" if rules.options.partnerships else "the left"
    return event(
        fact.kind,
        None,
        f"All the chosen cards are passed at the same moment, each to {to}. "
        f"{rules.seat_name(fact.leader)}, left of the dealer, leads the first trick.",
        (
            Reason("jv.pass.secret", RULEBOOK["jv.pass.secret"].text),
            Reason("jv.lead.first", RULEBOOK["jv.lead.first"].text),
        ),
        receivers=fact.receivers,
    )


# --- tricks --------------------------------------------------------------------------------------------


def _played(rules: JewelVault, fact: Played) -> Event:
    seat = fact.seat or 0
    name = rules.seat_name(seat)
    card = _CARDS[fact.card]
    trick = fact.trick
    reasons: list[Reason] = []
    if len(trick) == 1:
        text = f"{name} leads {card.pretty}."
    else:
        led = SUITS[SUIT_OF[trick[0]]]
        if fact.void:
            text = (
                f"{name} has no {SUIT_NAME[led].lower()} and plays {card.pretty}, which earns a "
                f"{SUIT_SYMBOL[card.suit]} action at once."
            )
            reasons.append(
                Reason(
                    "jv.follow.void",
                    f"{name} cannot follow {SUIT_SYMBOL[led]}, so any card may be played, and the "
                    f"{SUIT_SYMBOL[card.suit]} action is taken straight away.",
                    (card,),
                )
            )
        else:
            text = f"{name} follows with {card.pretty}."
            reasons.append(Reason("jv.follow", f"{SUIT_SYMBOL[led]} was led and {card.pretty} follows suit.", (card,)))
        best = _CARDS[trick[rules.winning_index(trick)]]
        text += f" {best.pretty} is winning so far."
    if rules.players == 2 and len(trick) == 3:
        reasons.append(Reason("jv.two-players", "With two players the leader plays a second card to the trick."))
    return event(fact.kind, seat, text, reasons, card=card)


def _trick_won(rules: JewelVault, fact: TrickWon) -> Event:
    winner = fact.seat or 0
    cards = CARD_IDS.of(fact.cards)
    ranking = rules.ranking(fact.cards)
    last = Trick.ranked(fact.leader, cards, ranking, rules.players, places=False)
    led = cards[0].suit
    then = f" {rules.seat_name(winner)} will lead the next trick." if fact.more else ""
    reasons = explain_trick(TrickOutcome(rules.name, cards, ranking, explain_trick))
    if fact.more:
        reasons = reasons + (Reason("jv.lead.next", RULEBOOK["jv.lead.next"].text),)
    return event(
        fact.kind,
        winner,
        f"{rules.seat_name(winner)} wins trick {fact.number} with {cards[ranking[0]].pretty} and takes a "
        f"{SUIT_SYMBOL[led]} action.{then}",
        reasons,
        trick=last,
        cards=cards,
        seats=last.seats,
        ranking=ranking,
        leader=fact.leader,
    )


def explain_trick(outcome: TrickOutcome) -> tuple[Reason, ...]:
    """Why a (possibly partial) trick ranks as it does (``resolve_trick``'s reasons)."""
    cards = outcome.cards
    led = cards[0].suit
    sym = SUIT_SYMBOL[led]
    led_name = SUIT_NAME[led].lower()
    reasons = [
        Reason(
            "jv.rank",
            f"{cards[0].pretty} was led, so {led_name} {sym} is the led suit: the highest {SUIT_SINGULAR[led]} wins. "
            "There are no trumps, and a card of any other suit can never win.",
            (cards[0],),
        )
    ]
    ranking = outcome.ranking
    follow = [i for i in ranking if cards[i].suit == led]
    off = [i for i in ranking if cards[i].suit != led]
    if len(follow) == 1 and not off:
        reasons.append(Reason("jv.trick", f"Only {cards[0].pretty} has been played, so it is winning for now."))
        return tuple(reasons)
    for a, b in pairwise(follow):
        hi, lo = cards[a], cards[b]
        ace = " (the Ace is the lowest card)" if lo.rank == 1 else ""
        reasons.append(
            Reason(
                "jv.rank.within",
                f"{hi.pretty} beats {lo.pretty}: both are {led_name}, and {rank_word(hi)} is higher than "
                f"{rank_word(lo)}{ace}.",
                (hi, lo),
            )
        )
    for i in off:
        card = cards[i]
        reasons.append(
            Reason(
                "jv.rank.offsuit",
                f"{card.pretty} is not a {SUIT_SINGULAR[led]}, so it cannot win, however high it is; it ranks "
                "after the led suit, in the order it was played.",
                (card,),
            )
        )
    return tuple(reasons)


# --- the end of a round ---------------------------------------------------------------------------------


def _round_ended(rules: JewelVault, fact: RoundEnded) -> Event:
    counts = fact.counts
    shown = "; ".join(
        f"{rules.seat_name(s)} " + " ".join(f"{counts[s][SUIT_INDEX[x]]}{SUIT_SYMBOL[x]}" for x in ROUND_END_ORDER)
        for s in range(rules.players)
    )
    reasons = round_end_reasons(rules, counts, fact.tricks_won, fact.dealer)
    return event(
        fact.kind,
        None,
        f"End of round {fact.round + 1}. Won cards: {shown}.",
        (Reason("jv.round-end.count", RULEBOOK["jv.round-end.count"].text), *reasons),
        counts=counts,
        actions=tuple(due_action(d) for d in fact.owed),
    )


def round_end_reasons(
    rules: JewelVault, counts: tuple[tuple[int, ...], ...], tricks_won: tuple[int, ...], dealer: int
) -> tuple[Reason, ...]:
    """Why the end-of-round actions (JV-6) go to whom, ties and partnerships included."""
    reasons: list[Reason] = []
    if rules.sides_count != rules.players:
        reasons.append(Reason("jv.partnerships.count", RULEBOOK["jv.partnerships.count"].text))
    for k, best, top, actor in rules.most_of_suits(counts, dealer):
        sym = SUIT_SYMBOL[SUITS[k]]
        if best == 0:
            reasons.append(Reason("jv.round-end.tie", f"Nobody won a {sym} card: nobody takes the {sym} action."))
        elif actor < 0:
            names = " and ".join(rules.side_name(side) for side in top)
            reasons.append(
                Reason("jv.round-end.tie", f"{names} tie with {best} {sym} each: nobody takes the {sym} action.")
            )
        else:
            reasons.append(
                Reason(
                    "jv.round-end.most",
                    f"{rules.side_name(top[0])} won the most {sym} ({best}), so {rules.seat_name(actor)} takes a "
                    f"{sym} action.",
                )
            )
    for seat in rules.no_trick_seats(tricks_won, dealer):
        reasons.append(
            Reason("jv.round-end.no-trick", f"{rules.seat_name(seat)} won no trick this round and takes two ♦ actions.")
        )
    return tuple(reasons)


# --- suit actions ---------------------------------------------------------------------------------------


def action_result(rules: JewelVault, fact: Acted) -> ActionResult:
    """A suit action as data and prose: what moved from where to where, or why nothing did."""
    seat = fact.seat or 0
    suit = SUITS[fact.suit]
    side = rules.side_of(seat)
    target_side = fact.target
    source, destination = ACTION_PATH[suit]
    from_side = target_side if suit == "C" else (side if suit == "S" else None)
    name = rules.seat_name(seat)
    sym = SUIT_SYMBOL[suit]
    reasons = [_cause_reason(rules, fact)]
    own = "their partnership's" if len(rules.members(side)) > 1 else "their own"
    blocked = fact.blocked
    if blocked is None:
        if suit == "C":
            assert target_side is not None
            owner = rules.owner(target_side)
            text = f"{name} takes a {sym} action: one jewel from {owner} showroom into {own} showroom."
            reason_text = f"A ♣ action takes a jewel from {owner} showroom."
            if rules.options.partnerships:
                reasons.append(Reason("jv.partnerships.club", RULEBOOK["jv.partnerships.club"].text))
        else:
            where = "the supply" if source == "supply" else f"{own} showroom"
            text = f"{name} takes a {sym} action: one jewel from {where} into {own} {destination}."
            reason_text = RULEBOOK[ACTION_RULE[suit]].text
        reasons.append(Reason(ACTION_RULE[suit], reason_text))
    else:
        why = {
            SUPPLY_EMPTY: "the supply is empty",
            SHOWROOM_EMPTY: f"{own} showroom is empty",
            NO_TARGET: "every showroom they could take from is empty",
        }[blocked]
        text = f"{name} would take a {sym} action, but {why}, so nothing happens."
        reasons.append(Reason("jv.action.none", f"The {sym} action cannot be done: {why}."))
    return ActionResult(
        seat=seat,
        suit=suit,
        cause=fact.cause,
        source=source,
        destination=destination,
        from_side=from_side if blocked is None else None,
        to_side=side,
        done=blocked is None,
        blocked=blocked,
        text=text,
        reasons=tuple(reasons),
        after=fact.jewels,
    )


def _cause_reason(rules: JewelVault, fact: Acted) -> Reason:
    seat = fact.seat or 0
    name = rules.seat_name(seat)
    suit = SUITS[fact.suit]
    sym = SUIT_SYMBOL[suit]
    cause = fact.cause
    if cause == VOID:
        played = (
            f" and played {_CARDS[fact.card].pretty}"
            if fact.card is not None
            else f" and played a {SUIT_SINGULAR[suit]}"
        )
        return Reason("jv.follow.void", f"{name} could not follow suit{played}: a {sym} action at once.")
    if cause == TRICK:
        return Reason("jv.trick.action", f"{name} won the trick, and {sym} was led: a {sym} action.")
    if cause == MOST:
        side = rules.side_of(seat)
        count = "" if fact.count is None else f" ({fact.count})"
        who = f"{name} has" if len(rules.members(side)) == 1 else f"{rules.side_name(side)} have"
        return Reason(
            "jv.round-end.most",
            f"{who} the most {sym} cards at the end of the round{count}: a {sym} action for {name}.",
        )
    return Reason("jv.round-end.no-trick", f"{name} won no trick this round: two ♦ actions, this is one of them.")


# --- the end -----------------------------------------------------------------------------------------------


def result_reasons(rules: JewelVault, jewels: Jewels, decided: Decided) -> tuple[Reason, ...]:
    """Each side's points, then who won and, on equal points, how the vaults decided (JV-8)."""
    points = rules.points_of(jewels)
    reasons: list[Reason] = [
        Reason(
            "jv.score",
            f"{rules.side_name(side)}: {plural(jewels.vaults[side], 'jewel')} in the vault (2 points each) and "
            f"{plural(jewels.showrooms[side], 'jewel')} in the showroom (1 point each) make "
            f"{plural(points[side], 'point')}.",
        )
        for side in range(rules.sides_count)
    ]
    tied = decided.tied
    best = points[tied[0]]
    names = " and ".join(rules.side_name(side) for side in tied)
    if decided.tie_break is None:
        verb = "win" if len(rules.members(tied[0])) > 1 else "wins"
        reasons.append(Reason("jv.win", f"{names} {verb} with {plural(best, 'point')}."))
    elif decided.tie_break == TieBreak.VAULT:
        winner = decided.winners[0]
        reasons.append(
            Reason(
                "jv.win.tie",
                f"{names} tie on {plural(best, 'point')}; {rules.side_name(winner)} won with more jewels in "
                f"the vault ({jewels.vaults[winner]}).",
            )
        )
    else:
        sharing = " and ".join(rules.side_name(side) for side in decided.winners)
        most = jewels.vaults[decided.winners[0]]
        reasons.append(
            Reason(
                "jv.win.tie",
                f"{sharing} tie on {plural(best, 'point')} and on {plural(most, 'jewel')} in the vault: "
                "they share the victory.",
            )
        )
    return tuple(reasons)


# --- words for the learner: the decision's rule, actions in words -------------------------------------------

_ACTION_WORDS = {  # suit -> what its action does, said of the player who takes it
    "D": "a jewel from the supply to their vault",
    "H": "a jewel from the supply to their showroom",
    "S": "a jewel from their showroom to their vault",
    "C": "a jewel from another player's showroom to their own",
}
_CAUSE_WORDS = {
    VOID: "for not following suit",
    TRICK: "for winning the trick",
    MOST: "for the most cards of that suit this round",
    NO_TRICK: "for winning no trick this round",
}


def follow_to_you(led: str, allowed: int) -> str:
    """``jv.follow`` spoken to the seat: the led suit and the cards of it the seat holds (a mask)."""
    return f"You must follow {SUIT_NAME[led].lower()}: you hold {and_list(c.pretty for c in CARD_IDS.hand(allowed))}"


def action_legend() -> tuple[tuple[str, str], ...]:
    """:meth:`JewelVault.action_legend`."""
    return tuple((SUIT_SYMBOL[suit], _ACTION_WORDS[suit]) for suit in ("D", "H", "S", "C"))


def describe_due(rules: JewelVault, due: DueAction) -> str:
    """:meth:`JewelVault.describe_due`."""
    sym = SUIT_SYMBOL[due.suit]
    return f"{rules.seat_name(due.seat)}: {sym} action ({_ACTION_WORDS[due.suit]}), {_CAUSE_WORDS[due.cause]}"


def _acting(view: SeatView | None, seat: int | None = None) -> int | None:
    if view is None:
        return seat
    return next((s for s in (seat, view.seat, view.to_play) if s is not None), None)


def describe_action(rules: JewelVault, action: Action, view: SeatView | None) -> str:
    """:meth:`JewelVault.describe_action`."""
    if isinstance(action, Play):
        return f"Play {action.card.pretty}"
    if isinstance(action, Announce):
        return f"Everyone passes {plural(action.n, 'card')}"
    if isinstance(action, Pass):
        cards = and_list(c.pretty for c in action.cards)
        seat = _acting(view)
        if seat is None or not 0 <= seat < rules.players:
            return f"Pass {cards}"
        to = rules.receiver(seat)
        partner = ", your partner" if rules.partner(seat) == to else ""
        return f"Pass {cards} to {rules.seat_name(to)}{partner}"
    if isinstance(action, Steal):
        if not 0 <= action.target < rules.players:
            return f"Take a jewel from seat {action.target}'s showroom"
        side = rules.side_of(action.target)
        where = f"Take a jewel from {rules.owner(side)} showroom"
        rooms: tuple[int, ...] | None = getattr(view, "showrooms", None)
        if rooms is not None and side < len(rooms):
            return f"{where} ({plural(rooms[side], 'jewel')} there)"
        return where
    text = str(action)
    return text[:1].upper() + text[1:]


def explain_choice(rules: JewelVault, view: SeatView, seat: int | None) -> Reason:
    """:meth:`JewelVault.explain_choice`."""
    from .rules import JewelVaultView

    if not isinstance(view, JewelVaultView):
        raise InvalidOption(f"a view of Jewel Vault is needed (rules.view(state, seat)), not {describe(view)}")
    acting = _acting(view, seat)
    if acting is None:
        raise InvalidOption("the game is over: there is no decision to explain")
    if view.phase is ANNOUNCE:
        return Reason("jv.announce", "You deal: say how many cards everyone passes, 1, 2 or 3.")
    if view.phase is PASS:
        to = rules.receiver(acting)
        k = view.announced or 0
        if rules.partner(acting) == to:
            return Reason(
                "jv.partnerships.pass",
                f"Choose {plural(k, 'card')} to pass to your partner, {rules.seat_name(to)}; everyone passes at once.",
            )
        return Reason(
            "jv.pass", f"Choose {plural(k, 'card')} to pass to {rules.seat_name(to)}; everyone passes at once."
        )
    if view.phase is STEAL:
        sides = rules.steal_sides(view.showrooms, rules.side_of(acting))
        rooms = and_list(f"{rules.owner(s)} ({plural(view.showrooms[s], 'jewel')})" for s in sides)
        return Reason(
            "jv.action.club",
            f"Your ♣ action takes a jewel from another player's showroom into yours: choose whose, {rooms}.",
        )
    hand = view.hands[acting] if acting < len(view.hands) else None
    if hand is None:
        raise InvalidOption(f"this view does not show {rules.seat_name(acting)}'s hand: ask with that seat's own view")
    mask = CARD_IDS.mask(hand or ())
    trick = tuple(CARD_IDS.id[c] for c in view.trick)
    allowed = rules.playable(mask, trick)
    cards = CARD_IDS.hand(allowed)
    if not trick:
        return Reason("jv.trick", "Any card may be played: you lead this trick.", cards)
    led = SUITS[SUIT_OF[trick[0]]]
    if mask & SUIT_MASKS[SUIT_OF[trick[0]]]:
        return Reason("jv.follow", follow_to_you(led, allowed) + ".", cards)
    return Reason(
        "jv.follow.void",
        f"Any card may be played: you hold no {SUIT_NAME[led].lower()}, the led suit, and the card you play earns "
        "its suit's action at once.",
        cards,
    )
