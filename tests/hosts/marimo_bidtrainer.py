"""A marimo notebook that shows a BidTrainer (tests/test_browser_marimo.py runs it).

Its second cell shows the bid Python holds and reruns each time it changes (a marimo state set
by an observer of the trainer's traits); every change of the trainer's state is also written to
the file named by TRICKLAB_OUT, so the test reads the Python side as it is.
"""

import marimo

app = marimo.App()


@app.cell
def _():
    import json
    import os
    from pathlib import Path

    import marimo as mo

    from tricklab.widgets import BidTrainer

    trainer = BidTrainer("tricks-and-stones", 4, seed=3, samples=40)
    out = os.environ.get("TRICKLAB_OUT")

    def record(_change=None):
        if out:
            state = {
                "seed": trainer.seed,
                "choice": trainer.choice,
                "verdict": trainer.verdict,
                "message": trainer.message,
                "hosting": trainer.hosted is not None,
            }
            Path(out).write_text(json.dumps(state))

    trainer.observe(record, names=["seed", "choice", "verdict", "message", "scene"])
    record()
    # the cells that read the bid rerun when Python's bid changes (a click on the page)
    held, hold = mo.state(trainer.choice)
    trainer.observe(lambda _change: hold(trainer.choice), names=["choice"])
    widget = mo.ui.anywidget(trainer)
    widget  # noqa: B018 (a cell shows its last expression)
    return held, mo


@app.cell
def _(held, mo):
    mo.md(f"Python holds the bid **{held()}**.")
    return


if __name__ == "__main__":
    app.run()
