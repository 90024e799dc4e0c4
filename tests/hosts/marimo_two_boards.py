"""A marimo notebook whose shown board does not carry the boards' module (tests/test_browser_marimo.py).

Its cell makes a board it never shows first, so that board carries the module and stylesheet
(tricklab.widgets.frontend); the explainer draws with that module where the page has it, and
asks its kernel for it where marimo sent the page only the widgets shown.
The file named by TRICKLAB_OUT says which module each holds.
"""

import marimo

app = marimo.App()


@app.cell
def _():
    import json
    import os
    from pathlib import Path

    import marimo as mo

    from tricklab.widgets import Board, TrickExplainer
    from tricklab.widgets.frontend import carrier_module

    unseen = Board(scene={"html": "<p>This board is never shown.</p>"})
    explainer = TrickExplainer("tricks-and-stones", 4, trump="S", cards="7H 8S")
    out = os.environ.get("TRICKLAB_OUT")
    if out:
        state = {"unseen_carries": unseen._esm == carrier_module(), "shown_carries": explainer._esm == carrier_module()}
        Path(out).write_text(json.dumps(state))
    mo.ui.anywidget(explainer)
    return


if __name__ == "__main__":
    app.run()
