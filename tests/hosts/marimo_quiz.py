"""A marimo notebook that shows a Quiz (tests/test_browser_marimo.py runs it).

Its second cell shows the score Python holds and reruns each time it changes (a marimo state
set by an observer of the quiz's traits); every change of the quiz's state is also written to
the file named by TRICKLAB_OUT, with the current question's answer, so the test reads the
Python side as it is and knows which card to click.
"""

import marimo

app = marimo.App()


@app.cell
def _():
    import json
    import os
    from pathlib import Path

    import marimo as mo

    from tricklab.widgets import Quiz

    quiz = Quiz("band-of-tricks", 4, seed=5, level=1, count=3)
    out = os.environ.get("TRICKLAB_OUT")

    def record(_change=None):
        if out:
            state = {
                "question": quiz.question_number,
                "score": list(quiz.score),
                "picked": list(quiz.picked),
                "correct": quiz.correct,
                "message": quiz.message,
                "answer": str(quiz.question.answer[0]),
            }
            Path(out).write_text(json.dumps(state))

    quiz.observe(record, names=["question_number", "score", "picked", "correct", "message"])
    record()
    # the cells that read the score rerun when Python's score changes (a click on the page)
    held, hold = mo.state(tuple(quiz.score))
    quiz.observe(lambda _change: hold(tuple(quiz.score)), names=["score"])
    widget = mo.ui.anywidget(quiz)
    widget  # noqa: B018 (a cell shows its last expression)
    return held, mo


@app.cell
def _(held, mo):
    right, answered = held()
    mo.md(f"Python holds the score **{right} of {answered}**.")
    return


if __name__ == "__main__":
    app.run()
