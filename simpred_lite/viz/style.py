"""What every figure shares: the class and learner colours, a fresh ``Axes``, PNG bytes for widgets.

Every drawing function of :mod:`simpred_lite.viz` draws on a given matplotlib ``Axes`` (or
makes one with :func:`new_axes`), sets a title and axis labels, and returns the ``Axes``, so
notebooks can compose panels freely.  Widgets render through :func:`figure_to_png` from a
``matplotlib.figure.Figure`` that never touches pyplot, so no figure leaks into a notebook.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

__all__ = ["CLASS_COLORS", "LEARNER_COLORS", "learner_color", "learner_colors", "LEGEND_FONTSIZE",
           "NOTEBOOK_OUTPUT_WIDTH_PX", "MIN_PICKED_NUMBER_PT", "new_axes", "figure_to_png", "displayed_font_pt"]

#: One colour per class (tab10), reused by every figure so a class keeps its colour.
CLASS_COLORS = plt.get_cmap("tab10").colors

#: One colour per learner of the registry (and per setting of the batch anchor), defined once, so
#: that a learner keeps its colour in every evaluation figure, sweep figure and widget whatever
#: the other learners drawn beside it.  Matrix Winnow is red, the baselines blue and grey.
LEARNER_COLORS = {
    "AlwaysSimilar": "tab:gray",
    "UnionFindLearner": "tab:blue",
    "Matrix Perceptron": "tab:orange",
    "Matrix Winnow": "tab:red",
    "BST Perceptron": "tab:green",
    "TreeWinnow": "tab:brown",
    "r-norm Perceptron": "tab:pink",
    "Similarity from class": "tab:olive",
    "LabelSpreading, classes": "tab:purple",
    "LabelSpreading, similarity": "tab:cyan",
}

#: Colours of learners outside :data:`LEARNER_COLORS` (tab20's light shades, none of the above).
_OTHER_LEARNER_COLORS = plt.get_cmap("tab20").colors[1::2]


def _learner_key(name: str) -> str:
    """The key of ``name`` in :data:`LEARNER_COLORS`: the batch anchors' names end in "(batch, refit R)"."""
    if name.startswith("LabelSpreading, ") and " (" in name:
        return name.split(" (", 1)[0]
    return name


def learner_color(name: str):
    """The colour of the learner called ``name`` (its registry name), the same in every figure.

    Learners outside :data:`LEARNER_COLORS` get one of tab20's light shades, chosen from the
    name alone (a checksum), so they too keep their colour from figure to figure.

    Parameters
    ----------
    name : str
        The learner's name, as in :func:`simpred_lite.learners.available` (the batch anchor's
        name "LabelSpreading, classes (batch, refit 100)" takes the colour of its setting).

    Returns
    -------
    str or tuple of float
        A matplotlib colour.

    Examples
    --------
    >>> learner_color("Matrix Winnow")
    'tab:red'
    >>> learner_color("LabelSpreading, similarity (batch, refit 20)")
    'tab:cyan'
    >>> learner_color("my learner") == learner_color("my learner")
    True
    """
    key = _learner_key(name)
    if key in LEARNER_COLORS:
        return LEARNER_COLORS[key]
    return _OTHER_LEARNER_COLORS[zlib.crc32(name.encode()) % len(_OTHER_LEARNER_COLORS)]


