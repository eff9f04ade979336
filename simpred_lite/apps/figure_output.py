"""Show an app's figure in its ``Output`` with a text summary for screen readers.

JupyterLab renders an ``image/png`` output as an ``<img>`` without alt text (there is no
standard for it yet, jupyter/enhancement-proposals#120).  Every app therefore shows its figure
through :func:`show_figure`: the ``display_data`` carries the PNG with the summary as its
``text/plain`` alternative, followed by a visually hidden HTML sentence (class
``simpred-figure-summary``) that a screen reader reads after the image.
"""

from __future__ import annotations

import html
import re

import ipywidgets as W
from matplotlib.figure import Figure

from ..viz.style import figure_to_png

__all__ = ["figure_summary", "show_figure"]

#: Inline style of the summary: out of sight but read by screen readers (the "sr-only" pattern).
_VISUALLY_HIDDEN = ("position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
                    "clip:rect(0,0,0,0);white-space:nowrap;border:0")


#: TeX commands of the figures' mathtext, as a screen reader should say them.
_TEX_WORDS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "eta": "η",
    "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ",
    "varphi": "φ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ",
    "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "ne": "≠", "neq": "≠", "approx": "≈", "times": "×", "cdot": "·", "ldots": "…", "dots": "…", "cdots": "…",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "infty": "∞", "sum": "Σ", "in": "∈", "pm": "±",
    "log": "log", "ln": "ln", "max": "max", "min": "min", "sqrt": "√",
}
#: Font and text commands: their argument is kept, the command dropped (``\mathcal{P}`` -> ``P``).
_TEX_FONT = re.compile(r"\\(?:mathcal|mathrm|mathbf|mathit|mathsf|mathtt|mathbb|boldsymbol|text|textrm|textbf|"
                       r"textit|operatorname)\s*\{([^{}]*)\}")
_TEX_COMMAND = re.compile(r"\\([A-Za-z]+)")


def _plain_math(tex: str) -> str:
    """One ``$...$`` piece of mathtext as plain text: ``\\mathcal{P}_t`` -> ``P_t``, ``\\Phi`` -> ``Φ``."""
    tex = _TEX_FONT.sub(r"\1", tex)
    tex = _TEX_COMMAND.sub(lambda m: _TEX_WORDS.get(m.group(1), m.group(1)), tex)
    tex = re.sub(r"\\[,;:! ]", " ", tex)  # TeX spacing commands
    return tex.replace("{", "").replace("}", "")


def _clean(text: str) -> str:
    """Title or label text without mathtext markup, on one line (what a screen reader reads)."""
    parts = text.split("$")
    # odd pieces lie between a pair of dollars (matplotlib's mathtext); an unpaired dollar is literal
    if len(parts) % 2 == 0:
        parts = [*parts[:-2], parts[-2] + "$" + parts[-1]]
    plain = "".join(_plain_math(p) if k % 2 else p for k, p in enumerate(parts))
    return " ".join(plain.split())


def figure_summary(fig: Figure, extra: str = "") -> str:
    """A one-paragraph text summary of ``fig``: its title and, per panel, title and axis labels.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to describe.
    extra : str, optional
        A sentence the app adds (for example what the current state is).

    Returns
    -------
    str
        ``"Figure: <title>. Panel 1: <title> (x: <label>, y: <label>). …"``.

    Examples
    --------
    >>> fig = Figure(); ax = fig.subplots(); _ = ax.set(title="mistakes", xlabel="trial", ylabel="count")
    >>> figure_summary(fig)
    'Figure. Panel 1: mistakes (x: trial, y: count).'
    """
    suptitle = getattr(fig, "_suptitle", None)
    title = suptitle.get_text() if suptitle is not None else ""
    parts = [f"Figure: {_clean(title)}." if title.strip() else "Figure."]
    panels = [ax for ax in fig.axes if ax.get_visible()]
    for k, ax in enumerate(panels, 1):
        name = _clean(ax.get_title() or ax.get_title("left") or ax.get_title("right"))
        if not name and getattr(ax, "_colorbar", None) is not None:
            name = "colour bar"
        name = name or "untitled"
        axes = [f"{c}: {_clean(lab)}" for c, lab in (("x", ax.get_xlabel()), ("y", ax.get_ylabel())) if lab.strip()]
        parts.append(f"Panel {k}: {name}" + (f" ({', '.join(axes)})." if axes else "."))
    if extra.strip():
        parts.append(_clean(extra))
    return " ".join(parts)


def show_figure(out: W.Output, fig: Figure, *, dpi: int = 80, tight: bool = True, extra: str = "") -> str:
    """Replace what ``out`` shows by ``fig`` (PNG) and its text summary; return the summary.

    Parameters
    ----------
    out : ipywidgets.Output
        The app's figure area.
    fig : matplotlib.figure.Figure
        The figure.
    dpi : int, default 80
        Resolution of the PNG.
    tight : bool, default True
        Crop the PNG to what is drawn (``False`` keeps the figure's size).
    extra : str, optional
        A sentence added to the summary.

    Returns
    -------
    str
        The summary (also the ``text/plain`` of the image output).

    Examples
    --------
    >>> out = W.Output(); fig = Figure(); _ = fig.subplots().set_title("a graph")
    >>> show_figure(out, fig)
    'Figure. Panel 1: a graph.'
    >>> [sorted(o["data"]) for o in out.outputs]
    [['image/png', 'text/plain'], ['text/html', 'text/plain']]
    """
    import base64

    summary = figure_summary(fig, extra)
    png = base64.b64encode(figure_to_png(fig, dpi=dpi, tight=tight)).decode("ascii")
    hidden = (f'<div class="simpred-figure-summary" style="{_VISUALLY_HIDDEN}">'
              f"{html.escape(summary)}</div>")
    out.outputs = (
        {"output_type": "display_data", "data": {"image/png": png, "text/plain": summary},
         "metadata": {"image/png": {"alt": summary}}},
        {"output_type": "display_data", "data": {"text/html": hidden, "text/plain": summary}, "metadata": {}},
    )
    return summary
