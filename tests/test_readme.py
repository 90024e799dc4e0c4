"""The examples of the README and of the guides (``notebooks/guide``) run as written (doctest)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: the README and the guides that show Python examples (``>>>``)
DOCUMENTS = [
    path
    for path in [ROOT / "README.md", *sorted((ROOT / "notebooks" / "guide").glob("*.md"))]
    if ">>> " in path.read_text()
]


@pytest.mark.parametrize("document", DOCUMENTS, ids=[path.name for path in DOCUMENTS])
def test_examples_run(document: Path) -> None:
    result = doctest.testfile(str(document), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_rules_api_guide_shows_many_examples() -> None:
    guide = ROOT / "notebooks" / "guide" / "rules-api.md"
    assert doctest.testfile(str(guide), module_relative=False, optionflags=doctest.ELLIPSIS).attempted > 10
