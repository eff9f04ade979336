"""Coursework tooling of simpred_lite (not part of the installed package): the nbgrader course
(``course``), its preprocessors (``nbgrader_plugins``) and the exercise bench (``bench/``)."""
