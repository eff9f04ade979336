"""Every argument check of the package, in one place (like scikit-learn's ``utils/validation``).

Each function checks one kind of argument and returns it in a canonical form (a Python
``int``, a ``float``, a numpy ``Generator``, an ``int64`` array ...).  The errors follow one
rule: ``TypeError`` when the argument has the wrong *type* (a string, a float where an
integer is meant, a ``bool`` where a number is meant), ``ValueError`` when the type is
right but the *value* is not (negative, out of range, NaN); every message names the
argument, says what is wrong and how to fix it.

``bool`` is a subclass of ``int`` in Python, so ``True`` would silently count as ``1``;
every integer and real check here refuses it.

Graphs themselves are checked by :func:`simpred_lite.graphs.validate_graph`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import networkx as nx
import numpy as np

__all__ = [
    "LearnerGaveUp",
    "MemoryLimitError",
    "WorkLimitError",
    "MEMORY_LIMIT",
    "is_integer",
    "check_random_state",
    "check_int",
    "check_real",
    "check_probability",
    "check_vertex",
    "check_pair",
    "check_path",
    "check_similarity_label",
    "check_class_label",
    "check_labels",
    "check_memory",
    "WORK_LIMIT",
    "check_work",
    "check_bool",
    "check_choice",
    "check_class_values",
    "check_features",
    "TRIAL_BYTES",
    "check_num_trials",
    "check_graph_memory",
    "check_simple_path",
    "check_trial_vertices",
    "check_class_label",
    "check_class_learner",
    "check_edge_limit",
    "check_winnow_params",
    "check_edge_list",
]

#: Largest array (in bytes) a function of the package allocates before refusing: 1 GiB.
MEMORY_LIMIT = 1 << 30

#: Largest number of elementary steps (pair draws, sparse-solve flops, ...) a function of the
#: package starts before refusing: ``10**10``, some seconds to a few minutes of work on a laptop.  Each
#: function that checks it says in its docstring what it counts.
WORK_LIMIT = 10**10

#: Memory of one played trial as the package keeps it (a ``Trial`` in a list, the learners'
#: predictions and mistakes): about 200-300 bytes measured, 400 with paths and records.
TRIAL_BYTES = 400

_BOOLS = (bool, np.bool_)


class LearnerGaveUp(RuntimeError):
    """A learner legitimately gave up: a pool limit or a memory or time guard refused to go on.

    The one exception that *retires* a learner in the playground and in
    :func:`~simpred_lite.game.evaluation.evaluate`: it stops playing and the others go on.
    Every other exception (a ``ZeroDivisionError`` in a student's learner, bad input) is a
    bug and surfaces with its traceback.  Subclasses:
    :class:`~simpred_lite.learners.reductions.PoolLimitError`,
    :class:`~simpred_lite.exact.ExactTooLargeError` and :class:`MemoryLimitError`.  A
    learner of your own that cannot go on should raise it (or a subclass) with a message
    saying why.

    Examples
    --------
    >>> issubclass(MemoryLimitError, LearnerGaveUp)
    True
    """


class MemoryLimitError(LearnerGaveUp, ValueError):
    """:func:`check_memory` refused an allocation larger than the limit.

    A ``ValueError`` (the size asked for is a bad value) and a :class:`LearnerGaveUp` (a
    learner that meets it mid-run retires instead of crashing the game).

    Examples
    --------
    >>> issubclass(MemoryLimitError, ValueError)
    True
    """


class WorkLimitError(LearnerGaveUp, ValueError):
    """:func:`check_work` refused a computation longer than the limit (the time twin of
    :class:`MemoryLimitError`).

    Examples
    --------
    >>> issubclass(WorkLimitError, LearnerGaveUp) and issubclass(WorkLimitError, ValueError)
    True
    """


def is_integer(value: Any) -> bool:
    """Whether ``value`` is an integer in the sense of every check here: not a bool.

    Parameters
    ----------
    value : object

    Returns
    -------
    bool
        True for Python and numpy integers, False for bools, floats (even ``2.0``) and
        anything else.

    Examples
    --------
    >>> is_integer(3), is_integer(True), is_integer(3.0)
    (True, False, False)
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, _BOOLS)


def _describe(value: Any) -> str:
    return f"{value!r} ({type(value).__name__})"


