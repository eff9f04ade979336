"""Explorers: step through one BST Perceptron trial, grow a path forest, splice the Ising reduction.

Three small apps for notebooks 06, 07 and 08.  Each is a view only: what it shows is computed
by the concept it explains (:meth:`~simpred_lite.learners.BSTPerceptron.explain`,
:func:`~simpred_lite.learners.path_forest.parse_path` and
:class:`~simpred_lite.learners.path_forest.PathForest`,
:func:`~simpred_lite.theory.hardness.reduction_stages`).
"""

from __future__ import annotations

import html
from itertools import combinations

import ipywidgets as W
import networkx as nx
from matplotlib.figure import Figure

from ..checks import check_edge_list, check_int, check_labels
from ..learners.bst_perceptron import BSTPerceptron, trial_structure
from ..learners.path_forest import PathForest, _check_grow, parse_path
from ..theory.hardness import reduction_stages
from ..viz.figures import draw_labelled_path
from ..viz.graphs import draw_edge_numbering
from ..viz.trees import draw_bst_trial
from .basics_explorers import _real_change
from .controls import (
    CheckedDropdown,
    clear_refusal_on_actions,
    focus_style,
    from_browser,
    refusal_note,
    refusal_to_status,
    show_refusal,
)
from .figure_output import show_figure
from .text import plain_text

__all__ = ["BSTTrialExplorer", "PathForestExplorer", "IsingReductionExplorer"]


def _show_png(out, fig, dpi=80):
    show_figure(out, fig, dpi=dpi)


