"""A marimo notebook that shows a TrickExplainer (tests/test_browser_hosts.py runs it).

Its second cell shows the trick Python holds and reruns each time it changes (a marimo state
set by an observer of the widget's traits); every change of the explainer's state is also
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

    from tricklab.widgets import TrickExplainer

    explainer = TrickExplainer("tricks-and-stones", 4, trump="S", cards="7H 8S")
    out = os.environ.get("TRICKLAB_OUT")

    def record(_change=None):
        if out:
            state = {
                "cards": list(explainer.cards),
                "trump": explainer.trump,
                "message": explainer.message,
                "winner": explainer.scene.get("winner", ""),
            }
            Path(out).write_text(json.dumps(state))

    explainer.observe(record, names=["cards", "trump", "message"])
    record()
    # the cells that read the trick rerun when Python's trick changes (a click on the page, a key)
    held, hold = mo.state((list(explainer.cards), explainer.trump))
    explainer.observe(lambda _change: hold((list(explainer.cards), explainer.trump)), names=["cards", "trump"])
    widget = mo.ui.anywidget(explainer)
    widget  # noqa: B018 (a cell shows its last expression)
    return held, mo


@app.cell
def _(held, mo):
    cards, trump = held()
    mo.md(f"Python holds the trick **{' '.join(cards) or 'none'}**, trump **{trump}**.")
    return


if __name__ == "__main__":
    app.run()
