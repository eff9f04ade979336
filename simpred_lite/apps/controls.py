"""Input widgets that refuse a bad value with a sentence instead of clamping it or failing obscurely.

ipywidgets' ``BoundedIntText`` silently clamps (a seed of ``99999999999`` becomes the maximum,
``0`` steps become ``1``), its ``IntText`` lets the browser turn a typed ``2.5`` into ``25``,
and a ``Dropdown`` or ``SelectMultiple`` answers a value outside its options with traitlets' bare
"Invalid selection: value not found".  Every integer box of the apps is a :class:`WholeNumberText`,
every choice a :class:`CheckedDropdown` and every multiple choice a :class:`CheckedSelectMultiple`:

* set from Python (``app.seed.value = -1``), a bad value raises ``ValueError`` naming the
  box, the allowed values and the fix, and the app shows the same sentence in its message
  area;
* typed by the student in the browser, the box goes back to its previous value and the
  sentence is shown in the app's message area (no exception reaches the kernel log).

The sentence on the status line (:func:`refusal_note`) says that it is about the refused entry
and goes at the app's next successful action (:func:`clear_refusal_on_actions`): re-selecting
the value already chosen sends nothing to the kernel, so it cannot be what clears it.
"""

from __future__ import annotations

import html
import math
import numbers
import re

import ipywidgets as W
import numpy as np
from ipywidgets.widgets.widget import CallbackDispatcher
from traitlets import TraitType, validate
from traitlets.utils.bunch import Bunch

__all__ = ["BrowserClickButton", "WholeNumberText", "CheckedDropdown", "CheckedSelectMultiple", "FOCUS_CSS",
           "focus_style", "from_browser", "refusal_to_status", "refusal_note", "show_refusal", "clear_refusal",
           "clear_refusal_on_actions", "REFUSAL_NOTE_END"]


#: Follows every refusal sentence on a status line: the note is about the refused entry, and it
#: stays only until the app's next successful action (re-selecting the value already chosen sends
#: nothing to the kernel, so the note has to say what it refers to).
REFUSAL_NOTE_END = " (This note is about the refused entry only; your next valid choice or button press clears it.)"


def refusal_note(message: str) -> str:
    """The status-line note for a refused entry: ``Not changed: <message>.`` and :data:`REFUSAL_NOTE_END`.

    Parameters
    ----------
    message : str
        The refusal sentence of the control (plain text; it is HTML-escaped).

    Examples
    --------
    >>> refusal_note("seed must lie in 0..10").split(" (")[0]
    'Not changed: seed must lie in 0..10.'
    """
    return f"Not changed: {html.escape(message)}.{REFUSAL_NOTE_END}"


def show_refusal(app, note: str, write=None) -> None:
    """Show ``note`` on ``app.status`` and remember it until :func:`clear_refusal`.

    The status shown before the first of a run of refusals is kept, so that clearing the note
    after an action that does not rewrite the status puts it back.

    Parameters
    ----------
    app : object
        An app with a ``status`` HTML widget.
    note : str
        The HTML note (see :func:`refusal_note`).
    write : callable, optional
        Writes a status that contains ``note`` (e.g. below a header); by default the status
        becomes ``note``.

    Examples
    --------
    >>> class App: status = W.HTML("Stage 2 of 5.")
    >>> app = App(); show_refusal(app, refusal_note("seed must lie in 0..10"))
    >>> app.status.value.startswith("Not changed: seed"), app._status_before_refusal
    (True, 'Stage 2 of 5.')
    """
    status = app.status
    shown = getattr(app, "_refusal_note", None)
    if shown is None or shown not in status.value:
        app._status_before_refusal = status.value
    app._refusal_note = note
    if write is None:
        status.value = note
    else:
        write()


