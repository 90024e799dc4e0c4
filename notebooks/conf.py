"""The documentation site: the tutorials beside this file, run and shown with their pictures, and
the rules API from its docstrings (Sphinx with MyST-NB).

Build it from the repository's top folder, with the ``docs`` extra installed::

    python -m sphinx -b html notebooks build/docs

Then open ``build/docs/index.html``. Nothing is fetched from the network, neither while building
nor while reading the pages. The tutorials run in a Python kernel during the build (their outputs
are cached in ``build/.jupyter_cache``, so a rebuild runs only the notebooks whose code changed).
A widget cannot run in a static page: where a tutorial shows one, the page says so and points to
JupyterLab or the apps.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.inspect import signature, stringify_signature

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Document, and run the tutorials against, the tricklab of this checkout: the kernels that run
# the tutorials are other processes, so they are told through PYTHONPATH.
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

import tricklab  # noqa: E402  (from this checkout, see above)

project = "tricklab"
author = "the tricklab authors"
copyright = "the tricklab authors, MIT licence"
release = version = tricklab.__version__

extensions = ["myst_nb", "sphinx.ext.autodoc"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
language = "en"

# --- the tutorials -----------------------------------------------------------------------------------
# Each is run top to bottom during the build, in a kernel, and shown with its outputs; a tutorial
# that raises fails the build. The cache lives beside the output folder.
nb_execution_mode = "cache"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# A widget needs the widgets' JavaScript from a CDN to draw itself in a static page: nothing is
# loaded from outside, and each widget is shown as a note instead (see WidgetNote below).
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# --- the API, from the docstrings -------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
add_module_names = False

# --- the pages ------------------------------------------------------------------------------------
# Furo ships its fonts-free CSS and scripts with the package, reads well on a phone (the contents
# fold into a menu) and on a projector, and follows the reader's light or dark setting.
html_theme = "furo"
html_title = f"tricklab {version}"
html_static_path = ["_static"]
html_css_files = ["tricklab-docs.css"]
html_copy_source = False
html_show_sourcelink = False
html_theme_options: dict[str, Any] = {"top_of_page_buttons": []}

#: what a page shows where the notebook has a widget
WIDGET_NOTE = (
    "Here the notebook shows something to click and try. It needs Python running behind it: "
    "open this notebook in JupyterLab, or use the tricklab apps, to try it."
)


class WidgetNote(SphinxPostTransform):
    """Each output that is a widget becomes a short note: a static page cannot run it, and the
    widget's own text (its Python repr) would mean nothing to a reader.

    It runs before MyST-NB picks one form of each output (its priority is 4)."""

    default_priority = 3

    def run(self, **kwargs: Any) -> None:
        for bundle in list(self.document.findall(nodes.container)):
            if bundle.get("nb_element") != "mime_bundle":
                continue
            kinds = [child.get("mime_type") for child in bundle.children]
            if "application/vnd.jupyter.widget-view+json" not in kinds:
                continue
            note = nodes.container(classes=["tricklab-widget-note"])
            note += nodes.paragraph(text=WIDGET_NOTE)
            bundle.replace_self(note)


class RulebookLinks(SphinxPostTransform):
    """A rule id in an explanation links to its clause in the rulebooks app
    (``rulebooks.ipynb#ts.rank.trump``); here it links to the same clause on the rulebooks page."""

    default_priority = 3

    def run(self, **kwargs: Any) -> None:
        page = self.app.builder.get_relative_uri(self.env.docname, "rulebooks")
        for raw in list(self.document.findall(nodes.raw)):
            text = raw.astext()
            if 'href="rulebooks.ipynb#' in text:
                linked = text.replace('href="rulebooks.ipynb#', f'href="{page}#')
                raw.replace_self(nodes.raw(linked, linked, format=raw.get("format", "html")))


def widget_signature(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, shown: str | None, returns: str | None
) -> tuple[str, str | None] | None:
    """A widget is made as its ``__init__`` says (``TrickExplainer(game, players, ...)``), not as
    the ``(*args, **kwargs)`` of the widgets' base class that autodoc finds first."""
    if what != "class" or not shown or "*args" not in shown or "__init__" not in vars(obj):
        return None
    made = signature(obj.__init__, bound_method=True)
    return stringify_signature(made, show_return_annotation=False, unqualified_typehints=True), returns


def drop_widget_state(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """Leave out the widgets' saved state (no script on the page reads it, and it is large)."""
    for script in list(context.get("script_files", [])):
        if getattr(script, "attributes", {}).get("type") == "application/vnd.jupyter.widget-state+json":
            context["script_files"].remove(script)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_post_transform(WidgetNote)
    app.add_post_transform(RulebookLinks)
    app.connect("html-page-context", drop_widget_state, priority=900)
    app.connect("autodoc-process-signature", widget_signature)
    return {"parallel_read_safe": True}
