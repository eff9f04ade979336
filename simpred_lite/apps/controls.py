"""Input widgets that refuse a bad value with a sentence instead of clamping it or failing obscurely.

ipywidgets' ``BoundedIntText`` silently clamps (a seed of ``99999999999`` becomes the maximum,
``0`` steps become ``1``), its ``IntText`` drops a ``.`` typed in the browser (``2.5`` becomes
``25``), and a ``Dropdown`` answers a value outside its options with traitlets' bare "Invalid
selection: value not found".  The apps use the two classes below instead (a text box and a
dropdown that look the same):

* set from Python (``app.seed.value = -1``), a bad value raises ``ValueError`` naming the
  box, the allowed values and the fix, and the app shows the same sentence in its message
  area;
* typed by the student in the browser, the box goes back to its previous value and the
  sentence is shown in the app's message area (no exception reaches the kernel log).
"""

from __future__ import annotations

import html
import numbers
import re

import ipywidgets as W
from ipywidgets.widgets.widget import CallbackDispatcher
from traitlets import Any, validate

__all__ = ["BrowserClickButton", "CheckedIntText", "CheckedDropdown", "FOCUS_CSS", "focus_style", "from_browser",
           "refusal_to_status"]


def refusal_to_status(app):
    """An ``on_invalid`` callback that shows the refusal in ``app.status`` (an HTML widget).

    Parameters
    ----------
    app : object
        An app with (eventually) a ``status`` HTML widget; nothing is shown before it exists.

    Examples
    --------
    >>> class App: status = W.HTML()
    >>> app = App(); refusal_to_status(app)("seed must lie in 0..10")
    >>> app.status.value
    'Not changed: seed must lie in 0..10.'
    """

    def show(message: str) -> None:
        status = getattr(app, "status", None)
        if status is not None:
            status.value = f"Not changed: {html.escape(message)}."

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


class CheckedIntText(W.Text):
    """An integer box for ``low .. high`` that refuses, never clamps, a value outside or a non-integer.

    The box is a text field (ipywidgets' own integer box silently drops a ``.`` typed in the
    browser, so that ``2.5`` became ``25``): what the student types reaches the kernel as
    text, a whole number in range is taken, anything else is refused with a sentence and the
    box goes back to its previous value.  From Python, ``value`` is always an ``int`` and only
    an integer (not a ``bool``, a float or a string) may be assigned.

    Parameters
    ----------
    low, high : int
        The allowed values, inclusive.
    on_invalid : callable ``str -> None``, optional
        Called with the sentence to show the student when a value is refused.
    hint : str, optional
        How to fix it, appended to the sentence.
    **kwargs
        Passed to :class:`ipywidgets.Text` (``value``, ``description``, ...); the value is
        sent when the student presses Enter or leaves the box (``continuous_update=False``).

    Examples
    --------
    >>> box = CheckedIntText(low=1, high=2000, value=20, description="steps")
    >>> box.value = 0
    Traceback (most recent call last):
    ...
    ValueError: steps must lie in 1..2000, got 0; the box keeps 20
    >>> box.set_state({"value": "2.5"})      # what the browser sends when the student types 2.5
    >>> box.value
    20
    >>> box.set_state({"value": " 35 "}); box.value
    35
    """

    value = Any(0, help="The integer in the box").tag(sync=True)

    def __init__(self, *, low: int, high: int, on_invalid=None, hint: str = "", **kwargs):
        self._low, self._high, self._on_invalid, self._hint = low, high, on_invalid, hint
        kwargs.setdefault("continuous_update", False)
        super().__init__(**kwargs)

    @validate("value")
    def _check_value(self, proposal):
        value = proposal["value"]
        low, high = self._low, self._high
        kept = getattr(self, "_accepted", low)  # self.value may already hold the refused value here
        name = self.description or "the value"
        browser = from_browser(self, "value")
        if browser and isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            value = int(value)
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            value = int(value)
            if low <= value <= high:
                self._accepted = value
                return value
            message = f"{name} must lie in {low}..{high}, got {value}; the box keeps {kept}{self._hint}"
        else:
            message = (f"{name} must be a whole number in {low}..{high}, got {value!r}; "
                       f"the box keeps {kept}{self._hint}")
        if self._on_invalid is not None:
            self._on_invalid(message)
        if browser:
            return kept  # keep the previous value; ipywidgets sends it back to the browser
        raise ValueError(message)


class CheckedDropdown(W.Dropdown):
    """A dropdown whose value outside its options raises a ``ValueError`` that lists them.

    Parameters
    ----------
    on_invalid : callable ``str -> None``, optional
        Called with the sentence to show the student when a value is refused.
    **kwargs
        Passed to :class:`ipywidgets.Dropdown`.

    Examples
    --------
    >>> d = CheckedDropdown(options=["grid", "barbell"], value="grid", description="graph")
    >>> d.value = "karate"
    Traceback (most recent call last):
    ...
    ValueError: graph must be one of ['grid', 'barbell'], got 'karate'; the choice stays 'grid'
    """

    def __init__(self, *, on_invalid=None, **kwargs):
        self._on_invalid = on_invalid
        super().__init__(**kwargs)
        self.observe(self._refuse_none, names="value")

    def _refuse_none(self, change):
        """Undo ``value = None`` while there are options (traitlets skips validators for None).

        ``None`` stays when the options are empty (nothing to choose) or when the old value is
        gone from the options (ipywidgets passes through ``None`` while options are swapped);
        and only while ``None`` is still the current value, so a later valid value is kept.
        """
        old = change["old"]
        current = self.get_state("index")["index"]   # None exactly when the value is None
        if (change["new"] is not None or current is not None or old is None or not self._options_values
                or not any(self.equals(old, v) for v in self._options_values)):
            return
        message = (f"{self.description or 'the choice'} must be one of {list(self._options_values)}, "
                   f"got None; the choice stays {old!r}")
        if getattr(self, "_on_invalid", None) is not None:
            self._on_invalid(message)
        self.value = old

    @validate("value")
    def _validate_value(self, proposal):
        value = proposal["value"]
        if value is None or any(self.equals(value, v) for v in self._options_values):
            return super()._validate_value(proposal)
        message = (f"{self.description or 'the choice'} must be one of {list(self._options_values)}, "
                   f"got {value!r}; the choice stays {self.value!r}")
        if getattr(self, "_on_invalid", None) is not None:
            self._on_invalid(message)
        raise ValueError(message)


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
