"""A marimo notebook that shows a PlayTable (tests/test_browser_marimo.py runs it).

The learner has made the round's prediction already, so the next decision is a card. Its second
cell shows the learner's last move as Python holds it and reruns each time it changes (a marimo
state set by an observer of the table's traits); every change of the table's synced state is also
written to the file named by TRICKLAB_OUT, so the test reads the Python side as it is.
"""

import marimo

app = marimo.App()


@app.cell
def _():
    import json
    import os
    from pathlib import Path

    import marimo as mo

    from tricklab.widgets import PlayTable

    table = PlayTable("tricks-and-stones", 4, seat=0, seed=11, pace=0, hold=0)
    table.act("predict 2")  # the bots move at once (pace 0): the learner's next decision is a card
    out = os.environ.get("TRICKLAB_OUT")
    traits = ["seat", "turn", "round", "scores", "selection", "last_move", "large", "four_colour", "message"]

    def record(_change=None):
        if out:
            state = {name: getattr(table, name) for name in traits}
            state["actions"] = [str(a) for a in table.match.actions]
            state["hand"] = [str(c) for c in table.match.state.hands[table.seat]]
            Path(out).write_text(json.dumps(state))

    table.observe(record, names=traits)
    record()
    # the cells that read the last move rerun when Python's changes (a click on the page)
    held, hold = mo.state(table.last_move)
    table.observe(lambda _change: hold(table.last_move), names=["last_move"])
    widget = mo.ui.anywidget(table)
    widget  # noqa: B018 (a cell shows its last expression)
    return held, mo


@app.cell
def _(held, mo):
    mo.md(f"Python holds your last move: **{held()}**.")
    return


if __name__ == "__main__":
    app.run()