def learner_colors(names: Iterable[str]) -> dict:
    """The colour of each learner of ``names`` (:func:`learner_color`), distinct within one figure.

    Registry learners always get their colour of :data:`LEARNER_COLORS`.  Two learners outside
    it whose checksums pick the same shade are told apart: the later one takes the next free shade.

    Parameters
    ----------
    names : iterable of str
        The learners drawn in one figure.

    Returns
    -------
    dict
        name -> matplotlib colour.

    Examples
    --------
    >>> learner_colors(["UnionFindLearner", "Matrix Winnow"])
    {'UnionFindLearner': 'tab:blue', 'Matrix Winnow': 'tab:red'}
    """
    names = list(names)
    colours = {name: LEARNER_COLORS[_learner_key(name)] for name in names if _learner_key(name) in LEARNER_COLORS}
    used = set(colours.values())
    for name in names:
        if name in colours:
            continue
        start = _OTHER_LEARNER_COLORS.index(learner_color(name))
        for step in range(len(_OTHER_LEARNER_COLORS)):
            colour = _OTHER_LEARNER_COLORS[(start + step) % len(_OTHER_LEARNER_COLORS)]
            if colour not in used:
                break
        colours[name] = colour
        used.add(colour)
    return {name: colours[name] for name in names}


#: The width (CSS pixels) at which JupyterLab shows a widget's image in a 1280-pixel-wide window
#: with its file browser open: about 776 px (a 1008-px image was measured at 77 %; in
#: Chromium with the default 250-px file browser it is 844 px).  A wider image is scaled down
#: to it, and so is its text.
NOTEBOOK_OUTPUT_WIDTH_PX = 776

#: The smallest size (points, as shown on the page) of a number that a student must read to
#: pick a vertex.
MIN_PICKED_NUMBER_PT = 9.0

#: The smallest legend text of the suite's figures (points).
LEGEND_FONTSIZE = 9


def new_axes(ax=None, figsize: tuple[float, float] = (6.4, 4)):
    """``ax`` itself, or a new pyplot ``Axes`` of size ``figsize`` when ``ax`` is ``None``.

    Parameters
    ----------
    ax : matplotlib.axes.Axes, optional
    figsize : (float, float)

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> ax = Figure().add_subplot()
    >>> new_axes(ax) is ax
    True
    """
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def figure_to_png(fig: Figure, dpi: int = 90, tight: bool = True) -> bytes:
    """Render a ``matplotlib.figure.Figure`` to PNG bytes (for widget outputs).

    With ``tight=False`` the image keeps the figure's size (``figsize * dpi`` pixels)
    whatever it shows, so an app's panel does not change size from one step to the next.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    dpi : int, default 90
        Resolution.
    tight : bool, default True
        Crop the image to what is drawn (``bbox_inches="tight"``).

    Examples
    --------
    >>> fig = Figure(figsize=(2, 1)); _ = fig.add_subplot().plot([0, 1])
    >>> figure_to_png(fig)[:4]
    b'\\x89PNG'
    >>> int.from_bytes(figure_to_png(fig, dpi=50, tight=False)[16:20], "big")   # width in pixels
    100
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight" if tight else None)
    return buf.getvalue()


def displayed_font_pt(font_pt: float, dpi: float, image_width_px: float,
                      display_width_px: float = NOTEBOOK_OUTPUT_WIDTH_PX) -> float:
    """The size (points on the page) at which text of ``font_pt`` points in a PNG is shown.

    A figure rendered at ``dpi`` draws a point as ``dpi / 72`` image pixels; the browser shows
    an image pixel as one CSS pixel (3/4 of a point) unless the image is wider than its
    output area, which scales it down to ``display_width_px``.

    Parameters
    ----------
    font_pt : float
        The font size given to matplotlib.
    dpi : float
        The resolution the figure is rendered at.
    image_width_px : float
        The width of the PNG.
    display_width_px : float, default :data:`NOTEBOOK_OUTPUT_WIDTH_PX`
        The widest the page shows the image.

    Returns
    -------
    float

    Examples
    --------
    >>> round(displayed_font_pt(9.5, dpi=80, image_width_px=1008), 1)   # scaled to 77 %: too small to pick by
    6.1
    >>> displayed_font_pt(10, dpi=96, image_width_px=768)               # 96 dpi, shown at full size
    10.0
    """
    scale = min(1.0, display_width_px / image_width_px)
    return font_pt * dpi / 96 * scale
