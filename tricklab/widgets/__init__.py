"""Jupyter widgets: thin views over the engine. Every fact they show comes from it."""

from __future__ import annotations

from .bidtrainer import BidTrainer
from .board import Board
from .explainer import TrickExplainer
from .movetrainer import MoveTrainer
from .playtable import PlayTable
from .quiz import Quiz
from .stepper import TrickStepper

__all__ = ["BidTrainer", "Board", "MoveTrainer", "PlayTable", "Quiz", "TrickExplainer", "TrickStepper"]
