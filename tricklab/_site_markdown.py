"""The app notebooks' Markdown cells as HTML, for the static site: run by the site's build tools' interpreter.

``python _site_markdown.py < cells.json`` reads a JSON list of Markdown texts and writes the JSON
list of their HTML, as a notebook shows a Markdown cell (CommonMark with tables; HTML in it is
kept, as Jupyter keeps it). This file imports nothing from tricklab: the tools' environment
(``markdown-it-py``) does not have it.
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    from markdown_it import MarkdownIt

    render = MarkdownIt("commonmark", {"html": True}).enable("table")
    texts = json.load(sys.stdin)
    json.dump([render.render(text) for text in texts], sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
