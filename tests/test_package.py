"""The package's shape: lazy views, the layers, one home per public name, documented names."""

import importlib
import inspect
import pkgutil
import subprocess
import sys

import pytest

import simpred_lite


def test_importing_the_package_loads_no_views_and_no_dense_linear_algebra():
    # matplotlib/ipywidgets load with simpred_lite.viz/apps; scipy.linalg and scipy.sparse.linalg on first use
    code = (
        "import sys, simpred_lite, simpred_lite.learners, simpred_lite.game, simpred_lite.theory\n"
        "heavy = ('matplotlib', 'ipywidgets', 'scipy.linalg', 'scipy.sparse.linalg')\n"
        "bad = sorted(m for m in heavy if m in sys.modules)\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_star_import_is_as_light_as_import():
    # `from simpred_lite import *` imports every name of __all__: the views must not be among them
    code = (
        "import sys\n"
        "from simpred_lite import *  # noqa: F403\n"
        "print(','.join(sorted(m for m in ('matplotlib', 'ipywidgets') if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"`from simpred_lite import *` loads {out.stdout.strip()}"
    assert "viz" not in simpred_lite.__all__ and "apps" not in simpred_lite.__all__


def test_viz_and_apps_load_on_first_use():
    assert simpred_lite.viz.__name__ == "simpred_lite.viz"
    assert simpred_lite.apps.__name__ == "simpred_lite.apps"
    with pytest.raises(AttributeError):
        simpred_lite.plotting  # noqa: B018 - the old module is gone, no shim


MODULES = sorted(
    info.name for info in pkgutil.walk_packages(simpred_lite.__path__, "simpred_lite.") if not info.ispkg
)


def _public(module):
    for name in getattr(module, "__all__", []):
        obj = getattr(module, name)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module.__name__:
            yield name, obj


def _takes_arguments(obj) -> bool:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return False
    return any(p.name not in ("self", "cls") for p in sig.parameters.values())


def test_every_learner_is_importable_from_learners():
    from simpred_lite import learners
    from simpred_lite.learners.base import SimilarityLearner

    for name in MODULES:
        module = importlib.import_module(name)
        for attr, obj in _public(module):
            if inspect.isclass(obj) and issubclass(obj, SimilarityLearner) and not inspect.isabstract(obj):
                assert getattr(learners, attr,
                               None) is obj, f"{name}.{attr} is a learner missing from simpred_lite.learners"


def test_references_are_named_reference():
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, _ in _public(module):
            assert not attr.startswith(("Naive", "Dense", "Plain")), f"{name}.{attr}: name references '…Reference'"


def _undocumented():
    missing = []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, obj in _public(module):
            doc = inspect.getdoc(obj) or ""
            need = ["Examples"] + (["Parameters"] if _takes_arguments(obj) else [])
            lacking = [section for section in need if f"{section}\n--" not in doc]
            if lacking:
                missing.append(f"{name}.{attr}: {', '.join(lacking)}")
    return missing


# Public names written before the numpydoc rule; the list may only shrink (the test below
# fails when a name on it becomes documented, so it is removed in the same commit).
KNOWN_UNDOCUMENTED = frozenset(
    {
        "simpred_lite.apps.adversary_apps.GraphAdversaryApp",
        "simpred_lite.apps.adversary_apps.MergeSortLearnerApp",
        "simpred_lite.datasets.LabelledGraph",
        "simpred_lite.game.evaluation.Evaluation",
        "simpred_lite.game.evaluation.LearnerResult",
        "simpred_lite.game.evaluation.Sweep",
        "simpred_lite.game.playground.StepRecord",
        "simpred_lite.game.trials.RunResult",
        "simpred_lite.learners.base.SimilarityLearner",
        "simpred_lite.learners.bst_perceptron.TrialStructure",
        "simpred_lite.learners.permutations.pattern_items",
        "simpred_lite.learners.reductions.PoolLimitError",
        "simpred_lite.learners.reductions.PrunedPoolWarning",
        "simpred_lite.theory.hardness.ReductionSteps",
        "simpred_lite.theory.hardness.constraint_frontier",
        "simpred_lite.theory.hardness.path_marginals",
        "simpred_lite.theory.hardness.path_marginals_bruteforce",
        "simpred_lite.theory.lowerbound.AdversaryResult",
        "simpred_lite.theory.similarity_lower_bound.LowerBoundGame",
        "simpred_lite.theory.tree_averages.theorem3_phi_bounds",
        "simpred_lite.theory.unknown_graphs.class_coefficients",
        "simpred_lite.theory.unknown_graphs.complete_spanning_tree",
        "simpred_lite.theory.unknown_graphs.edge_path_vector",
        "simpred_lite.theory.unknown_graphs.fundamental_cutset_matrix",
        "simpred_lite.theory.unknown_graphs.random_tree_with_clusters",
        "simpred_lite.theory.unknown_graphs.signed_cut_vector",
        "simpred_lite.theory.unknown_graphs.target_matrix",
    }
)


def test_public_names_have_parameters_and_examples():
    missing = _undocumented()
    new = [m for m in missing if m.split(":")[0] not in KNOWN_UNDOCUMENTED]
    assert not new, "numpydoc Parameters/Examples missing:\n" + "\n".join(new)
    stale = KNOWN_UNDOCUMENTED - {m.split(":")[0] for m in missing}
    assert not stale, f"documented now, remove from KNOWN_UNDOCUMENTED: {sorted(stale)}"