def check_random_state(seed: Any, *, name: str = "seed", allow_none: bool = False) -> np.random.Generator:
    """Turn ``seed`` into a :class:`numpy.random.Generator`.

    The package draws all its randomness from a ``Generator`` built here, so that every run
    (and every stored notebook output) is reproducible from its seed.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        A non-negative integer seeds a fresh generator; a ``Generator`` is returned as is
        (so several calls can share one stream).  ``None`` (fresh entropy from the
        operating system, not reproducible) only with ``allow_none=True``.
    name : str, default "seed"
        The argument's name, for error messages.
    allow_none : bool, default False
        Whether ``None`` is accepted.  The package's own functions refuse it: a run
        without a seed cannot be reproduced.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    TypeError
        If ``seed`` is a bool, a float, a string or any other type.
    ValueError
        If ``seed`` is a negative integer, or None without ``allow_none``.

    Examples
    --------
    >>> rng = check_random_state(0)
    >>> check_random_state(rng) is rng
    True
    >>> type(check_random_state(None, allow_none=True)).__name__
    'Generator'
    >>> check_random_state(1.5)
    Traceback (most recent call last):
    ...
    TypeError: seed must be a non-negative integer or a numpy.random.Generator, got 1.5 (float); pass e.g. seed=0
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        if allow_none:
            return np.random.default_rng()
        raise ValueError(
            f"pass an explicit {name} (an int or a numpy.random.Generator) so runs are reproducible, "
            f"e.g. {name}=0"
        )
    if not is_integer(seed):
        raise TypeError(
            f"{name} must be a non-negative integer or a numpy.random.Generator, got {_describe(seed)}; "
            f"pass e.g. {name}=0"
        )
    if seed < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {seed}; pass e.g. {name}=0")
    return np.random.default_rng(int(seed))


def _range_text(low: Any, high: Any, low_inclusive: Any = True, high_inclusive: Any = True) -> str:
    if low is not None and high is not None:
        return f"lie in {'[' if low_inclusive else '('}{low}, {high}{']' if high_inclusive else ')'}"
    if low is not None:
        return f"be {'>=' if low_inclusive else '>'} {low}"
    return f"be {'<=' if high_inclusive else '<'} {high}"


def check_int(value: Any, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """Check that ``value`` is an integer (not a bool) with ``low <= value <= high``.

    Parameters
    ----------
    value : object
        The argument to check.
    name : str
        Its name, used in the error message (e.g. ``"T (the number of trials)"``).
    low, high : int, optional
        Inclusive bounds.

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    TypeError
        If ``value`` is not an integer, or is a bool (``True`` is not the number 1 here).
    ValueError
        If ``value`` is outside ``[low, high]``.

    Examples
    --------
    >>> check_int(3, "K", low=2)
    3
    >>> check_int(True, "T")
    Traceback (most recent call last):
    ...
    TypeError: T must be an integer, got True (bool); pass a whole number such as 3
    >>> check_int(1, "K", low=2)
    Traceback (most recent call last):
    ...
    ValueError: K must be at least 2, got 1
    """
    if not is_integer(value):
        raise TypeError(f"{name} must be an integer, got {_describe(value)}; pass a whole number such as 3")
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            allowed = f"lie in {low}..{high}"
        else:
            allowed = f"be at least {low}" if low is not None else f"be at most {high}"
        raise ValueError(f"{name} must {allowed}, got {int(value)}")
    return int(value)


def check_real(value: Any, name: str, *, low: Any = None, high: Any = None, low_inclusive: bool = True,
               high_inclusive: bool = True, finite: bool = True) -> float:
    """Check that ``value`` is a real number (int, float, Fraction; not a bool or a string).

    Parameters
    ----------
    value : object
        The argument to check.
    name : str
        Its name, used in the error message.
    low, high : float, optional
        Bounds on the value.
    low_inclusive, high_inclusive : bool, default True
        Whether ``value == low`` (``value == high``) is allowed.
    finite : bool, default True
        Whether NaN and infinities are refused (NaN is always refused).

    Returns
    -------
    float
        ``float(value)``.

    Raises
    ------
    TypeError
        If ``value`` is a string (even ``"0.5"``), a bool, or not a real number.
    ValueError
        If ``value`` is NaN, infinite (with ``finite=True``) or outside the bounds.

    Examples
    --------
    >>> check_real(0.5, "p_in", low=0, high=1)
    0.5
    >>> check_real("0.5", "p_in")
    Traceback (most recent call last):
    ...
    TypeError: p_in must be a real number, got '0.5' (str); pass a number such as 0.5, not a string
    >>> check_real(0.0, "eta", low=0, low_inclusive=False)
    Traceback (most recent call last):
    ...
    ValueError: eta must be > 0, got 0.0
    """
    if isinstance(value, _BOOLS) or not isinstance(value, (numbers.Real, np.integer, np.floating)):
        hint = ", not a string" if isinstance(value, str) else ""
        raise TypeError(f"{name} must be a real number, got {_describe(value)}; pass a number such as 0.5{hint}")
    x = float(value)
    if math.isnan(x):
        raise ValueError(f"{name} must be a number, got NaN")
    if finite and math.isinf(x):
        raise ValueError(f"{name} must be finite, got {x}")
    too_low = low is not None and (x < low or (not low_inclusive and x == low))
    too_high = high is not None and (x > high or (not high_inclusive and x == high))
    if too_low or too_high:
        shown = value if isinstance(value, Fraction) else x
        raise ValueError(f"{name} must {_range_text(low, high, low_inclusive, high_inclusive)}, got {shown}")
    return x


def check_probability(value: Any, name: str) -> float:
    """Check that ``value`` is a probability: a real number in ``[0, 1]``.

    Parameters
    ----------
    value : object
        The argument to check.
    name : str
        Its name, used in the error message.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``value`` is not a real number (see :func:`check_real`).
    ValueError
        If ``value`` is NaN or outside ``[0, 1]``.

    Examples
    --------
    >>> check_probability(1, "p_cut")
    1.0
    >>> check_probability(1.5, "p_cut")
    Traceback (most recent call last):
    ...
    ValueError: p_cut must be a probability in [0, 1], got 1.5
    """
    x = check_real(value, name)
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return x


def check_vertex(v: Any, n: int, name: str = "vertex") -> int:
    """Return ``v`` as a Python int after checking it is a vertex ``0 .. n-1``.

    Parameters
    ----------
    v : object
        The vertex to check.
    n : int
        Number of vertices.
    name : str, default "vertex"
        Its name, used in the error message.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If ``v`` is not an integer (a float such as ``2.0``, a bool, a string).
    ValueError
        If ``v`` is outside ``0 .. n-1``.

    Examples
    --------
    >>> check_vertex(3, 5)
    3
    >>> check_vertex(5, 5, "vertex j")
    Traceback (most recent call last):
    ...
    ValueError: unknown vertex j 5: the graph's vertices are 0..4
    """
    if not is_integer(v):
        raise TypeError(
            f"{name} must be an integer vertex index 0..{n - 1}, got {_describe(v)}; "
            "vertices are numbered by integers, e.g. int(v)"
        )
    if not 0 <= v < n:
        raise ValueError(f"unknown {name} {int(v)}: the graph's vertices are 0..{n - 1}")
    return int(v)


def check_pair(i: Any, j: Any, n: int) -> tuple[int, int]:
    """Check a query pair: two distinct vertices of ``0 .. n-1``.

    Parameters
    ----------
    i, j : object
        The two vertices.
    n : int
        Number of vertices.

    Returns
    -------
    tuple of int

    Raises
    ------
    TypeError
        If ``i`` or ``j`` is not an integer.
    ValueError
        If a vertex is out of range, or ``i == j``.

    Examples
    --------
    >>> check_pair(0, 4, 5)
    (0, 4)
    """
    i = check_vertex(i, n, "vertex i")
    j = check_vertex(j, n, "vertex j")
    if i == j:
        raise ValueError(f"a pair needs two distinct vertices, got i == j == {i}; ask about two different vertices")
    return i, j


def check_path(path: Any, i: int, j: int, n: int | None, name: str = "path") -> tuple[int, ...]:
    """Check a revealed path: a sequence of vertices ``0 .. n-1`` from ``i`` to ``j``.

    Only the endpoints and the vertices are checked here, not that consecutive vertices
    are adjacent (the unknown-graph learners do not know the graph).

    Parameters
    ----------
    path : sequence of int
        The vertices ``i = v_0, v_1, ..., v_k = j``.
    i, j : int
        The pair the path is revealed with.
    n : int or None
        Number of vertices; None when it is not known (then vertices need only be ``>= 0``).
    name : str, default "path"
        Its name, used in the error message.

    Returns
    -------
    tuple of int

    Raises
    ------
    TypeError
        If ``path`` is not a sequence (an int, a string, a set) or holds a non-integer.
    ValueError
        If a vertex is out of range, or the path does not run from ``i`` to ``j``.

    Examples
    --------
    >>> check_path([0, 2, 4], 0, 4, 5)
    (0, 2, 4)
    >>> check_path(5, 0, 4, 5)
    Traceback (most recent call last):
    ...
    TypeError: path must be a sequence of vertices [i, ..., j], got 5 (int); pass e.g. [0, ..., 4]
    """
    if isinstance(path, (str, bytes)) or not isinstance(path, (Sequence, np.ndarray)):
        raise TypeError(
            f"{name} must be a sequence of vertices [i, ..., j], got {_describe(path)}; pass e.g. [{i}, ..., {j}]"
        )
    if n is None:
        p = tuple(check_int(v, f"{name} vertex", low=0) for v in path)
    else:
        p = tuple(check_vertex(v, n, f"{name} vertex") for v in path)
    if len(p) < 2 or p[0] != i or p[-1] != j:
        raise ValueError(f"{name} must start at i={i} and end at j={j} (run from i to j), got {list(p)}")
    return p


def check_similarity_label(y: Any) -> int:
    """Check a similarity label: ``1`` (dissimilar) or ``0`` (similar).

    ``True`` and ``False`` are accepted as ``1`` and ``0``: "are they dissimilar?".

    Parameters
    ----------
    y : int or bool
        The label.

    Returns
    -------
    int
        The label, ``0`` or ``1``.

    Raises
    ------
    TypeError
        If ``y`` is not an integer (a float such as ``0.5`` or ``1.0``, a string).
    ValueError
        If ``y`` is an integer other than 0 and 1.

    Examples
    --------
    >>> check_similarity_label(1)
    1
    """
    if isinstance(y, _BOOLS):
        return int(y)
    if not isinstance(y, (int, np.integer)):
        raise TypeError(
            f"a similarity label must be the integer 0 (similar) or 1 (dissimilar), got {y!r} "
            f"({type(y).__name__}); convert it with int(y)"
        )
    if y not in (0, 1):
        raise ValueError(f"a similarity label must be 0 (similar) or 1 (dissimilar), got {y!r}")
    return int(y)


def check_labels(labels: Any, n: int, num_classes: int | None = None) -> np.ndarray:
    """Check a class labeling of ``n`` vertices and return it as an int64 array.

    Parameters
    ----------
    labels : array_like of int
        ``labels[v]`` is the class of vertex ``v``, an integer in ``0 .. K-1``.
    n : int
        Number of vertices.
    num_classes : int, optional
        If given, every label must be below it.

    Returns
    -------
    numpy.ndarray
        A fresh int64 copy of the labels.

    Raises
    ------
    ValueError
        If the length is not ``n``, a label is not an integer (floats such as ``1.0``,
        bools and strings are refused), is negative, or is ``>= num_classes``.

    Examples
    --------
    >>> check_labels([0, 1, 1], 3)
    array([0, 1, 1])
    >>> check_labels([0.0, 1.0, 1.0], 3)
    Traceback (most recent call last):
    ...
    ValueError: labels must be integers 0..K-1, got dtype float64; convert them with np.asarray(labels).astype(int)
    """
    arr = np.asarray(labels)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(
            f"labels must be a 1-d sequence with one class per vertex (n={n}), got shape {arr.shape}"
        )
    if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "O" and all(is_integer(v) for v in arr)):
        if arr.dtype.kind in "fb":
            fix = "; convert them with np.asarray(labels).astype(int)"
        elif arr.dtype.kind in "USO":
            fix = "; number the classes 0..K-1, e.g. np.unique(labels, return_inverse=True)[1]"
        else:
            fix = ""
        raise ValueError(f"labels must be integers 0..K-1, got dtype {arr.dtype}{fix}")
    arr = arr.astype(np.int64, copy=True)
    if n and arr.min() < 0:
        raise ValueError(f"labels must be non-negative class indices 0..K-1, found {arr.min()}")
    if num_classes is not None and n and arr.max() >= num_classes:
        raise ValueError(f"labels must lie in 0..{num_classes - 1}, found {arr.max()}")
    return arr


def check_memory(n_bytes: Any, what: str, alternative: str, *, limit: int | None = None) -> None:
    """Refuse, *before* allocating, an array larger than ``limit`` bytes.

    numpy's own failure ("Unable to allocate 298. GiB") comes late, says nothing about
    what to do instead, and below the machine's memory a huge allocation may just swap.

    Parameters
    ----------
    n_bytes : int or float
        Size of what is about to be allocated.
    what : str
        What would be allocated, e.g. ``"comparator_matrix: an m x m float matrix"``.
    alternative : str
        What to use instead; ends the error message.
    limit : int, optional
        The limit in bytes; default :data:`MEMORY_LIMIT`.

    Raises
    ------
    MemoryLimitError
        (a ``ValueError`` and a :class:`LearnerGaveUp`) if ``n_bytes > limit``.

    Examples
    --------
    >>> check_memory(8 * 10**3, "a small array", "nothing")
    >>> check_memory(8 * 10**10, "a 10^5 x 10^5 float matrix", "use a sparse solver")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    simpred_lite.checks.MemoryLimitError: a 10^5 x 10^5 float matrix needs 74.5 GiB, ...
    """
    limit = MEMORY_LIMIT if limit is None else limit
    if n_bytes > limit:
        raise MemoryLimitError(
            f"{what} needs {_size(n_bytes)}, more than the {_size(limit)} limit "
            f"(simpred_lite.checks.MEMORY_LIMIT); {alternative}"
        )


def _size(n_bytes: Any) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n_bytes >= scale / 10:
            return f"{n_bytes / scale:.1f} {unit}"
    return f"{int(n_bytes)} bytes"


def check_work(n_steps: Any, what: str, alternative: str, *, limit: int | None = None) -> None:
    """Refuse, *before* starting, a computation of more than ``limit`` elementary steps.

    The time twin of :func:`check_memory`: a call that would run for hours (or never return
    in a notebook) is refused at once, with what it would cost and what to do instead.

    Parameters
    ----------
    n_steps : int or float
        Estimated number of elementary steps (the caller's docstring says what it counts).
    what : str
        What would be computed, e.g. ``"planted_partition(10**6, ...): n(n-1)/2 pair draws"``.
    alternative : str
        What to use instead; ends the error message.
    limit : int, optional
        The limit; default :data:`WORK_LIMIT`.

    Raises
    ------
    WorkLimitError
        If ``n_steps > limit``.

    Examples
    --------
    >>> check_work(10**6, "a small loop", "nothing")
    >>> check_work(10**12, "10^12 pair draws", "use a smaller n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    simpred_lite.checks.WorkLimitError: 10^12 pair draws takes about 1.0e+12 steps, ...
    """
    limit = WORK_LIMIT if limit is None else limit
    if n_steps > limit:
        raise WorkLimitError(
            f"{what} takes about {float(n_steps):.1e} steps, more than the {float(limit):.1e} limit "
            f"(simpred_lite.checks.WORK_LIMIT); {alternative}"
        )


def check_bool(value: Any, name: str) -> bool:
    """Check that ``value`` is ``True`` or ``False`` (a Python or numpy bool, nothing else).

    A string such as ``'no'`` is truthy in Python, so ``if value:`` would read it as True:
    refuse it instead.

    Parameters
    ----------
    value : object
    name : str
        Its name, used in the error message.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        If ``value`` is not a bool (a string, ``0``/``1``, None).

    Examples
    --------
    >>> check_bool(False, "largest_component")
    False
    >>> check_bool("no", "largest_component")
    Traceback (most recent call last):
    ...
    TypeError: largest_component must be True or False, got 'no' (str)
    """
    if not isinstance(value, _BOOLS):
        raise TypeError(f"{name} must be True or False, got {_describe(value)}")
    return bool(value)


def check_choice(value: Any, name: str, choices: Sequence[str]) -> str:
    """Check that ``value`` is one of the strings ``choices`` and return it.

    Parameters
    ----------
    value : Any
    name : str
        The argument's name, for the message.
    choices : sequence of str

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``value`` is not a string.
    ValueError
        If it is a string but not one of ``choices``.

    Examples
    --------
    >>> check_choice("classes", "told", ("classes", "similarity"))
    'classes'
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {tuple(choices)} (a string), got {_describe(value)}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    try:
        return bool(v != v)  # NaN (float, numpy float, pandas NA-like) is not equal to itself
    except (TypeError, ValueError):
        return False


def check_class_values(values: Any, name: str, where: Any = None) -> list:
    """Check raw class values (any hashable) for missing ones: ``None`` or NaN.

    Before classes are numbered ``0 .. K-1`` every distinct value becomes a class; NaN is
    not even equal to itself, so each NaN would become a class of its own, and ``None`` a
    class "None".  A missing label is refused, naming the vertices (rows) that have one.

    Parameters
    ----------
    values : sequence
        One class value per vertex (row).
    name : str
        What the values are, for the message (e.g. ``"labels"``, ``"attribute 'club'"``).
    where : sequence, optional
        The name of each position (original vertex ids); default the positions ``0, 1, ...``.

    Returns
    -------
    list
        ``values`` as a list.

    Raises
    ------
    ValueError
        If a value is None or NaN.

    Examples
    --------
    >>> check_class_values(["a", "b"], "labels")
    ['a', 'b']
    >>> check_class_values(["a", None, float("nan")], "labels")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: labels are missing (None or NaN) at 2 of 3 positions: [1, 2]; give every vertex a class, ...
    """
    values = list(values)
    bad = [k for k, v in enumerate(values) if _is_missing(v)]
    if bad:
        names = bad if where is None else [list(where)[k] for k in bad]
        shown = f"{names[:10]}{' ...' if len(names) > 10 else ''}"
        raise ValueError(
            f"{name} are missing (None or NaN) at {len(bad)} of {len(values)} positions: {shown}; "
            "give every vertex a class, or drop those vertices (rows) first"
        )
    return values


def check_features(X: Any, name: str = "X") -> np.ndarray:
    """Check a real feature matrix ``(n, d)``: numbers, not complex, finite, with finite distances.

    Parameters
    ----------
    X : array_like of shape (n, d)
    name : str, default "X"

    Returns
    -------
    numpy.ndarray
        ``X`` as a float64 array.

    Raises
    ------
    TypeError
        If ``X`` is complex or holds non-numbers (strings, objects).
    ValueError
        If ``X`` is not 2-d, holds NaN or infinity, or values so large (above ``1e150`` in
        magnitude) that squared distances overflow to infinity.

    Examples
    --------
    >>> check_features([[0, 1], [2, 3]]).dtype
    dtype('float64')
    >>> check_features([[1e308], [-1e308]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: X holds values up to 1e+308 in magnitude, beyond 1e150: ...; rescale the features first, ...
    """
    arr = np.asarray(X)
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got complex dtype {arr.dtype}; pass X.real or np.abs(X) explicitly, "
                        "or split real and imaginary parts into two columns")
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be a numeric feature matrix of shape (n, d), got dtype {arr.dtype}") from None
        if arr.dtype.kind != "f":  # pragma: no cover - astype(float) always gives floats
            raise TypeError(f"{name} must be numeric")
    arr = np.asarray(arr, dtype=float)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a feature matrix of shape (n, d), got shape {arr.shape}")
    finite = np.isfinite(arr)
    if not finite.all():
        bad = int(np.argwhere(~finite)[0][0])
        raise ValueError(
            f"{name} holds NaN or infinite values (first in row {bad}); impute them or drop those rows, "
            f"e.g. {name}[np.isfinite({name}).all(axis=1)]"
        )
    top = float(np.abs(arr).max()) if arr.size else 0.0
    if top > _FEATURE_MAX:
        raise ValueError(
            f"{name} holds values up to {top:.3g} in magnitude, beyond 1e150: squared distances overflow; "
            f"rescale the features first, e.g. {name} / np.abs({name}).max()"
        )
    return arr


# |x|^2 summed over d coordinates stays finite for |x| <= 1e150 (1e300 * d < 1.8e308 for d < 1e8)
_FEATURE_MAX = 1e150


def check_num_trials(T: Any, name: str = "T", *, already: int = 0) -> int:
    """Check a number of trials: a non-negative integer whose trials fit in memory.

    Every trial played is kept (the trial, the predictions, the mistake curve), about
    :data:`TRIAL_BYTES` bytes each, so ``T`` is refused *before* anything is drawn when
    ``(already + T) * TRIAL_BYTES`` exceeds :data:`MEMORY_LIMIT`: at most about 2.7 million
    trials in one run.

    Parameters
    ----------
    T : int
        The number of trials asked for.
    name : str, default "T"
        Its name, for the message.
    already : int, default 0
        Trials already kept by the caller (a playground's history).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If ``T`` is not an integer.
    ValueError
        If ``T`` is negative, or the trials would not fit in :data:`MEMORY_LIMIT`.

    Examples
    --------
    >>> check_num_trials(1000)
    1000
    >>> check_num_trials(10**9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    simpred_lite.checks.MemoryLimitError: T=1000000000 trials (about 400 bytes each, kept) needs 372.5 GiB, ...
    """
    T = check_int(T, name, low=0)
    total = already + T
    check_memory(total * TRIAL_BYTES,
                 f"{name}={T} trials" + (f" after the {already} kept" if already else "")
                 + f" (about {TRIAL_BYTES} bytes each, kept)",
                 "play fewer trials (mistake curves flatten long before 10**5 on the package's graphs), "
                 "or several shorter runs with different seeds")
    return T


#: Memory of a networkx graph, measured: about 265 bytes a vertex and 210 an edge (rounded up).
NX_NODE_BYTES, NX_EDGE_BYTES = 300, 250


def check_graph_memory(n: Any, m: Any, what: str, alternative: str) -> None:
    """Refuse, before building it, a networkx graph with ``n`` vertices and ``m`` edges beyond :data:`MEMORY_LIMIT`.

    networkx keeps a dict per vertex and two dict entries per edge: about ``300 n + 250 m``
    bytes, so a 1 GiB limit allows a few million vertices and edges.

    Parameters
    ----------
    n, m : int or float
        Vertices and (expected) edges.
    what : str
        The graph about to be built, for the message.
    alternative : str
        What to do instead; ends the message.

    Raises
    ------
    ValueError
        If ``300 n + 250 m`` bytes exceed :data:`MEMORY_LIMIT`.

    Examples
    --------
    >>> check_graph_memory(100, 200, "a small graph", "nothing")
    >>> check_graph_memory(10**10, 2 * 10**10, "grid_graph(10**5, 10**5)", "use a smaller grid")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    simpred_lite.checks.MemoryLimitError: grid_graph(10**5, 10**5) (a networkx graph, ...
    """
    check_memory(NX_NODE_BYTES * float(n) + NX_EDGE_BYTES * float(m),
                 f"{what} (a networkx graph, n={float(n):.3g} vertices, m={float(m):.3g} edges)", alternative)


def check_simple_path(i: int, j: int, path: Any, n: int) -> tuple[int, ...]:
    """Check that ``path`` is a simple path ``i = v_0, ..., v_k = j`` on vertices ``0..n-1``.

    The graph is unknown, so the edges themselves cannot be checked; what can be checked
    is that the sequence is a *path*: at least one edge, the right endpoints, known
    vertices, and no vertex visited twice (so consecutive vertices are distinct too).

    Parameters
    ----------
    i, j : int
        The pair the path joins.
    path : sequence of int
        The revealed path, ``i`` first and ``j`` last.
    n : int
        Number of vertices.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> check_simple_path(0, 2, [0, 1, 2], n=3)
    (0, 1, 2)
    """
    if path is None:
        raise ValueError(f"a path from i={i} to j={j} is needed in the unknown-graph setting, got None")
    try:
        seq = list(path)
    except TypeError:
        raise TypeError(f"the path must be a sequence of vertices, got {path!r}") from None
    p = tuple(check_vertex(v, n, "path vertex") for v in seq)
    if len(p) < 2:
        raise ValueError(f"a path needs at least one edge (two vertices), got {list(p)}")
    if p[0] != i or p[-1] != j:
        raise ValueError(f"the path must start at i={i} and end at j={j}, got {list(p)}")
    for a, b in zip(p, p[1:]):
        if a == b:
            raise ValueError(f"consecutive path vertices must differ (no self-loops), got {a} twice in {list(p)}")
    if len(set(p)) != len(p):
        seen, dup = set(), None
        for v in p:
            if v in seen:
                dup = v
                break
            seen.add(v)
        raise ValueError(
            f"the revealed sequence visits vertex {dup} twice, so it is a walk, not a path: "
            f"erase its loops first (got {list(p)})"
        )
    return p


def check_trial_vertices(trials: Iterable, n: int) -> None:
    """Raise ``ValueError`` if a trial names a vertex outside ``0 .. n-1``.

    Parameters
    ----------
    trials : iterable of Trial
        Objects with vertex attributes ``i`` and ``j``.
    n : int
        Number of vertices.

    Examples
    --------
    >>> from simpred_lite.game.trials import Trial
    >>> check_trial_vertices([Trial(0, 1, 0)], n=2)
    >>> check_trial_vertices([Trial(0, 5, 0)], n=2)
    Traceback (most recent call last):
    ...
    ValueError: unknown vertex j 5: the graph's vertices are 0..1
    """
    for t in trials:
        check_vertex(t.i, n, "vertex i")
        check_vertex(t.j, n, "vertex j")


def check_class_label(y: Any, K: int | None) -> int:
    """Check a class label: an integer in ``0 .. K-1`` (any ``y >= 0`` when ``K`` is None).

    Parameters
    ----------
    y : int
        The class label to check.
    K : int or None
        Number of classes (``None``: any non-negative integer).

    Examples
    --------
    >>> check_class_label(2, 3)
    2
    """
    if not is_integer(y):
        raise TypeError(f"a class label must be an integer 0..K-1, got {y!r} ({type(y).__name__})")
    if y < 0 or (K is not None and y >= K):
        upper = f"{K - 1}" if K is not None else "K-1"
        raise ValueError(f"class label {y} is outside 0..{upper}; classes are numbered from 0")
    return int(y)


def check_class_learner(obj: Any, name: str = "classifier") -> Any:
    """Raise ``TypeError`` unless ``obj`` follows the class-prediction protocol.

    The protocol: ``predict_class(x)``, ``learn_class(x, y)``, an integer ``mistakes``
    and the number ``n`` of patterns (vertices).

    Parameters
    ----------
    obj : object
        The would-be class learner.
    name : str, default "classifier"
        Its name in the error message.

    Examples
    --------
    >>> from simpred_lite.learners import MemorizingClassifier
    >>> check_class_learner(MemorizingClassifier(3, 2)).n
    3
    """
    missing = [a for a in ("predict_class", "learn_class", "mistakes", "n") if not hasattr(obj, a)]
    if missing:
        raise TypeError(
            f"{name} {type(obj).__name__} does not follow the class-prediction protocol: it lacks "
            f"{', '.join(missing)}; subclass simpred_lite.learners.ClassLearner and implement "
            "_predict_class(x) and _learn_class(x, y, y_hat)"
        )
    return obj


def check_edge_limit(m: int, what: str, limit: int, alternative: str) -> None:
    """Refuse a dense reference on a graph with more than ``limit`` edges.

    Parameters
    ----------
    m : int
        The graph's number of edges.
    what : str
        The reference refusing, for the message.
    limit : int
        The largest ``m`` it accepts.
    alternative : str
        What to use instead; ends the message.

    Raises
    ------
    ValueError
        If ``m > limit``.

    Examples
    --------
    >>> check_edge_limit(10, "MatrixWinnowReference", 1024, "use MatrixWinnow")
    >>> check_edge_limit(2000, "MatrixWinnowReference", 1024, "use MatrixWinnow")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: MatrixWinnowReference is a dense reference limited to m <= 1024 edges, but this graph has m=2000; ...
    """
    if m > limit:
        raise ValueError(f"{what} is a dense reference limited to m <= {limit} edges, but this graph has m={m}; "
                         f"{alternative}")


def check_winnow_params(cut_size: Any, eta: Any) -> tuple[float, float]:
    """Check Matrix Winnow's cut size ``|Phi|`` and learning rate ``eta``: positive finite numbers.

    Parameters
    ----------
    cut_size : number
        ``|Phi|``, which the threshold divides by (the footnote of Algorithm 1); not ``None``, not 0.
    eta : number
        The learning rate.

    Returns
    -------
    (float, float)
        ``cut_size`` and ``eta`` as floats.

    Examples
    --------
    >>> check_winnow_params(2, 1.28)
    (2.0, 1.28)
    >>> check_winnow_params(None, 1.28)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Matrix Winnow's threshold needs the cut size |Phi| (footnote of Algorithm 1): ...
    """
    if cut_size is None:
        raise ValueError(
            "Matrix Winnow's threshold needs the cut size |Phi| (footnote of Algorithm 1): "
            "pass cut_size=simpred_lite.cut_size(G, labels), or bst.cut_size(labels) on a BST"
        )
    if is_integer(cut_size) and cut_size == 0:
        raise ValueError(
            "cut_size is 0: the labelling has one class (no cut edge joins two classes), so every pair is "
            "similar and Matrix Winnow's threshold, which divides by |Phi|, is undefined; give labels with at "
            "least two classes joined by an edge (or play 'AlwaysSimilar', which never errs on one class)"
        )
    return (check_real(cut_size, "cut_size", low=0, low_inclusive=False),
            check_real(eta, "eta", low=0, low_inclusive=False))


def check_edge_list(text: Any, name: str = "edge list", *, max_vertices: int = 8,
                    max_edges: int = 12) -> list[tuple[int, int]]:
    """Parse a small connected simple graph typed as ``"0-1 1-2 2-0 2-3"``.

    Edges are separated by spaces or commas, each written ``u-v`` with whole numbers; the
    vertices must be ``0, ..., n-1`` with ``n <= max_vertices``, all of them reached (the graph
    connected), no self-loop, no edge twice, at most ``max_edges`` edges.

    Parameters
    ----------
    text : str
        The edge list.
    name : str, default "edge list"
        The argument's name, for the messages.
    max_vertices, max_edges : int, default 8 and 12
        The size limits.

    Returns
    -------
    list of tuple of int
        The edges ``(u, v)`` in the order typed.

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    ValueError
        With a sentence saying what is wrong and how to fix it.

    Examples
    --------
    >>> check_edge_list("0-1 1-2, 2-0 2-3")
    [(0, 1), (1, 2), (2, 0), (2, 3)]
    >>> check_edge_list("0-0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: edge list: 0-0 is a self-loop ...
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string such as '0-1 1-2 2-0', got {_describe(text)}")
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise ValueError(f"{name} is empty: type edges such as '0-1 1-2 2-0 2-3' (u-v, separated by spaces)")
    edges: list[tuple[int, int]] = []
    seen: set[frozenset[int]] = set()
    for tok in tokens:
        parts = tok.split("-")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise ValueError(f"{name}: {tok!r} is not an edge; write each edge as two vertex numbers joined by "
                             "'-', such as 0-1")
        u, v = int(parts[0]), int(parts[1])
        if u == v:
            raise ValueError(f"{name}: {tok} is a self-loop (a vertex joined to itself); remove it")
        if max(u, v) >= max_vertices:
            raise ValueError(f"{name}: vertex {max(u, v)} is too large; use at most {max_vertices} vertices, "
                             f"numbered 0 to {max_vertices - 1}")
        if frozenset((u, v)) in seen:
            raise ValueError(f"{name}: the edge {tok} is listed twice; keep it once")
        seen.add(frozenset((u, v)))
        edges.append((u, v))
    if len(edges) > max_edges:
        raise ValueError(f"{name} has {len(edges)} edges, too many; use at most {max_edges}")
    n = max(max(e) for e in edges) + 1
    graph = nx.Graph(edges)
    graph.add_nodes_from(range(n))  # a skipped vertex number is a piece of its own
    pieces = nx.number_connected_components(graph)
    if pieces > 1:
        raise ValueError(f"{name}: the graph on vertices 0 to {n - 1} is not connected ({pieces} pieces); "
                         "add edges so that every vertex is reached")
    return edges
