"""Oh Hell: bid exactly the tricks you will take, with a trump turned up from the deck. The
game's folder: its rules (:mod:`.rules`), facts, narrator, rulebook and bots."""

from .rules import OhHell, OhHellOptions, OhHellSeatView, OhHellState, OhHellView, Phase

__all__ = ["OhHell", "OhHellOptions", "OhHellSeatView", "OhHellState", "OhHellView", "Phase"]
