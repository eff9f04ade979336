"""The conda environment and pyproject.toml must list the same packages (no conda runs here)."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject_packages() -> set[str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(meta["dependencies"])
    for extra in meta["optional-dependencies"].values():
        reqs += extra
    return {_name(r) for r in reqs}


def _conda_packages() -> set[str]:
    names = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        m = re.match(r"^\s{2}-\s+([A-Za-z0-9_.\-]+)", line)  # top-level dependency entries only
        if m and m.group(1) not in {"python", "pip"}:
            names.add(_name(m.group(1)))
    return names


def test_environment_yml_lists_the_same_packages_as_pyproject():
    py, conda = _pyproject_packages(), _conda_packages()
    assert py == conda, f"only in pyproject: {sorted(py - conda)}; only in environment.yml: {sorted(conda - py)}"


def test_environment_yml_installs_the_package_itself():
    assert re.search(r"^\s+-\s+-e\s+\.\s*$", (ROOT / "environment.yml").read_text(), re.M)


def test_constraints_pin_the_packages_whose_reprs_are_stored():
    pins = {
        _name(line): line.split("==")[1].strip()
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    for pkg in ("matplotlib", "matplotlib-inline", "ipywidgets", "ipykernel", "numpy", "nbval"):
        assert pkg in pins, f"{pkg} must be pinned in constraints.txt"


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "make test" in ci and "make test" in readme and "make lab" in readme
    assert "--nbval-lax" not in (ROOT / "Makefile").read_text()