def clear_refusal(app) -> bool:
    """Remove the refusal note of ``app`` from its status if it is still there; returns whether it was.

    An app may define ``_restore_status()`` to redraw its status; otherwise a status that is the
    note alone goes back to the status before the refusal, and a note inside a longer status
    is cut out of it.

    Parameters
    ----------
    app : object
        An app with a ``status`` HTML widget whose refusals were shown by :func:`show_refusal`.

    Examples
    --------
    >>> class App: status = W.HTML("Stage 2 of 5.")
    >>> app = App(); show_refusal(app, refusal_note("seed must lie in 0..10"))
    >>> clear_refusal(app), app.status.value, clear_refusal(app)
    (True, 'Stage 2 of 5.', False)
    """
    note = getattr(app, "_refusal_note", None)
    app._refusal_note = None
    status = getattr(app, "status", None)
    if note is None or status is None or note not in status.value:
        return False
    restore = getattr(app, "_restore_status", None)
    if restore is not None:
        restore()
    elif status.value == note:
        status.value = getattr(app, "_status_before_refusal", "")
    else:
        status.value = status.value.replace("<br>" + note, "").replace(note, "")
    return True


def _controls(widget):
    """Every widget in the tree of ``widget`` (boxes are walked through)."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _controls(child)


_DISPLAY_ONLY = (W.HTML, W.HTMLMath, W.Label, W.IntProgress, W.FloatProgress)


def clear_refusal_on_actions(app) -> None:
    """After every successful action of ``app``, its refusal note goes (see :func:`clear_refusal`).

    A successful action is a press of any button in ``app.widget`` or a real change of any
    control's value (not a refused value undone, nor ``None`` set and undone).  Call it at the
    end of the app's ``__init__``: the hooks then run after the app's own callbacks, so a note
    the action did not already replace is removed.

    Parameters
    ----------
    app : object
        An app with a ``widget`` (its box of controls) and a ``status`` HTML widget.

    Examples
    --------
    >>> class App:
    ...     def __init__(self):
    ...         self.status = W.HTML("Pick a graph.")
    ...         self.pick = CheckedDropdown(options=["a", "b"], value="a", description="graph",
    ...                                     on_invalid=refusal_to_status(self))
    ...         self.widget = W.VBox([self.pick, self.status])
    ...         clear_refusal_on_actions(self)
    >>> app = App(); app.pick.set_state({"index": None})  # the browser clears the choice
    >>> app.status.value.startswith("Not changed: graph must be one of"), app.pick.value
    (True, 'a')
    >>> app.pick.value = "b"; app.status.value
    'Pick a graph.'
    """

    def on_change(change) -> None:
        new, old = change["new"], change["old"]
        if new is not None and old is not None and not _same(new, old):
            clear_refusal(app)

    for w in _controls(app.widget):
        if isinstance(w, W.Button):
            w.on_click(lambda _: clear_refusal(app))
            if isinstance(w, BrowserClickButton) and w._browser_handlers.callbacks:
                # a click in the browser may start a thread that writes the status: clear first
                w._browser_handlers.callbacks.insert(0, lambda _: clear_refusal(app))
        elif isinstance(w, W.ValueWidget) and not isinstance(w, _DISPLAY_ONLY):
            w.observe(on_change, names="value")


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # e.g. arrays: not one truth value
        return a is b


def refusal_to_status(app):
    """An ``on_invalid`` callback that shows the refusal in ``app.status`` (an HTML widget).

    The note (:func:`refusal_note`) stays until the app's next successful action when the app
    calls :func:`clear_refusal_on_actions`.

    Parameters
    ----------
    app : object
        An app with (eventually) a ``status`` HTML widget; nothing is shown before it exists.

    Examples
    --------
    >>> class App: status = W.HTML()
    >>> app = App(); refusal_to_status(app)("seed must lie in 0..10")
    >>> app.status.value.split(" (")[0]
    'Not changed: seed must lie in 0..10.'
    """

    def show(message: str) -> None:
        if getattr(app, "status", None) is not None:
            show_refusal(app, refusal_note(message))

    return show


def from_browser(widget, name: str) -> bool:
    """Whether the change of trait ``name`` being validated or observed came from the browser.

    ipywidgets holds a lock on a trait while it applies a value sent by the front end (and
    while its observers run); a value set from Python holds no lock.

    Parameters
    ----------
    widget : ipywidgets.Widget
    name : str
        The trait, e.g. ``"value"``.

    Examples
    --------
    >>> box = W.Text(); box.value = "0 3"; from_browser(box, "value")
    False
    """
    return name in getattr(widget, "_property_lock", {})


class _WholeNumberValue(TraitType):
    """The ``value`` trait of :class:`WholeNumberText`: an ``int`` in Python, text in the browser.

    It lets through any int (numpy's too, as a Python ``int``) and any text, unjudged: the
    box's validator judges it, so that a refusal typed in the browser (held by ipywidgets
    while it applies the value) can put the previous number back and send it to the page.
    """

    default_value = 0
    info_text = "a whole number (or its text)"

    def validate(self, obj, value):
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return int(value)
        return value if isinstance(value, str) else str(value)  # judged (and refused) by the box


def _number_to_text(value, widget) -> str:
    return str(value)


class WholeNumberText(W.Text):
    """A box for a whole number in ``low .. high`` that refuses, never rounds or clamps, anything else.

    The page shows a plain text box (not a number box: a browser turns a typed ``2.5`` into
    ``25`` or ``2`` in a number box before the kernel sees it).  The kernel receives the text as
    typed, when the student presses Enter or leaves the box, and refuses ``2.5``, ``1e3``, an
    empty box, letters and a number outside ``low .. high``:

    * set from Python (``app.seed.value = -1``), a bad value raises ``ValueError`` naming the
      box, the allowed values and what the box keeps, and ``on_invalid`` (the app's status
      line) gets the same sentence;
    * typed in the browser, the box goes back to its previous number and the sentence is
      shown through ``on_invalid`` (no exception reaches the kernel log).

    ``value`` is always an ``int``; an integer or the text of one (``" 7 "``) may be assigned.

    Parameters
    ----------
    low, high : int
        The allowed values, inclusive.
    on_invalid : callable ``str -> None``, optional
        Called with the sentence to show the student when a value is refused.
    hint : str, optional
        How to fix it, appended to the sentence.
    **kwargs
        Passed to :class:`ipywidgets.Text` (``value``, ``description``, ...).

    Examples
    --------
    >>> box = WholeNumberText(low=1, high=30, value=10, description="k")
    >>> box.value = 2.5
    Traceback (most recent call last):
    ...
    ValueError: k must be a whole number in 1..30, got '2.5' (it is not rounded); the box keeps 10
    >>> box.value = 31
    Traceback (most recent call last):
    ...
    ValueError: k must lie in 1..30, got 31; the box keeps 10
    >>> box.value = " 7 "; box.value
    7
    """

    value = _WholeNumberValue(help="the whole number").tag(sync=True, to_json=_number_to_text)

    def __init__(self, *, low: int, high: int, on_invalid=None, hint: str = "", **kwargs):
        self._low, self._high, self._on_invalid, self._hint = low, high, on_invalid, hint
        self._accepted = low
        kwargs.setdefault("value", low)
        kwargs.setdefault("continuous_update", False)  # judge the number once typed, not "2." on the way
        super().__init__(**kwargs)

    @validate("value")
    def _check_value(self, proposal):
        value = proposal["value"]
        low, high = self._low, self._high  # set before ipywidgets applies the first value
        kept, name = self._accepted, self.description or "the value"
        text = str(value).strip()
        if isinstance(value, int):
            number = value
        elif re.fullmatch(r"[+-]?[0-9]+", text):
            number = int(text)
        else:
            number = None
        if number is None:
            note = _why_not_whole(text)
            message = (f"{name} must be a whole number in {low}..{high}, got {text!r}{note}; "
                       f"the box keeps {kept}{self._hint}")
        elif low <= number <= high:
            self._accepted = number
            return number
        else:
            message = f"{name} must lie in {low}..{high}, got {number}; the box keeps {kept}{self._hint}"
        if self._on_invalid is not None:
            self._on_invalid(message)
        if from_browser(self, "value"):
            return kept  # keep the previous number; ipywidgets sends it back to the browser
        raise ValueError(message)


def _why_not_whole(text: str) -> str:
    """The clause that says why ``text`` is no whole number: a fraction is not rounded, ``"3.0"`` or
    ``"1e1"`` must be written as digits; letters or an empty box need no clause (``""``)."""
    try:
        number = float(text)
    except ValueError:
        return ""
    if not math.isfinite(number):
        return ""
    return " (write it with digits only)" if number.is_integer() else " (it is not rounded)"


class CheckedDropdown(W.Dropdown):
    """A dropdown whose value outside its options raises a ``ValueError`` that lists them.

    Parameters
    ----------
    on_invalid : callable ``str -> None``, optional
        Called with the sentence to show the student when a value is refused.
    options_text : str, optional
        A short description of the options used in the refusal sentence instead of their full
        list (for long option lists, e.g. ``"a vertex number 0..33"``).
    **kwargs
        Passed to :class:`ipywidgets.Dropdown`.

    Examples
    --------
    >>> d = CheckedDropdown(options=["grid", "barbell"], value="grid", description="graph")
    >>> d.value = "karate"
    Traceback (most recent call last):
    ...
    ValueError: graph must be one of ['grid', 'barbell'], got 'karate'; the choice stays 'grid'
    >>> v = CheckedDropdown(options=list(range(34)), value=0, description="vertex i",
    ...                     options_text="a vertex number 0..33")
    >>> v.value = "a"
    Traceback (most recent call last):
    ...
    ValueError: vertex i must be a vertex number 0..33, got 'a'; the choice stays 0
    """

    def __init__(self, *, on_invalid=None, options_text: str | None = None, **kwargs):
        self._on_invalid = on_invalid
        self._options_text = options_text
        super().__init__(**kwargs)
        self.observe(self._refuse_none, names="value")

    def _must_be(self) -> str:
        """``<description> must be <the options>`` for a refusal sentence."""
        options = getattr(self, "_options_text", None) or f"one of {list(self._options_values)}"
        return f"{self.description or 'the choice'} must be {options}"

    def _refuse_none(self, change):
        """Undo ``value = None`` while there are options, and raise like any refused value.

        Traitlets skips validators for ``None``, so it is refused here, after the fact: the old
        choice is restored and the student is told why.  Set from Python, a ``ValueError`` then
        reaches the code that set ``None``; from the browser (whose messages ipywidgets applies
        under a property lock) the status line alone says it, not an error in the kernel's log.
        ``None`` stays when the options are empty (nothing to choose) or when the old value is
        gone from the options (ipywidgets passes through ``None`` while options are swapped);
        and only while ``None`` is still the current value, so a later valid value is kept.
        """
        old = change["old"]
        current = self.get_state("index")["index"]   # None exactly when the value is None
        if (change["new"] is not None or current is not None or old is None or not self._options_values
                or not any(self.equals(old, v) for v in self._options_values)):
            return
        message = f"{self._must_be()}, got None; the choice stays {old!r}"
        if getattr(self, "_on_invalid", None) is not None:
            self._on_invalid(message)
        self.value = old
        if not self._property_lock:  # set from Python; from the browser the status line is the answer
            raise ValueError(message)

    @validate("value")
    def _validate_value(self, proposal):
        value = proposal["value"]
        # True == 1 in Python: a boolean is a choice only where the options hold booleans
        is_bool = isinstance(value, (bool, np.bool_))
        if value is None or any(self.equals(value, v) and (not is_bool or isinstance(v, (bool, np.bool_)))
                                for v in self._options_values):
            return super()._validate_value(proposal)
        message = f"{self._must_be()}, got {value!r}; the choice stays {self.value!r}"
        if getattr(self, "_on_invalid", None) is not None:
            self._on_invalid(message)
        raise ValueError(message)


class _UnjudgedValue(TraitType):
    """The ``value`` trait of :class:`CheckedSelectMultiple`: anything, ``None`` included, reaches its
    validator, which turns it into a tuple or refuses it with a sentence (SelectMultiple's own tuple
    trait would answer a string, a number or ``None`` with a bare ``TraitError``)."""

    info_text = "a tuple of options"

    def validate(self, obj, value):
        return value


class CheckedSelectMultiple(W.SelectMultiple):
    """A multiple choice whose value outside its options raises a ``ValueError`` that lists them.

    The value is a tuple (or list) of options; a single string is refused too (``("grid",)``,
    not ``"grid"``: a string is not read letter by letter).  Only code can set such a value;
    the browser sends indices of the options shown.

    Parameters
    ----------
    on_invalid : callable ``str -> None``, optional
        Called with the sentence to show the student when a value is refused.
    **kwargs
        Passed to :class:`ipywidgets.SelectMultiple`.

    Examples
    --------
    >>> s = CheckedSelectMultiple(options=["a", "b"], value=("a",), description="learners")
    >>> s.value = ["b", "a"]
    >>> s.value
    ('b', 'a')
    >>> s.value = ("a", "Foo")
    Traceback (most recent call last):
    ...
    ValueError: learners must each be one of ['a', 'b'], got 'Foo'; the choice stays ('b', 'a')
    >>> s.value = ("a", "a")
    Traceback (most recent call last):
    ...
    ValueError: learners lists 'a' twice: choose each once; the choice stays ('b', 'a')
    """

    value = _UnjudgedValue((), help="Selected values")

    def __init__(self, *, on_invalid=None, **kwargs):
        self._on_invalid = on_invalid
        super().__init__(**kwargs)

    def _refuse(self, message: str) -> None:
        if getattr(self, "_on_invalid", None) is not None:
            self._on_invalid(message)
        raise ValueError(message)

    @validate("value")
    def _validate_value(self, proposal):
        value = proposal["value"]
        name = self.description or "the choice"
        options = list(self._options_values)
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            example = tuple(options[:1])
            self._refuse(f"{name} takes a tuple of options, e.g. {example!r}, got {value!r}; "
                         f"the choice stays {tuple(self.value)!r}")
        value = tuple(value)
        for k, v in enumerate(value):
            if not any(self.equals(v, o) for o in options):
                self._refuse(f"{name} must each be one of {options}, got {v!r}; "
                             f"the choice stays {tuple(self.value)!r}")
            if any(self.equals(v, w) for w in value[:k]):  # the browser cannot send a repeat; code can
                self._refuse(f"{name} lists {v!r} twice: choose each once; the choice stays {tuple(self.value)!r}")
        return super()._validate_value(Bunch(proposal, value=value))  # the options' own objects


class BrowserClickButton(W.Button):
    """A button whose click in the browser may start a long action in the background.

    In a Jupyter kernel a widget callback blocks the kernel: while it runs, no other click
    (a **Stop**) is even read.  A long action started by a click in the browser therefore
    runs in a thread (the pattern of ipywidgets' "Asynchronous widgets" documentation; with
    ipykernel 7 an asyncio task started from a callback is not resumed until the next cell,
    ipykernel#1510), while ``.click()`` from Python keeps calling the ``on_click`` callbacks
    synchronously, so that a notebook cell that drives the app sees the result at once and
    strict nbval stays deterministic.

    Parameters
    ----------
    **kwargs
        Passed to :class:`ipywidgets.Button`.

    Examples
    --------
    >>> b = BrowserClickButton(description="Play")
    >>> b.on_click(lambda _: print("from Python")); b.on_browser_click(lambda _: print("from the browser"))
    >>> b.click()
    from Python
    >>> b._handle_button_msg(None, {"event": "click"}, [])   # what a click in the browser sends
    from the browser
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._browser_handlers = CallbackDispatcher()

    def on_browser_click(self, callback, remove: bool = False) -> None:
        """Run ``callback(button)`` instead of the ``on_click`` callbacks when the click comes from the browser.

        Parameters
        ----------
        callback : callable
        remove : bool
            Unregister ``callback`` instead.
        """
        self._browser_handlers.register_callback(callback, remove=remove)

    def _handle_button_msg(self, _, content, buffers):
        if content.get("event", "") == "click":
            if self._browser_handlers.callbacks:
                self._browser_handlers(self)
            else:
                self.click()


#: A visible focus ring on every control reached with the keyboard (JupyterLab's own is a thin,
#: pale line on buttons); the Voilà template carries the same rule.
FOCUS_CSS = (".jupyter-widgets :focus-visible, .jupyter-widgets:focus-visible "
             "{outline: 3px solid #1a5fb4 !important; outline-offset: 2px;}")


def focus_style() -> W.HTML:
    """An invisible widget that carries :data:`FOCUS_CSS`; put it in an app's box.

    Examples
    --------
    >>> "outline: 3px" in focus_style().value
    True
    """
    return W.HTML(f"<style>{FOCUS_CSS}</style>", layout=W.Layout(display="none"))
