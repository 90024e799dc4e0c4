"""A marimo notebook that shows a TrickStepper (tests/test_browser_marimo.py runs it).

Its second cell shows the step Python holds and reruns each time it changes (a marimo state set
by an observer of the stepper's traits); every change of the stepper's state is also written to
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

    from tricklab.widgets import TrickStepper

    stepper = TrickStepper(game="jewel-vault", players=4, seed=7, seat=1)
    out = os.environ.get("TRICKLAB_OUT")

    def record(_change=None):
        if out:
            state = {
                "step": stepper.step,
                "view": stepper.view,
                "playing": stepper.playing,
                "large": stepper.large,
                "folded": stepper.folded,
                "message": stepper.message,
                "next_part": stepper.outline.next_part(stepper.step),
            }
            Path(out).write_text(json.dumps(state))

    stepper.observe(record, names=["step", "view", "playing", "large", "four_colour", "message"])
    record()
    # the cells that read the step rerun when Python's step changes (a click on the page)
    held, hold = mo.state(stepper.step)
    stepper.observe(lambda change: hold(change["new"]), names=["step"])
    widget = mo.ui.anywidget(stepper)
    widget  # noqa: B018 (a cell shows its last expression)
    return held, mo


@app.cell
def _(held, mo):
    mo.md(f"Python shows **step {held()}**.")
    return


if __name__ == "__main__":
    app.run()