class BSTTrialExplorer:
    """Step through one trial of the BST Perceptron (§4.1): path, ``S_t``, the ``F`` sum, the decision.

    Choose a pair ``(i, j)`` of graph vertices: the app shows the path ``P_t`` between their
    leaves, the set ``S_t``, the tags ``f_t``, the sum of ``F`` over ``P_t x P_t``, the
    threshold ``2R^2`` and the prediction.  **Learn** tells the learner the label (the true
    one from ``labels``, preset when the pair changes; you may flip it) and updates ``F``
    on a mistake.  **Reset** starts again from ``F = 0`` with no trial learned (and the true label).
    After **Learn** the status reports first the trial just learned (``Trial t``: its path sum and
    prediction, made on ``F`` *before* the update, the label, mistake or not), then, under
    ``Now, on the updated F``, the sum and the prediction a next trial of the same pair would get.

    Parameters
    ----------
    bst : BinarySupportTree
        At most :attr:`MAX_N` = 16 graph vertices (a larger tree is refused with a ``ValueError``: its leaf
        numbers would overlap in the picture).
    labels : array_like of int, optional
        Vertex classes: leaf colours, and the true label of each pair.

    Raises
    ------
    ValueError
        If ``bst`` has more than :attr:`MAX_N` graph vertices.

    Attributes
    ----------
    i, j : ipywidgets.Dropdown
        The pair (vertex numbers of the graph).
    label : ipywidgets.ToggleButtons
        The label **Learn** applies: ``0`` similar, ``1`` dissimilar.
    learn_button, reset_button : ipywidgets.Button
    status : ipywidgets.HTML
        The computation of the trial, in words (the trial just learned first, then the current ``F``).
    out : ipywidgets.Output
        The BST with ``P_t`` (light blue), ``S_t`` (black rings) and the tags (red).
    learner : BSTPerceptron
    history : list of dict
        One entry per **Learn**: ``i, j, path_sum, prediction, label, mistake, flipped`` (``flipped``: the
        label applied contradicts ``labels``; always False without ``labels``).

    Examples
    --------
    >>> from simpred_lite.bst import BinarySupportTree
    >>> app = BSTTrialExplorer(BinarySupportTree([0, 1, 2, 3]), labels=[0, 0, 1, 1])
    >>> app.i.value, app.j.value = 0, 3
    >>> app.explanation["prediction"], app.label.value
    (0, 1)
    >>> app.learn_button.click(); app.explanation["path_sum"]
    32
    >>> app.reset_button.click(); app.explanation["path_sum"], app.history
    (0, [])
    """

    #: the most graph vertices (so at most 16 leaves) whose picture stays readable: with 17 vertices the BST has 32
    #: leaves and their heap indices and graph-vertex names overlap (checked on the pictures at n = 16, 17, 32)
    MAX_N = 16

    def __init__(self, bst, labels=None):
        if bst.n > self.MAX_N:
            raise ValueError(f"a BST of {bst.n} graph vertices is too large for a readable picture: the explorer "
                             f"draws trees of at most {self.MAX_N} vertices ({self.MAX_N} leaves); on larger "
                             "trees use BSTPerceptron.explain(i, j) in code")
        self.learner = BSTPerceptron(bst)
        self.bst = bst
        n = bst.n
        self.labels = None if labels is None else check_labels(labels, n)
        self.history: list[dict] = []
        self.i = CheckedDropdown(options=list(range(n)), value=0, description="vertex i",
                                 on_invalid=self._refuse)
        self.j = CheckedDropdown(options=list(range(n)), value=n - 1, description="vertex j",
                                 on_invalid=self._refuse)
        self.label = W.ToggleButtons(options=[("similar (0)", 0), ("dissimilar (1)", 1)], value=0,
                                     description="label y",
                                     tooltips=["Learn will apply y = 0: i and j in the same class",
                                               "Learn will apply y = 1: i and j in different classes"])
        self.learn_button = W.Button(description="Learn", button_style="warning",
                                     tooltip="tell the learner the label; F changes on a mistake")
        self.reset_button = W.Button(description="Reset", tooltip="start again: F = 0, no trial learned")
        self.title = W.HTML(f"<b>One trial of the BST Perceptron</b> ({n} vertices, N = {bst.num_leaves} leaves, "
                            f"R = 2 log2 N = {self.learner.R})")
        self.status = W.HTML(layout=W.Layout(min_height="7.5em"))
        self.out = W.Output(layout=W.Layout(min_height="330px"))
        self.i.observe(self._on_pair, names="value")
        self.j.observe(self._on_pair, names="value")
        self.learn_button.on_click(lambda _: self.learn())
        self.reset_button.on_click(lambda _: self.reset())
        self.widget = W.VBox([self.title, W.HBox([self.i, self.j]),
                              W.HBox([self.label, self.learn_button, self.reset_button]),
                              self.status, self.out, focus_style()])
        self.last = ""  # what the last action did (a trial learned, a reset), shown first
        self._now = ""  # after a Learn: the label of the lines that describe the current F
        self._last_mistake = ""  # the pair and S_s of the last mistake, kept when the pair changes
        self._refusal = ""
        self._on_pair(None)
        self._restore_status = self._update  # a refusal note cleared by the next action: the pair again
        clear_refusal_on_actions(self)

    @property
    def explanation(self) -> dict | None:
        """:meth:`BSTPerceptron.explain` for the chosen pair (None if ``i == j``)."""
        i, j = int(self.i.value), int(self.j.value)
        return None if i == j else self.learner.explain(i, j)

    @property
    def status_text(self) -> str:
        """The status as plain text (what the student reads)."""
        return plain_text(self.status.value.replace("<br>", "\n"))

    def learn(self) -> bool | None:
        """Apply the chosen label to the chosen pair; returns whether it was a mistake."""
        e = self.explanation
        if e is None:
            self.last = "Choose two <i>different</i> vertices."
            self._update()
            return None
        i, j, y = int(self.i.value), int(self.j.value), int(self.label.value)
        before = self.learner.entries
        self.learner.learn_one(i, j, y)
        mistake = y != e["prediction"]
        true_y = None if self.labels is None else int(self.labels[i] != self.labels[j])
        flipped = true_y is not None and y != true_y
        self.history.append({"i": i, "j": j, "path_sum": e["path_sum"], "prediction": e["prediction"],
                             "label": y, "mistake": mistake, "flipped": flipped})
        # first the trial just learned (its prediction was made on F before the update), then the state
        trial = (f"Trial {len(self.history)}, pair ({i}, {j}): path sum {e['path_sum']} {e['comparison']} "
                 f"{e['threshold']}? {'yes' if e['prediction'] else 'no'} → predicted {self._word(e['prediction'])}; "
                 f"learned y = {y}{f' (flipped: the classes say y = {true_y})' if flipped else ''}: ")
        if mistake:
            self.last = trial + (f"a MISTAKE, so F[l, l'] += ({y} - {e['prediction']}) (f(l) - f(l'))² on "
                                 f"S_t × S_t ({len(e['update'])} pairs; F now has {self.learner.entries} stored "
                                 f"entries, was {before}).")
            self._now = "Now, on the updated F (what a next trial of this pair would see):"
            self._last_mistake = f"Last mistake: pair ({i}, {j}), S_s = {list(e['S'])}."
        else:
            self.last = trial + "the prediction was right, F is unchanged."
            self._now = "Now, on the same F (what a next trial of this pair would see):"
        self._update()
        return mistake

    def reset(self) -> None:
        """Start again: a fresh learner (``F = 0``), no trial learned, the true label of the pair preset."""
        self.learner = BSTPerceptron(self.bst)
        self.history = []
        self._last_mistake = ""
        self._on_pair(None)
        self._now = ""
        self.last = "Reset: F = 0, no trial learned" + ("; the label is the true one again." if self.labels is not None
                                                        else ".")
        self._update()

    def _refuse(self, message: str) -> None:
        self._refusal = refusal_note(message + (" (None is not a vertex)" if "got None" in message else ""))
        if hasattr(self, "status"):  # shown at once (a value set from Python); again below after None is undone
            self._show_refusal()

    def _show_refusal(self) -> None:
        head = self.status.value.split("<br>")[0]
        show_refusal(self, self._refusal, lambda: setattr(self.status, "value", head + "<br>" + self._refusal))

    def _on_pair(self, change) -> None:
        if change is not None and change["new"] is None:  # refused (not a vertex): show the refusal, not the pair
            self._show_refusal()
            return
        i, j = int(self.i.value), int(self.j.value)
        if self.labels is not None and i != j:
            self.label.value = int(self.labels[i] != self.labels[j])
        self.last = self._now = ""
        self._update()

    def _update(self) -> None:
        e = self.explanation
        head = f"Trials learned: {len(self.history)}, mistakes: {self.learner.mistakes}."
        if e is None:
            self.status.value = head + "<br>Choose two <i>different</i> vertices."
            self.out.outputs = ()
            return
        i, j = int(self.i.value), int(self.j.value)
        decide = e["path_sum"] > e["threshold"] if e["comparison"] == ">" else e["path_sum"] >= e["threshold"]
        verdict = ("would predict " if self._now else "predicts ") + self._word(e["prediction"])
        lines = [head] + ([self.last] if self.last else [self._last_mistake] if self._last_mistake else [])
        lines += [self._now] if self._now else []
        lines += [f"Pair ({i}, {j}) sits at leaves {e['leaves'][0]} and {e['leaves'][1]}. "
                  f"P_t = {list(e['path'])} ({len(e['path'])} vertices); S_t = {list(e['S'])}.",
                  self._path_entries(e["path"], e["path_sum"]),
                  f"Sum of F over P_t × P_t = {e['path_sum']}; threshold 2R² = {e['threshold']}; "
                  f"{e['path_sum']} {e['comparison']} {e['threshold']}? {'yes' if decide else 'no'} → {verdict}."]
        self.status.value = "<br>".join(lines)
        fig = Figure(figsize=(9, 4.2))
        ax = fig.subplots()
        draw_bst_trial(self.bst, trial_structure(self.bst, i, j), ax=ax, labels=self.labels,
                       title=f"Pair ({i}, {j}): " + r"$\mathcal{P}_t$ light blue, $\mathcal{S}_t$ black rings, "
                       r"tags $f_t$ in red")
        ax.set_axis_off()
        _show_png(self.out, fig)

    @staticmethod
    def _word(prediction: int) -> str:
        return "DISSIMILAR (1)" if prediction else "SIMILAR (0)"

    def _path_entries(self, path, path_sum: int, shown: int = 10) -> str:
        """The non-zero entries of ``F`` on ``P_t`` (each unordered pair once), whose doubled sum is the path sum."""
        terms = [(a, b, self.learner.F(a, b)) for a, b in combinations(sorted(int(v) for v in path), 2)]
        terms = [(a, b, v) for a, b, v in terms if v != 0]
        if not terms:
            return "F is zero on every pair of P_t."
        listed = ", ".join(f"F[{a}, {b}] = {v}" for a, b, v in terms[:shown])
        more = f", … ({len(terms) - shown} more)" if len(terms) > shown else ""
        half = sum(v for _, _, v in terms)
        assert 2 * half == path_sum  # the ordered sum counts each unordered pair twice (F symmetric, zero diagonal)
        return (f"Non-zero F on P_t, each pair {{l, l'}} once: {listed}{more}; the sum over ordered pairs counts each "
                f"twice: 2 × {half} = {path_sum}.")

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"BSTTrialExplorer: one BST Perceptron trial on {self.bst.n} vertices "
                                "(pick i, j; Learn)")
        return bundle


