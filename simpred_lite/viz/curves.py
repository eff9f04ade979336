"""Mistake curves: THE plotter of cumulative mistakes, with each learner's bound.

:func:`plot_mistake_curves` meets the suite's figure standard: a title, labelled axes, integer
ticks, a legend of at least 9 pt (outside the axes when it has many entries), each learner
its own colour and marker, and each learner's bound dashed in the learner's colour.  Every
mistake-curve figure of the package (evaluations, the playground, the adversary apps, the
similarity game) is drawn by it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import ScaledTranslation

from .style import CLASS_COLORS, LEGEND_FONTSIZE, learner_colors, new_axes

__all__ = ["MARKERS", "BOUND_DRAW_FACTOR", "BOUND_ZORDER", "BOUND_TEXT_GAP", "SYMLOG_SPREAD", "bound_cap",
           "wants_symlog", "equal_stretches", "plot_mistake_curves", "plot_evaluation"]

#: One marker per learner (with its colour), so curves stay apart in grey print too.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")

#: Bounds above this multiple of the chart's own height (see :func:`bound_cap`) are named in the
#: legend, "off the chart", instead of drawn: they would flatten every curve.
BOUND_DRAW_FACTOR = 4.0

#: A mistake chart switches to a symmetric-log axis when its top curve ends above this multiple
#: of the median learner's mistakes (see :func:`wants_symlog`).
SYMLOG_SPREAD = 4.0


#: Bound lines are drawn above every curve (curves at 2, a curve on an earlier one at 3): a curve
#: that reaches its bound and runs along it shows in the gaps of the dashes, above and below
#: them (it is wider), and the dashed bound stays visible on it.
BOUND_ZORDER = 4


def bound_cap(*heights: float, factor: float = BOUND_DRAW_FACTOR) -> float:
    """The largest bound a mistake chart draws: ``factor`` times its largest height.

    ``heights`` are what the chart must show anyway: the most mistakes of any curve (the
    playground and :func:`plot_evaluation` pass only that, so that after a long game a bound
    far above slowly rising curves does not squeeze them).  A larger bound goes to the legend,
    "off the chart" (:func:`plot_mistake_curves` with ``cap``), so the curves keep at least
    ``1 / factor`` of the height of the axes.

    Parameters
    ----------
    *heights : float
        The heights the chart shows anyway (the most mistakes); none gives the cap of a chart of
        height 1.
    factor : float, default :data:`BOUND_DRAW_FACTOR`
        How far above the largest height a bound may lie and still be drawn (a low panel, such
        as the playground's, uses a smaller one).

    Returns
    -------
    float
        The cap: bounds above it are named "off the chart" instead of drawn.

    Examples
    --------
    >>> bound_cap(30, 30), bound_cap(2000, 1029), bound_cap()
    (120.0, 8000.0, 4.0)
    >>> bound_cap(82, factor=1.5)
    123.0
    """
    return factor * max([1.0, *map(float, heights)])


def wants_symlog(mistakes) -> bool:
    """Whether a mistake chart needs a symmetric-log axis: its top curve squeezes the others.

    True when the most mistakes exceed :data:`SYMLOG_SPREAD` times the median of the learners'
    mistakes (at least 1): on a linear axis the median learner's curve would then fill less
    than a quarter of the height (AlwaysSimilar against learners that stop erring).

    Parameters
    ----------
    mistakes : iterable of float
        Each learner's mistakes so far (the final height of its curve).

    Returns
    -------
    bool

    Examples
    --------
    >>> wants_symlog([1093, 16, 4, 13, 4, 66, 6, 22]), wants_symlog([82, 30, 11, 65, 22, 54, 62, 70])
    (True, False)
    >>> wants_symlog([])
    False
    """
    values = [float(m) for m in mistakes]
    if not values:
        return False
    return max(values) > SYMLOG_SPREAD * max(1.0, float(np.median(values)))


def equal_stretches(curves: Mapping[str, object], least: int = 10) -> list[tuple[int, int, list[str]]]:
    """Where curves are equal: the stretches of ``least`` or more consecutive trials, and who is equal on them.

    A figure draws equal curves on top of each other, so it should say where.  Each longest
    stretch on which two curves are equal is reported; pairs equal on exactly the same stretch
    are reported together, once (``a = b`` and ``b = c`` on trials 1..3 give ``a, b, c``).

    Parameters
    ----------
    curves : mapping name -> array_like
        Cumulative mistakes (``M_1, M_2, ...``) by learner; curves of different lengths (a retired
        learner) are compared on their common trials.
    least : int, default 10
        The shortest stretch reported, in trials.

    Returns
    -------
    list of (first, last, names)
        Trials ``first..last`` (numbered from 1) and the names, in the order of ``curves``, of
        curves equal on all of them; longest stretch first.

    Examples
    --------
    ``a`` and ``c`` are equal on trials 1-4, all three on trials 1-3:

    >>> equal_stretches({"a": [1, 2, 3, 4], "b": [1, 2, 3, 5], "c": [1, 2, 3, 4]}, least=2)
    [(1, 4, ['a', 'c']), (1, 3, ['a', 'b', 'c'])]
    """
    found: dict[tuple[int, int], list[set[str]]] = {}
    order = list(curves)
    arrays = {name: np.asarray(curves[name]) for name in order}
    for a_pos, a in enumerate(order):
        for b in order[a_pos + 1:]:
            common = min(arrays[a].size, arrays[b].size)
            equal = np.concatenate([[False], arrays[a][:common] == arrays[b][:common], [False]])
            edges = np.flatnonzero(np.diff(equal.astype(int)))  # starts and ends of the runs of equal trials
            for start, end in zip(edges[::2], edges[1::2]):  # trials start+1 .. end
                if end - start >= least:
                    groups = found.setdefault((int(start) + 1, int(end)), [])
                    hit = [g for g in groups if a in g or b in g]  # equal on the same trials: one group
                    groups[:] = [g for g in groups if g not in hit] + [set.union({a, b}, *hit)]
    return [(first, last, [name for name in order if name in group])
            for (first, last), groups in sorted(found.items(), key=lambda kv: kv[0][0] - kv[0][1])
            for group in groups]


#: Colours and line styles of bounds that belong to no learner (a floor, ``log2 K!``): greys, each
#: with its own dash pattern so that two of them are told apart by more than their shade.
_FREE_BOUND_COLOURS = ("0.35", "0.55", "0.7")
_FREE_BOUND_STYLES = ("--", ":", "-.")


#: Two bound ends (``plot_mistake_curves(bound_in_entry=True)``) are close when the one's marker and
#: value could touch the other's: a marker reaches :data:`_BOUND_MARK_REACH` below and above its line,
#: its value :data:`BOUND_TEXT_GAP` above it (or below, near the top of the axes), in axes fraction
#: (on a linear or symlog axis alike; 17 pt of a 140-pt panel, the playground's lowest).  Close ends
#: stand side by side, each a column further left.
BOUND_TEXT_GAP = 0.12
#: Half a bound end's marker (7.5 pt) and a little air, in axes fraction of the playground's panel.
_BOUND_MARK_REACH = 0.025
#: The trial axis of a chart with bound ends runs this fraction further than the curves, so that the
#: ends' markers and values stand clear of the curves' last points (a curve often ends on its bound).
BOUND_END_ROOM = 0.12
#: Size of a bound end's marker and value, in points; a character of the value is at most this wide.
_BOUND_MARK_SIZE, _BOUND_TEXT_SIZE, _BOUND_CHAR_WIDTH = 7.5, 8, 5.6


def _bound_end_places(heights, texts) -> list[tuple[float, bool]]:
    """Where each bound end goes: ``(x offset in points from the right edge, value above?)``.

    ``heights`` are the bounds in axes fraction (ascending), ``texts`` their values as written.
    A value goes above its marker unless it would leave the axes at the top; an end whose
    marker and value would touch those of an end already placed in the same column (within
    :data:`BOUND_TEXT_GAP`) moves a column left.  A column is as wide as the widest value and
    the marker, with air, so that neither markers nor values of two columns ever meet, and a
    value stays right above (or below) its own marker.
    """
    column = max([_BOUND_MARK_SIZE] + [_BOUND_CHAR_WIDTH * len(t) for t in texts]) + 5.0
    placed: list[tuple[int, float, float]] = []  # (column, lowest, highest) in axes fraction
    places = []
    for y in heights:
        above = y + _BOUND_MARK_REACH + BOUND_TEXT_GAP <= 1.0
        low = y - _BOUND_MARK_REACH - (0.0 if above else BOUND_TEXT_GAP)
        high = y + _BOUND_MARK_REACH + (BOUND_TEXT_GAP if above else 0.0)
        k = 0
        while any(c == k and low < h and l < high for c, l, h in placed):
            k += 1
        placed.append((k, low, high))
        places.append((-column * k, above))
    return places


def _mark_bound_ends(ax, ends) -> None:
    """Mark the right end of each drawn bound with its learner's marker and write its value next to it.

    ``ends`` lists ``(bound, colour, marker)``; the axes' limits and scale must be final.  The
    places are those of :func:`_bound_end_places`: an end close to another stands a column left.
    """
    x_right = ax.get_xlim()[1]
    to_axes = ax.transScale + ax.transLimits  # data -> axes fraction, on a linear or symlog axis
    ends = sorted(ends, key=lambda e: e[0])
    texts = [_fmt_bound(b) for b, _, _ in ends]
    heights = [float(to_axes.transform((x_right, b))[1]) for b, _, _ in ends]
    half = _BOUND_MARK_SIZE / 2
    for (b, color, marker), text, (dx, above) in zip(ends, texts, _bound_end_places(heights, texts)):
        # the marker dx points left of the right edge, on its own line (off the clip: whole at the edge)
        shift = ScaledTranslation(dx / 72, 0, ax.figure.dpi_scale_trans)
        ax.plot([x_right], [b], marker=marker, ms=_BOUND_MARK_SIZE, color=color, mec="white", mew=0.5, ls="none",
                clip_on=False, zorder=BOUND_ZORDER + 1, label="_nolegend_", transform=ax.transData + shift)
        # the value right above (or below) its marker, ending at its centre (inside the axes at the edge)
        ax.annotate(text, (x_right, b), xytext=(dx, half + 1.0 if above else -half - 1.0),
                    textcoords="offset points", ha="right", va="bottom" if above else "top",
                    fontsize=_BOUND_TEXT_SIZE, color=color, zorder=BOUND_ZORDER + 1, annotation_clip=False,
                    bbox={"fc": "white", "ec": "none", "alpha": 0.7, "pad": 0.5})


def _fmt_bound(b: float) -> str:
    # whole numbers from 10 to 9999 (a bound's constants rarely carry more digits), else 3 significant digits
    return f"{b:.0f}" if 10 <= b < 1e4 else f"{b:.3g}"


#: A curve equal to an earlier one on at least this fraction of the trials is drawn thinner on top of it.
COINCIDE_FRACTION = 0.25


def _lies_on(curve, earlier) -> bool:
    """Whether ``curve`` equals one of the ``earlier`` curves on at least :data:`COINCIDE_FRACTION` of its trials."""
    for other in earlier:
        common = min(curve.size, other.size)
        if common and np.count_nonzero(curve[:common] == other[:common]) >= COINCIDE_FRACTION * curve.size:
            return True
    return False


def plot_mistake_curves(
    results: Mapping[str, object],
    ax=None,
    bounds: Mapping[str, float] | None = None,
    title: str = "Cumulative mistakes",
    *,
    cap: float | None = None,
    retired=(),
    legend: str | None = "auto",
    log: bool = False,
    xlabel: str = "trial t",
    T: int | None = None,
    labels: Mapping[str, str] | None = None,
    colors: Mapping[str, object] | None = None,
    bound_in_entry: bool = False,
):
    """Cumulative mistakes of several learners, each bound dashed in its learner's colour.

    Curves are steps: ``M_0 = 0``, and a mistake on trial ``t`` rises at ``t``.  Each learner
    has its own colour and marker, the markers of different learners at staggered trials; a
    curve that lies on an earlier one for at least :data:`COINCIDE_FRACTION` of the trials is
    drawn half as wide on top of it, so that both stay visible; its bound (a key of
    ``bounds`` equal to its name) is a dashed horizontal line in the same colour, drawn above
    every curve (:data:`BOUND_ZORDER`), so that a curve running along it does not hide it.  Bounds named
    after no learner (a lower bound, ``log2 K!``...) are grey lines labelled with their value,
    dashed, dotted, then dash-dotted, so that two of them differ by more than their shade.

    Parameters
    ----------
    results : mapping name -> RunResult or array_like
        A run (its ``cumulative`` curve is used) or the cumulative mistakes themselves.
    ax : matplotlib.axes.Axes, optional
    bounds : mapping name -> float, optional
        Mistake bounds, by learner name (or any other name for a free-standing bound).
    title : str
    cap : float, optional
        Bounds above ``cap`` are not drawn but named in the legend, "off the chart".
    retired : collection of str
        Learners that gave up: their curve ends with a cross and their entry says so.
    legend : {"auto", "inside", "outside", "below", None}
        ``"auto"``: inside the axes up to four entries, else outside on the right; ``"below"``:
        under the axes, one column (two when the entries are short), so the data area keeps the
        figure's width; ``None``: no legend (e.g. one ``fig.legend`` for several panels).
    log : bool, default False
        A symmetric-log mistake axis.
    xlabel : str, default "trial t"
    T : int, optional
        Width of the trial axis (default: the longest curve).
    labels : mapping name -> str, optional
        Legend text of a learner's curve (default its name); its bound is still labelled
        ``bound of <name>``.
    colors : mapping name -> colour, optional
        The colour of each learner's curve and bound (e.g. :func:`~simpred_lite.viz.style.learner_colors`,
        the same in every figure); default: tab10 in the order of ``results``.
    bound_in_entry : bool, default False
        Name a drawn learner's bound in the learner's own entry (``"a (bound 3, dashed)"``) and
        give its dashed line no entry, so the legend has one entry per learner (a low panel with
        many learners).  Default: the bound has its own entry, ``"bound of a: 3"``.  Bounds
        named after no learner keep their own entry either way.  In this mode each drawn bound
        also says whose it is where it is drawn, so that a line crossing another learner's curve
        does not read as that learner crossing its bound: its right end carries its learner's
        marker (colour and marker of the curve, off the clip so it shows whole at the edge), and
        its value is written just above it (below it near the top of the axes), in the learner's
        colour.  Bound ends close together (their markers and values within :data:`BOUND_TEXT_GAP`
        of the axes' height, on a linear or symlog axis) stand side by side: each next one, in
        increasing order of the bound, a column further left on its own line, so that no marker or
        value covers another and each value stays with its own marker.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    A learner with two mistakes, its bound and a free-standing one:

    >>> from simpred_lite.game import RunResult
    >>> r = RunResult.from_predictions([1, 0, 1], [0, 0, 0])
    >>> ax = plot_mistake_curves({"a": r}, new_axes(), {"a": 3.0, "floor": 1.0})
    >>> [(line.get_label(), line.get_linestyle()) for line in ax.get_lines()]
    [('a', '-'), ('bound of a: 3', '--'), ('floor: 1', '--')]
    >>> ax.get_legend().get_texts()[0].get_fontsize() >= 9
    True
    >>> ax = plot_mistake_curves({"a": r}, new_axes(), {"a": 5e6}, cap=100)
    >>> [line.get_label() for line in ax.get_lines()]
    ['a (bound 5e+06, off the chart)']
    >>> ax = plot_mistake_curves({"a": r}, new_axes(), {"a": 3.0}, bound_in_entry=True)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a (bound 3, dashed)']
    >>> [t.get_text() for t in ax.texts]  # the bound's value at the right end of its line
    ['3']
    """
    ax = new_axes(ax, figsize=(7.5, 4.2))
    bounds = dict(bounds or {})
    width, top = 0, 1.0
    drawn_curves: list = []
    ends: list[tuple[float, object, str]] = []  # bound_in_entry: (bound, colour, marker) of each drawn bound
    for k, (name, res) in enumerate(results.items()):
        curve = np.asarray(getattr(res, "cumulative", res))
        hidden = _lies_on(curve, drawn_curves)
        drawn_curves.append(curve)
        width = max(width, curve.size)
        top = max(top, float(curve.max()) if curve.size else 0.0)
        color, marker = (colors or {}).get(name, CLASS_COLORS[k % len(CLASS_COLORS)]), MARKERS[k % len(MARKERS)]
        b = bounds.pop(name, None)
        drawn = b is not None and (cap is None or b <= cap)
        notes = ["retired"] if name in retired else []
        if b is not None and not drawn:
            notes.append(f"bound {_fmt_bound(b)}, off the chart")
        elif b is not None and bound_in_entry:
            notes.append(f"bound {_fmt_bound(b)}, dashed")
        shown = (labels or {}).get(name, name)
        label = f"{shown} ({'; '.join(notes)})" if notes else shown
        steps = np.arange(curve.size + 1)
        every = max(1, (curve.size + 1) // 8)  # 8 markers per curve, staggered between learners
        # a curve on top of an earlier one: thinner and above it, so the earlier one shows on both sides;
        # same line style and markers, so that a legend shared by several panels still names it
        style = {"lw": 0.9, "zorder": 3} if hidden else {"lw": 1.8}
        if name in retired and not hidden:
            style["zorder"] = 1.9  # a short retired curve goes under the curves that go on (its cross stays on top)
        ax.step(steps, np.concatenate([[0], curve]), where="post", color=color, label=label,
                marker=marker, markevery=((k * every) // max(1, len(results)) % every, every), ms=5, **style)
        if name in retired and curve.size:
            ax.plot([curve.size], [curve[-1]], marker="x", ms=9, mew=2, color=color, ls="none")
        if drawn:
            ax.axhline(b, color=color, ls="--", lw=1.4, zorder=BOUND_ZORDER,
                       label="_nolegend_" if bound_in_entry else f"bound of {name}: {_fmt_bound(b)}")
            top = max(top, float(b))
            if bound_in_entry:
                ends.append((float(b), color, marker))
    for k, (name, b) in enumerate(bounds.items()):  # bounds of no plotted learner
        if cap is None or b <= cap:
            ax.axhline(b, color=_FREE_BOUND_COLOURS[k % len(_FREE_BOUND_COLOURS)],
                       ls=_FREE_BOUND_STYLES[k % len(_FREE_BOUND_STYLES)], lw=1.6,
                       label=f"{name}: {_fmt_bound(b)}", zorder=BOUND_ZORDER)
            top = max(top, float(b))
    right = max(10, width + 1) if T is None else max(T, 1)
    if ends:  # room past the curves' ends for the bound ends' markers and values (curves end near bounds)
        right = right + max(1, math.ceil(BOUND_END_ROOM * right))
    ax.set_xlim(0, right)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if log:  # the symlog axis keeps its own (decade) ticks
        ax.set_yscale("symlog", linthresh=1)
        ax.set_ylim(0, top * 1.6)
    else:
        ax.set_ylim(0, top * 1.08 + 0.5)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if ends:
        _mark_bound_ends(ax, ends)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("cumulative mistakes")
    ax.grid(alpha=0.3)
    entries = len(ax.get_legend_handles_labels()[1])
    if entries and legend is not None:
        if legend == "inside" or (legend == "auto" and entries <= 4):
            ax.legend(loc="upper left", fontsize=LEGEND_FONTSIZE)
        elif legend == "below":
            texts = ax.get_legend_handles_labels()[1]
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=LEGEND_FONTSIZE, frameon=False,
                      ncol=2 if max(len(t) for t in texts) <= 48 else 1, borderaxespad=0.0)
        else:
            ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=LEGEND_FONTSIZE,
                      borderaxespad=0.0, frameon=False)
    return ax


def plot_evaluation(ev, ax=None, *, log: bool | None = None):
    """Mistake curves of an :class:`~simpred_lite.game.Evaluation`, readable with many learners.

    One legend entry per learner, below the axes (so the data area keeps the figure's width):
    its name, what it was given besides the trials (the graph; an oracle such as the true
    ``|Φ|``), its mistakes and its bound.  Each learner has its colour of
    :func:`~simpred_lite.viz.style.learner_color`, the same in every figure.  Each
    bound is a dashed line in its learner's colour, explained once in the title; bounds more
    than :data:`BOUND_DRAW_FACTOR` times the most mistakes are given in the entry only.  A
    retired learner's curve ends with a cross and a note, its entry says how many trials it
    played, and its bound (for the whole sequence) is not drawn.

    Parameters
    ----------
    ev : Evaluation
    ax : matplotlib.axes.Axes, optional
    log : bool, optional
        A symmetric-log mistake axis.  Default: when the most mistakes exceed 4 times the
        median learner's (:func:`wants_symlog`: AlwaysSimilar's curve would squeeze the others
        to the bottom).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from simpred_lite.game import evaluate
    >>> from simpred_lite.graphs import barbell_graph
    >>> ax = evaluate(["AlwaysSimilar", "UnionFindLearner"], *barbell_graph(5), T=50).plot()
    >>> ax.get_xlabel(), [t.get_text() for t in ax.get_legend().get_texts()]
    ('trial t', ['AlwaysSimilar: 32 mistakes', 'UnionFindLearner: 8 mistakes; bound 8'])
    """
    results = list(ev.learners.values())
    finals = [r.mistakes for r in results]
    top = max([1] + finals)
    if log is None:
        log = wants_symlog(finals)
    cap = bound_cap(top)
    from ..game.evaluation import _fmt as table_number  # the legend gives a bound as the table does

    labels, drawn = {}, {}
    for k, r in enumerate(results):
        given = f" [{r.given}]" if r.given not in ("-", "") else ""
        text = f"{r.name}{given}: " + (f"{r.mistakes:,} in {r.played:,} trials, retired" if r.retired
                                       else f"{r.mistakes:,} mistakes")
        if r.bound is not None and not r.retired:
            if r.bound <= cap:
                drawn[r.name] = (k, r.bound)
                text += f"; bound {table_number(float(r.bound))}"
            else:
                text += f"; bound {table_number(float(r.bound))} off the chart"
        labels[r.name] = text
    note = "in brackets: what each learner is given besides the trials; dashed: its mistake bound, in its colour"
    if any(r.retired for r in results):
        note += "; ×: a learner retired"
    title = (f"{ev.graph_name} (n = {ev.n:,}, m = {ev.m:,}, K = {ev.K}, |Φ| = {ev.cut:,}): "
             f"{ev.T:,} {ev.trials} trials, seed {ev.seed}\n{note}")
    colours = learner_colors(r.name for r in results)
    ax = plot_mistake_curves({r.name: r.run for r in results}, ax, None, title, legend="below", log=log,
                             T=ev.T, labels=labels, colors=colours)
    high = max([top] + [b for _, b in drawn.values()])
    for k, b in drawn.values():
        ax.axhline(b, color=colours[results[k].name], ls="--", lw=1.4, label="_nolegend_", zorder=BOUND_ZORDER)
    for r in results:
        if r.retired:
            color = colours[r.name]
            y_end = float(r.run.cumulative[-1]) if r.played else 0.0
            ax.plot([r.played], [y_end], marker="X", ms=11, mew=1.5, mec="black", color=color, ls="none",
                    label="_nolegend_", zorder=5)
            ax.annotate(f"retired at trial {r.played + 1:,}", (r.played, y_end), xytext=(6, 6),
                        textcoords="offset points", fontsize=LEGEND_FONTSIZE, color=color,
                        bbox={"fc": "white", "ec": color, "alpha": 0.9, "boxstyle": "round,pad=0.2"})
    if log:
        ax.set_ylim(0, high * 1.6)
    else:
        ax.set_ylim(0, high * 1.08 + 0.5)
    return ax
