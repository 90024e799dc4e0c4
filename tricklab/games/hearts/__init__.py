"""Hearts: avoid the hearts and the Queen of spades, or take them all. The game's folder: its
rules (:mod:`.rules`), facts, narrator, rulebook, bots, review and panel."""

from .rules import Hearts, HeartsOptions, HeartsSeatView, HeartsState, HeartsView, Phase

__all__ = ["Hearts", "HeartsOptions", "HeartsSeatView", "HeartsState", "HeartsView", "Phase"]