def _forest_layout(n: int, edges) -> dict:
    """Positions that draw a forest on ``0..n-1`` as trees side by side, its lone vertices in a row below.

    Each tree (ordered by its smallest vertex) hangs from a centre vertex, children below their parent and
    ordered by number, a parent above the middle of its children; no two edges of the drawing cross.  The
    vertices that no edge touches yet sit in a row under the trees.

    >>> _forest_layout(4, [(0, 1), (1, 2)])
    {0: (0.0, -1.0), 2: (1.0, -1.0), 1: (0.5, 0.0), 3: (0.0, -2.0)}
    """
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(edges)
    pos: dict = {}
    x = 0.0
    depth = 0

    def place(v: int, parent: int | None, d: int) -> None:
        nonlocal x, depth
        depth = max(depth, d)
        kids = sorted(u for u in H[v] if u != parent)
        if not kids:
            pos[v] = (x, float(-d))
            x += 1.0
            return
        for u in kids:
            place(u, v, d + 1)
        pos[v] = ((pos[kids[0]][0] + pos[kids[-1]][0]) / 2, float(-d))

    trees = sorted((sorted(c) for c in nx.connected_components(H) if len(c) > 1), key=lambda c: c[0])
    for tree in trees:
        place(min(nx.center(H.subgraph(tree))), None, 0)
    row = float(-depth - 1) if trees else 0.0
    for k, v in enumerate(sorted(v for v in range(n) if H.degree(v) == 0)):
        pos[v] = (float(k), row)
    return pos


