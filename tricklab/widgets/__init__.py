"""Jupyter widgets: thin views over the engine. Every fact they show comes from it."""

from __future__ import annotations

import importlib.util

from ..errors import MissingExtra

_NEEDED = [name for name in ("ipywidgets", "anywidget") if importlib.util.find_spec(name) is None]
if _NEEDED:
    raise MissingExtra(
        f"tricklab's widgets need {' and '.join(_NEEDED)}: pip install 'tricklab[widgets]' "
        "(the engine, tricklab itself, works without them)"
    )

from .bidtrainer import BidTrainer
from .board import Board
from .explainer import TrickExplainer
from .movetrainer import MoveTrainer
from .playtable import PlayTable
from .quiz import Quiz
from .stepper import TrickStepper

__all__ = ["BidTrainer", "Board", "MoveTrainer", "PlayTable", "Quiz", "TrickExplainer", "TrickStepper"]
