"""What every figure shares: the class colours, a fresh ``Axes``, PNG bytes for widgets.

Every drawing function of :mod:`simpred_lite.viz` draws on a given matplotlib ``Axes`` (or
makes one with :func:`new_axes`), sets a title and axis labels, and returns the ``Axes``, so
notebooks can compose panels freely.  Widgets render through :func:`figure_to_png` from a
``matplotlib.figure.Figure`` that never touches pyplot, so no figure leaks into a notebook.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

__all__ = ["CLASS_COLORS", "LEGEND_FONTSIZE", "NOTEBOOK_OUTPUT_WIDTH_PX", "MIN_PICKED_NUMBER_PT", "new_axes",
           "figure_to_png", "displayed_font_pt"]

#: One colour per class (tab10), reused by every figure so a class keeps its colour.
CLASS_COLORS = plt.get_cmap("tab10").colors

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