class PathForestExplorer:
    """Type revealed paths and watch the forest of revealed paths grow (§5, Figure 7).

    Type a path such as ``0 3 5 2`` (the pair is its two ends) and press **Enter** or **Add**: when
    the two ends are not yet connected in the forest (with ``grow="always"``: always), the forest
    keeps the path's edges that close no circuit, numbered by first disclosure and oriented
    low → high; a path whose ends are already connected is ignored under the default
    ``grow="disconnected"``.  The app shows the instance ``x_t``, the signed indicator of the
    pair's path *in the forest*.  The **growth rule** buttons switch between the two rules; the
    paths revealed so far are then replayed under the new rule, so the two forests can be compared
    on the same paths (Figure 7, round 4).

    Parameters
    ----------
    n : int
        Number of vertices (numbered ``0 .. n-1``), 2..16 (:attr:`MAX_N`): with more, the picture is
        unreadable and the app refuses with a sentence that says so.  Each tree of the forest is drawn
        as a tree (:func:`_forest_layout`), side by side, the vertices not yet in the forest in a row below.
    grow : {"disconnected", "always"}
        Passed to :class:`~simpred_lite.learners.PathForest`; the initial value of :attr:`grow_toggle`.

    Attributes
    ----------
    path_text : ipywidgets.Text
    grow_toggle : ipywidgets.ToggleButtons
        The growth rule; changing it replays the revealed paths under the new rule.
    add_button, reset_button : ipywidgets.Button
    status : ipywidgets.HTML
    out : ipywidgets.Output
    forest : PathForest
    history : list of dict
        One entry per added path: ``path``, ``new_edges``, ``forest_path``, ``x``.

    Examples
    --------
    >>> app = PathForestExplorer(6)
    >>> app.path_text.value = "0 3 5 2"; app.add_button.click()
    >>> app.history[-1]["x"]
    [1, 1, -1]
    >>> app.path_text.value = "0 0"; app.add_button.click(); len(app.history)
    1
    >>> app.grow_toggle.value = "always"; app.forest.grow, len(app.history)
    ('always', 1)
    """

    #: the largest ``n`` whose picture stays readable (vertex numbers, edge names, the blue forest path)
    MAX_N = 16

    def __init__(self, n: int = 8, grow: str = "disconnected"):
        self.n = check_int(n, "n", low=2)
        if self.n > self.MAX_N:
            # beyond 16 vertices on a circle the edge names cover the vertex numbers and the blue forest
            # path vanishes under the crossing edges (checked on the pictures at n = 16, 20, 24, 40)
            raise ValueError(f"n = {self.n} is too many vertices for a readable picture: the explorer draws at "
                             f"most {self.MAX_N} vertices (0..{self.MAX_N - 1}); larger forests are built with "
                             "PathForest in code")
        self.grow = _check_grow(grow)

        self.pos = _forest_layout(self.n, [])
        # the value reaches the kernel when the student presses Enter (or leaves the box), and
        # a path submitted that way is added at once (ipywidgets 8 deprecates Text.on_submit)
        # an example path that is valid for this n (vertices 0..n-1, none repeated)
        self._example = "0 3 5 2" if self.n >= 6 else " ".join(map(str, range(self.n - 1, -1, -1)))
        self.path_text = W.Text(value="", placeholder=f"e.g. {self._example}", description="path",
                                continuous_update=False,
                                tooltip=f"vertex numbers 0..{self.n - 1}, separated by spaces; Enter adds the path")
        self._submitted: str | None = None
        self.add_button = W.Button(description="Add", button_style="info", tooltip="reveal this path")
        self.reset_button = W.Button(description="Reset", button_style="warning", tooltip="an empty forest")
        self.title = W.HTML(f"<b>The forest of revealed paths</b> on {self.n} vertices")
        self.status = W.HTML(layout=W.Layout(min_height="5em"))
        self.out = W.Output(layout=W.Layout(min_height="360px"))
        self.grow_toggle = W.ToggleButtons(
            options=[("disconnected", "disconnected"), ("always", "always")], value=self.grow,
            description="growth rule",  # short labels: a longer one is cut off at the buttons' width
            tooltips=["grow=\"disconnected\" (the paper's text): add a revealed path only when its ends are not "
                      "yet connected in the forest",
                      "grow=\"always\" (as drawn in Figure 7): process every revealed path, edge by edge, even "
                      "when its ends are already connected"])
        self.add_button.on_click(lambda _: self._on_add_click())
        self.reset_button.on_click(lambda _: self.reset())
        self.path_text.observe(self._on_submit, names="value")
        self.grow_toggle.observe(self._on_grow, names="value")
        self.widget = W.VBox([self.title, W.HBox([self.path_text, self.add_button, self.reset_button]),
                              self.grow_toggle, self.status, self.out, focus_style()])
        self.reset()

    @property
    def status_text(self) -> str:
        return plain_text(self.status.value.replace("<br>", "\n"))

    def reset(self) -> None:
        """An empty forest."""
        self.forest = PathForest(self.n, grow=self.grow)
        self.history: list[dict] = []
        self._update(f"Type a path of vertex numbers 0..{self.n - 1} (e.g. {self._example}) and press <b>Add</b>.")

    def _on_grow(self, change) -> None:
        """A new growth rule: rebuild the forest by replaying the revealed paths under it."""
        if change["new"] == change["old"]:
            return
        self.grow = change["new"]
        paths = [h["path"] for h in self.history]
        self.forest = PathForest(self.n, grow=self.grow)
        self.history = []
        message = ""
        for path in paths:
            _, message = self._reveal(path)
        # every round's new forest edges, so the two rules can be compared round by round
        rounds, count = [], 0
        for t, h in enumerate(self.history, start=1):
            names = ", ".join(f"e{count + k + 1} = {a}→{b}" for k, (a, b) in enumerate(h["new_edges"]))
            count += len(h["new_edges"])
            rounds.append(f"t = {t}: {names or 'none'}")
        replayed = (f"the {len(paths)} revealed path{'s' if len(paths) != 1 else ''} replayed under it.<br>"
                    f"New forest edges per round: {'; '.join(rounds)}.<br>"
                    f"Last: {message}") if paths else "no path revealed yet."
        self._update(f"Growth rule now grow=\"{self.grow}\": {replayed}")

    def _on_submit(self, change) -> None:
        """Enter in the path box (a value sent by the browser) adds the path; a value set from Python does not."""
        if from_browser(self.path_text, "value") and change["new"].strip():
            self._submitted = change["new"]
            self.add()

    def _on_add_click(self) -> None:
        # clicking Add moves the focus out of the box, which submits the text first: add it once
        if self._submitted is not None and self._submitted == self.path_text.value:
            self._submitted = None
            return
        self._submitted = None
        self.add()

    def add(self) -> dict | None:
        """Reveal the typed path; returns the new history entry (None if the text is not a path)."""
        try:
            path = parse_path(self.path_text.value, self.n)
        except (ValueError, TypeError) as err:
            self._update(f"Not a path: {html.escape(str(err))}.")
            return None
        entry, message = self._reveal(path)
        self._update(message)
        return entry

    def _reveal(self, path) -> tuple[dict, str]:
        """Feed one checked path to the forest; the history entry and the sentence that describes it."""
        before = len(self.forest.edges)
        ignored = self.grow == "disconnected" and self.forest.connected(path[0], path[-1])
        verts, idx, sgn = self.forest.instance_sparse(path[0], path[-1], path)
        x = [0] * (self.n - 1)
        for e, s in zip(idx, sgn):
            x[e] = int(s)
        entry = {"path": list(path), "new_edges": self.forest.edges[before:], "forest_path": list(verts),
                 "x": x[: len(self.forest.edges)]}
        self.history.append(entry)
        new = ", ".join(f"e{before + k + 1} = {a}→{b}" for k, (a, b) in enumerate(entry["new_edges"])) or "none"
        if ignored:
            new += " (ends already connected: path ignored)"
        edges = f"{len(self.forest.edges)} forest edges." if len(self.forest.edges) != 1 else "1 forest edge."
        return entry, (f"t = {len(self.history)}: pair ({path[0]}, {path[-1]}), revealed path {list(path)}; "
                       f"new forest edges: {new}.<br>Forest path: {' → '.join(map(str, verts))}; "
                       f"x_{len(self.history)} = ({', '.join(map(str, entry['x']))}) over the {edges}")

    def _update(self, text: str) -> None:
        self.status.value = f"Paths revealed: {len(self.history)}, forest edges: {len(self.forest.edges)}.<br>{text}"

        H = nx.Graph()
        H.add_nodes_from(range(self.n))
        H.add_edges_from(self.forest.edges)
        last = self.history[-1] if self.history else None
        # each tree drawn as a tree, side by side, lone vertices in a row below: no edge crosses another
        self.pos = _forest_layout(self.n, self.forest.edges)
        side = 4.8 if self.n <= 8 else 6.0  # a larger picture for more vertices
        levels = len({p[1] for p in self.pos.values()})  # rows of the drawing: a long path makes many
        fig = Figure(figsize=(side + 0.4, max(side + 0.3, 0.75 * levels + 1.2)))
        ax = fig.subplots()
        draw_edge_numbering(H, edges=self.forest.edges, ax=ax, pos=self.pos, thick=self.forest.edges,
                            path=last["forest_path"] if last else None, node_size=420, font_size=10,
                            label_pos="auto",
                            title=("The forest: edges numbered by disclosure, low → high\n"
                                   + (f"blue: the forest path of the last pair, x_{len(self.history)}" if last
                                      else "no path revealed yet")))
        xs, ys = [p[0] for p in self.pos.values()], [p[1] for p in self.pos.values()]
        ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
        ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
        ax.set_axis_off()
        self.figure = fig  # the last picture drawn (tests check its readability)
        _show_png(self.out, fig, dpi=110)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"PathForestExplorer: type paths on {self.n} vertices, Add, watch the forest and x_t"
        return bundle


