"""Explanations as data: rule clauses, a rulebook per game, and reasons that cite them.

A :class:`Reason` says *why* something happened (a card beat another, an action was
taken, a score came out) and cites the id of a :class:`Clause` of the game's
:class:`Rulebook`. Widgets render reasons; tests assert on rule ids, not on prose.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from .cards import Card
from .errors import InvalidOption, describe


@dataclass(frozen=True, slots=True)
class Clause:
    """One rule clause: a stable id, a short title and the rule in plain words.

    ``ruling`` names the ruling it implements where the source text was silent or
    ambiguous (for example ``"TS-3"``), and ``option`` the keyword that changes it.
    """

    id: str
    title: str
    text: str
    ruling: str | None = None
    option: str | None = None


@dataclass(frozen=True, slots=True)
class Reason:
    """An explanation step: ``text`` for people, ``rule_id`` for programs and tests."""

    rule_id: str
    text: str
    cards: tuple[Card, ...] = field(default=())

    def __str__(self) -> str:
        return self.text


class Rulebook(Mapping[str, Clause]):
    """The ordered table of a game's rule clauses, looked up by id."""

    def __init__(self, game: str, clauses: Iterable[Clause]) -> None:
        self.game = game
        self._clauses: dict[str, Clause] = {}
        for clause in clauses:
            if clause.id in self._clauses:
                raise ValueError(f"duplicate rule id {clause.id}")
            self._clauses[clause.id] = clause

    def __getitem__(self, rule_id: str) -> Clause:
        return self._clauses[rule_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._clauses)

    def __len__(self) -> int:
        return len(self._clauses)

    def __repr__(self) -> str:
        return f"<Rulebook {self.game}: {len(self)} clauses>"

    def section(self, *prefixes: str) -> Rulebook:
        """The clauses whose ids start with any of ``prefixes`` (``"ts.rank"`` -> ``ts.rank.*``)."""
        for prefix in prefixes:
            if not isinstance(prefix, str):
                raise InvalidOption(
                    f"a rulebook section is named by a rule id prefix like 'ts.rank', not {describe(prefix)}"
                )
        chosen = [c for c in self._clauses.values() if any(c.id == p or c.id.startswith(p + ".") for p in prefixes)]
        return Rulebook(self.game, chosen)

    def rulings(self) -> Rulebook:
        """The clauses that implement a ruling on a gap or ambiguity of the source text."""
        return Rulebook(self.game, [c for c in self._clauses.values() if c.ruling])

    def to_text(self) -> str:
        """The whole rulebook as plain text, one clause a paragraph."""
        lines = []
        for clause in self._clauses.values():
            note = f" [ruling {clause.ruling}]" if clause.ruling else ""
            if clause.option:
                note += f" (option: {clause.option})"
            lines.append(f"{clause.id} — {clause.title}{note}\n    {clause.text}")
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The rulebook as a Markdown table (to paste into a document; a notebook shows
        :meth:`_repr_html_`, whose rows are anchors)."""
        rows = ["| id | rule | |", "| --- | --- | --- |"]
        for clause in self._clauses.values():
            note = f"ruling {clause.ruling}" if clause.ruling else ""
            if clause.option:
                note += f"; option `{clause.option}`"
            rows.append(f"| `{clause.id}` | **{clause.title}**: {clause.text} | {note} |")
        return "\n".join(rows)

    def _repr_html_(self) -> str:
        """A table whose rows are anchors of the clause ids, so a reason's rule id links to its clause."""
        from .display import rulebook_picture

        return rulebook_picture(self)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun`` as a learner reads them: ``1 trick``, ``0 tricks``, ``2 tricks``.

    ``many`` is the plural where adding ``s`` is wrong (``plural(2, "match", "matches")``).
    Only a count of one (or minus one) takes the singular.
    """
    return f"{count} {noun if abs(count) == 1 else many or noun + 's'}"


def deciding(reasons: Iterable[Reason], winner: Card, other: Card | None = None) -> tuple[Reason, ...]:
    """The reasons to read first about a ranked trick, picked from the game's own reasons (never
    written here): the first one, which in every game says how this trick ranks, then the one
    that answers for ``other`` (a learner's own card, or the runner-up): the comparison citing
    exactly ``winner`` and ``other``, else a reason about ``other`` alone (it cannot win)."""
    given = tuple(reasons)
    if not given:
        return ()
    picked = [given[0]]
    if other is not None:
        pair = next((r for r in given if r.cards == (winner, other)), None)
        pair = pair or next((r for r in given if r.cards == (other,)), None)
        if pair is not None and pair not in picked:
            picked.append(pair)
    return tuple(picked)


def and_list(items: Iterable[str]) -> str:
    """Words joined as a learner reads a list: ``"7♥"``, ``"7♥ and J♥"``, ``"7♥, 9♥ and J♥"``."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def signed(points: int) -> str:
    """Points with their sign as a learner reads them: ``+3``, ``0``, ``\u22121`` (with a real
    minus sign, U+2212, as printed score sheets write it)."""
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"