def _ising_graphs():

    return {
        "triangle": nx.cycle_graph(3),
        "square with a diagonal": nx.Graph([(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)]),
        "the 5-vertex graph of this notebook": nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (0, 3), (1, 4)]),
        "complete graph K4": nx.complete_graph(4),
    }


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


class IsingReductionExplorer:
    """Step through the splices of the graph → constrained-path reduction (Theorem 2).

    Choose a small graph ``G`` (from the list, or type an edge list such as ``0-1 1-2 2-0 2-3``,
    at most 8 vertices and 12 edges, and press **Use this graph**) and ``β``; **Next splice** / **Back**
    move through the stages of :func:`~simpred_lite.theory.hardness.reduction_stages`: ``P_0`` (the
    depth-first visit of the spanning tree ``T``), then one non-tree edge spliced in per stage.  At every stage the
    app shows ``Z_{P_k}(C_k, β)`` beside ``Z_{G_k}(2β)`` (``G_k`` = ``T`` plus the edges
    spliced so far) and the target ``Z_G(2β)``: exact fractions, equal at the last stage.

    Parameters
    ----------
    graph : str, default "the 5-vertex graph of this notebook"
        The graph to start with, one of :attr:`GRAPHS`.
    beta : int, default 1
        The inverse temperature ``β`` (1..4); the path's constraints use ``β``, the graph ``2β``.

    Attributes
    ----------
    graph : ipywidgets.Dropdown
        The graphs of :attr:`GRAPHS` and the entry :attr:`TYPED`, which the list shows while a typed
        graph is in use (so that choosing any graph of the list is a change); choosing :attr:`TYPED`
        uses the edge list typed in ``edges_text``, like **Use this graph**.
    edges_text : ipywidgets.Text
        Your own graph as an edge list; **Use this graph** (``use_button``) checks it with
        :func:`~simpred_lite.checks.check_edge_list` and, if it is refused, says why in the status and
        keeps the graph shown.
    beta : CheckedDropdown
        ``β`` in 1..4.  Any other value (``5``, ``0``, ``'x'``, ``2.5``, ``None``) is refused the same
        way: β, the stage and the figure stay as they were and the status says "Not changed: β must be
        one of [1, 2, 3, 4], got …".  Set from code, a refused value other than ``None`` also raises a
        ``ValueError`` with that sentence, as every list of the suite does (``None`` raises nothing:
        traitlets does not validate it, so the list undoes it after the fact).
    back_button, next_button, use_button : ipywidgets.Button
    stage : int
    stages : list of dict
    status : ipywidgets.HTML
        Says "Computing…" while the stages are rebuilt or the figure is redrawn (seconds on a busy
        machine), then describes the stage shown.
    out : ipywidgets.Output

    Examples
    --------
    >>> app = IsingReductionExplorer()
    >>> app.graph.value = "triangle"; app.next_button.click()
    >>> app.stage, app.stages[app.stage]["Z_path"] == app.stages[app.stage]["Z_graph"]
    (1, True)
    """

    GRAPHS = _ising_graphs()
    #: The entry the list shows while a typed edge list is in use.
    TYPED = "(your edge list)"

    def __init__(self, graph: str = "the 5-vertex graph of this notebook", beta: int = 1):
        if graph not in self.GRAPHS:
            raise ValueError(f"unknown graph {graph!r}; choose one of {list(self.GRAPHS)}")
        self.graph = CheckedDropdown(options=[*self.GRAPHS, self.TYPED], value=graph, description="graph G",
                                     on_invalid=refusal_to_status(self))
        # a dropdown, not a slider: a slider clamps an out-of-range value set from code without a word
        self.beta = CheckedDropdown(options=[1, 2, 3, 4], value=check_int(beta, "beta", low=1, high=4),
                                    description="β", on_invalid=refusal_to_status(self),
                                    tooltip="β, the inverse temperature (1..4): the path uses β, the graph 2β")
        self.edges_text = W.Text(value="", placeholder="e.g. 0-1 1-2 2-0 2-3", description="edge list",
                                 tooltip="your own graph: edges u-v separated by spaces or commas, at most 8 vertices "
                                         "(0..7) and 12 edges, connected")
        self.use_button = W.Button(description="Use this graph", tooltip="build the reduction of the typed edge list")
        self._custom: nx.Graph | None = None
        self._syncing = False     # True while the code itself sets the list's value: no reaction
        self.back_button = W.Button(description="◀ Back", tooltip="undo the last splice")
        self.next_button = W.Button(description="Next splice ▶", button_style="info",
                                    tooltip="splice the next non-tree edge into the path")
        self.title = W.HTML("<b>From a graph to a constrained path</b>: Z_G(2β) = Z_P(C, β)")
        self.status = W.HTML(layout=W.Layout(min_height="6.5em"))
        self.out = W.Output(layout=W.Layout(min_height="430px"))
        self.graph.observe(lambda change: self._on_graph_choice(change) if _real_change(change) else None,
                           names="value")
        self.use_button.on_click(lambda _: self.use_edges())
        self.beta.observe(lambda change: self._rebuild(keep_stage=True) if _real_change(change) else None,
                          names="value")
        self.back_button.on_click(lambda _: self.go(self.stage - 1))
        self.next_button.on_click(lambda _: self.go(self.stage + 1))
        self.widget = W.VBox([self.title, W.HBox([self.graph, self.beta]),
                              W.HBox([self.edges_text, self.use_button]),
                              W.HBox([self.back_button, self.next_button]), self.status, self.out,
                              focus_style()])
        self.stage = 0
        self._rebuild()
        clear_refusal_on_actions(self)

    @property
    def G(self):
        return self._custom if self._custom is not None else self.GRAPHS[self.graph.value]

    def _set_choice(self, value: str) -> None:
        """Set the list's value without reacting to it."""
        self._syncing = True
        try:
            self.graph.value = value
        finally:
            self._syncing = False

    def _on_graph_choice(self, change) -> None:
        if self._syncing:
            return
        if change["new"] == self.TYPED:
            # the typed edge list, as with "Use this graph"; the list shows TYPED only if it is taken
            self._set_choice(change["old"])
            self.use_edges()
            return
        self._custom = None
        self._rebuild()

    def use_edges(self) -> bool:
        """Build the reduction of the edge list typed in ``edges_text``; refuse bad input with a sentence.

        Returns True if the graph was taken; otherwise the status starts with the reason and the
        graph, β and stage shown stay as they were.
        """
        try:
            edges = check_edge_list(self.edges_text.value, "edge list")
        except (TypeError, ValueError) as err:
            reason = str(err)
            if "not connected" in reason:   # every edge was read: name a numbering from 1
                typed = {int(x) for tok in self.edges_text.value.replace(",", " ").split() for x in tok.split("-")}
                if 0 not in typed:
                    reason = ("edge list: vertices are numbered from 0; vertex 0 has no edge. Number the "
                              "vertices 0, 1, 2, … (a triangle is 0-1 1-2 2-0)")
            self.go(self.stage)
            self.status.value = f"<b>Not used:</b> {html.escape(reason)}.<br>" + self.status.value
            return False
        G = nx.Graph()
        G.add_nodes_from(range(max(max(e) for e in edges) + 1))
        G.add_edges_from(edges)
        self._custom = G
        self._set_choice(self.TYPED)   # so that any graph of the list is a change
        self._rebuild()
        return True

    @property
    def status_text(self) -> str:
        return plain_text(self.status.value.replace("<br>", "\n"))

    def _working(self, what: str) -> None:
        """Say in the status that ``what`` is under way (seconds on a busy machine)."""
        self.status.value = f"<i>Computing… {what}.</i>"

    def _rebuild(self, keep_stage: bool = False) -> None:
        self._working(f"building the stages of the reduction at β = {int(self.beta.value)} and drawing them")
        self.stages = reduction_stages(self.G, int(self.beta.value))
        self.go(min(self.stage, len(self.stages) - 1) if keep_stage else 0)

    def go(self, stage: int) -> None:
        """Show stage ``stage`` (clipped to the stages that exist)."""
        self.stage = max(0, min(int(stage), len(self.stages) - 1))
        last = len(self.stages) - 1
        self.back_button.disabled = self.stage == 0
        self.next_button.disabled = self.stage == last
        s, b = self.stages[self.stage], int(self.beta.value)
        source = ("your edge list: " + " ".join(f"{u}-{v}" for u, v in self.G.edges)
                  if self._custom is not None else self.graph.value)
        what = ("P₀: the depth-first visit of the spanning tree T" if s["spliced"] is None
                else f"spliced the non-tree edge {s['spliced']}")
        equal = s["Z_path"] == s["Z_graph_k"]
        done = (f"Last stage: Z_P(C, {b}) = {s['Z_path']} and Z_G({2 * b}) = {s['Z_graph']}: "
                f"{'equal' if s['Z_path'] == s['Z_graph'] else 'NOT equal'}." if self.stage == last else
                f"Target Z_G({2 * b}) = {s['Z_graph']}; {last - self.stage} splice(s) to go.")
        text = "<br>".join([
            f"Graph G = {html.escape(source)}. "
            f"Stage {self.stage} of {last}: {what}. The path has {len(s['path'])} vertices, "
            f"|C| = {len(s['constraints'])} equality constraints.",
            f"Z_P(C, {b}) = {s['Z_path']}; Z of G{str(self.stage).translate(_SUBSCRIPTS)} = T + the edges "
            f"spliced so far, at 2β = {2 * b}: {s['Z_graph_k']}; {'equal' if equal else 'NOT equal'}.",
            done])
        self.status.value = text + "<br><i>Computing… drawing the figure.</i>"
        self._render(s)
        self.status.value = text

    def _render(self, s) -> None:

        G = self.G
        fig = Figure(figsize=(8, 6), layout="constrained")     # 768 px at 96 dpi: shown unscaled in JupyterLab
        top, bottom = fig.subfigures(2, 1, height_ratios=[1.2, 1])
        ax_g = top.subplots()
        pos = nx.circular_layout(G)
        done = {tuple(sorted(e)) for e in s["edges"]}
        todo = [e for e in G.edges if tuple(sorted(e)) not in done]
        nx.draw_networkx_edges(G, pos, edgelist=sorted(done), ax=ax_g, width=2.2)
        nx.draw_networkx_edges(G, pos, edgelist=todo, ax=ax_g, width=1.4, style="dashed", edge_color="tab:red")
        nx.draw_networkx_nodes(G, pos, ax=ax_g, node_color="white", edgecolors="0.1", node_size=380)
        nx.draw_networkx_labels(G, pos, ax=ax_g, font_size=10)
        ax_g.set_title("G: solid = in the path so far (T and spliced edges), red dashed = still to splice",
                       fontsize=10)
        ax_g.set_axis_off()
        ax_p = bottom.subplots()
        draw_labelled_path(s["path"], ax=ax_p, new=s["new"], constraints=s["constraints"],
                           title=(f"$P_{{{self.stage}}}$: each vertex shows the G-vertex it copies; "
                                  "arcs = constraints C"))
        _show_png(self.out, fig, dpi=96)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = ("IsingReductionExplorer: choose G and β, step through the splices, "
                                "compare Z_G(2β) and Z_P(C, β)")
        return bundle
