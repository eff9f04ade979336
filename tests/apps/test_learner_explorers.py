"""The explorers of notebooks 04, 05 and 11, driven as a student would, against what they explain.

* the reduction explorer's trials are those of :class:`SimilarityFromClassifier` (Lemma 7) and
  :class:`ClassifierFromSimilarity` (Lemma 8) played directly: same predictions, same mistakes,
  within the bounds it states; the weighted vote it shows decides the master's prediction;
* the matrix explorer plays the registry's learner against the adversary exactly as
  :func:`play_adversary` does, and its margins and all-pairs scores are the learner's ``score``
  against its ``threshold``;
* the data explorer's result is :func:`evaluate`'s for the same choices;
* odd input (a pair of equal vertices, a seed out of range, an unknown learner, a choice that
  would take long) is refused with a sentence, never clamped; a new seed or learner starts afresh.
"""

from __future__ import annotations

import numpy as np
import pytest

from simpred_lite.apps import MatrixLearnerExplorer, ReductionExplorer, YourDataExplorer
from simpred_lite.apps.learner_explorers import DATASET_SIZES, YOUR_DATA_MAX_WORK
from simpred_lite.game import evaluate
from simpred_lite.game.adversaries import GameState, make_adversary, play_adversary
from simpred_lite.learners import (
    ClassifierFromSimilarity,
    HalvingClassifier,
    SimilarityFromClassifier,
    UnionFindLearner,
    labelings_with_small_cut,
)
from simpred_lite.learners.bounds import similarity_from_classifier_mistake_bound
from simpred_lite.learners.registry import resolve

LEMMA7, LEMMA8 = ReductionExplorer.DIRECTIONS


# -- 04: the reductions ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 3])
def test_lemma7_trials_are_the_master_algorithms_and_the_vote_decides(seed):
    app = ReductionExplorer(LEMMA7, seed=seed)
    H = labelings_with_small_cut(app.G, 3, 2)
    ref = SimilarityFromClassifier(lambda: HalvingClassifier(H), 3, max_histories=5000)
    assert app.B == HalvingClassifier(H).mistake_bound() == 7 and len(H) == 153
    for _ in range(15):
        rec = app.random_trial()
        i, j = rec["pair"]
        y = int(app.LABELS[i] != app.LABELS[j])
        assert rec["truth"] == y
        assert rec["prediction"] == ref.predict_one(i, j)
        assert rec["prediction"] == (0 if rec["weight_similar"] >= 0.5 else 1)  # the master follows the majority
        ref.learn_one(i, j, y)
        assert app.learner.pool_size == ref.pool_size == rec["pool_size"]
        assert ("a mistake" in rec["text"]) == rec["mistake"]
    assert app.mistakes == ref.mistakes <= similarity_from_classifier_mistake_bound(7, 3) == pytest.approx(app.bound)
    assert f"master mistakes M = {ref.mistakes} ≤ c_K B" in app.status_text
    assert app.out.outputs and app.out.outputs[0]["output_type"] == "display_data"


def test_lemma7_splits_only_on_master_mistakes():
    app = ReductionExplorer(LEMMA7)
    first = app.ask(0, 5)  # the empty history predicts one class everywhere: similar, wrong
    assert first["mistake"] and first["prediction"] == 0 and app.learner.pool_size == 6  # K(K-1) children
    again = app.ask(0, 1)  # similar: the pool's vote
    assert app.learner.pool_size == (again["pool_size"])
    if not again["mistake"]:
        assert "the pool is unchanged" in again["text"]


def test_lemma7_split_message_counts_the_children_and_the_merged_pool():
    # always ask a pair the master gets wrong: every trial splits, and after a few the children merge
    app = ReductionExplorer(LEMMA7)
    ref = SimilarityFromClassifier(lambda: HalvingClassifier(app.H), 3, max_histories=5000)
    pairs = [(i, j) for i in range(6) for j in range(i + 1, 6)]
    merged_seen = False
    for _ in range(9):
        i, j = next((i, j) for i, j in pairs
                    if ref.predict_one(i, j) != int(app.LABELS[i] != app.LABELS[j]))
        y = int(app.LABELS[i] != app.LABELS[j])
        votes = [e.learner.predict_class(i) == e.learner.predict_class(j) for e in ref._pool]
        erred = sum(1 for same in votes if int(not same) != y)
        each = 6 if y else 3
        before = ref.pool_size
        ref.learn_one(i, j, y)
        rec = app.ask(i, j, redraw=False)
        assert rec["mistake"] and rec["pool_size"] == ref.pool_size
        who = "entry that erred is" if erred == 1 else "entries that erred are"
        assert f"the {erred} {who} split into {erred * each} children" in rec["text"], rec["text"]
        assert f"the pool now holds {ref.pool_size} entr" in rec["text"], rec["text"]
        assert f"({ref.histories_represented[-1]} literal histor" in rec["text"], rec["text"]
        merged = before - erred + erred * each > ref.pool_size
        assert ("equal states are merged" in rec["text"]) == merged, rec["text"]
        assert ("all in different states" in rec["text"]) == (not merged), rec["text"]
        merged_seen |= merged
    assert merged_seen, "the sequence should reach a split whose children merge"


@pytest.mark.parametrize("seed", [1, 7])
def test_lemma8_trials_are_the_class_learners_within_ms_plus_p(seed):
    app = ReductionExplorer(LEMMA8, seed=seed)
    ref = ClassifierFromSimilarity(UnionFindLearner(app.n), K=3)
    for _ in range(15):
        rec = app.random_trial()
        x = rec["vertex"]
        assert rec["representatives"] == ref.representatives
        assert rec["prediction"] == ref.predict_class(x)
        ref.learn_class(x, int(app.LABELS[x]))
        assert app.learner.representatives == ref.representatives
    clf = app.learner
    assert app.mistakes == ref.mistakes
    assert app.mistakes <= clf.sim_learner.mistakes + len(clf.representatives) <= app.bound == app.n
    assert f"class mistakes M = {app.mistakes} ≤ M_s + |P| = {clf.sim_learner.mistakes} + " in app.status_text


def test_lemma8_a_new_class_becomes_a_representative():
    app = ReductionExplorer(LEMMA8)
    rec = app.ask(4)  # class 2, nobody represents it: predicted 0, a mistake, 4 represents class 2
    assert rec["prediction"] == 0 and rec["mistake"] and app.learner.representatives == {2: 4}
    assert "becomes its representative" in rec["text"]
    rec = app.ask(5)  # union-find knows nothing: dissimilar to 4, so the smallest free class
    assert rec["answers"] == [(2, 4, 1)] and rec["prediction"] == 0 and rec["mistake"]
    assert "the one true similarity example (4, 5) is given to union-find, which erred on it." in rec["text"]
    assert "examples" not in rec["text"] and app.learner.sim_learner.mistakes == 1  # singular for one example
    rec = app.ask(5)  # learned: similar to 4
    assert rec["prediction"] == 2 and not rec["mistake"]


@pytest.mark.parametrize(("direction", "asked", "circled"), [(LEMMA7, (0, 5), (0, 5)), (LEMMA8, (3,), (3,))])
def test_the_reduction_explorer_circles_what_was_asked(monkeypatch, direction, asked, circled):
    from simpred_lite.apps import learner_explorers

    drawn = []
    draw = learner_explorers.draw_labelled_graph
    monkeypatch.setattr(learner_explorers, "draw_labelled_graph",
                        lambda *a, **kw: (drawn.append(kw.get("highlight_pair")), draw(*a, **kw))[1])
    app = ReductionExplorer(direction)
    assert drawn == [None], "before any trial nothing is circled"
    app.ask(*asked)
    assert drawn[-1] == circled, f"the picture should circle {circled} after asking {asked}, circled {drawn[-1]}"


def test_the_reduction_explorer_refuses_odd_input_and_resets_on_a_new_choice():
    app = ReductionExplorer(LEMMA7)
    app.i_box.value, app.j_box.value = 2, 2
    app.ask_button.click()
    assert app.history == [] and "a pair needs two different vertices" in app.status_text
    with pytest.raises(ValueError, match=r"j must lie in 0..5, got 6; the box keeps 2"):
        app.j_box.value = 6
    assert app.status_text.startswith("Not changed: j must lie in 0..5")
    app.i_box.value = 3  # a valid value clears the stale refusal
    assert app.status_text.startswith("Trials: 0; master mistakes") and "Not changed" not in app.status_text
    app.i_box.value = 2
    with pytest.raises(ValueError, match="needs a pair"):
        app.ask(1)
    with pytest.raises(ValueError, match="direction must be one of"):
        app.direction.value = "both ways"
    app.j_box.value = 4
    app.ask_button.click()
    assert len(app.history) == 1
    app.direction.value = LEMMA8  # a new direction: a fresh learner
    assert app.history == [] and isinstance(app.learner, ClassifierFromSimilarity)
    assert app.j_box.layout.visibility == "hidden" and app.i_box.description == "vertex"
    with pytest.raises(ValueError, match="one vertex"):
        app.ask(1, 2)
    with pytest.raises(ValueError, match="seed must lie in 0..1000000, got -1"):
        app.seed.value = -1
    with pytest.raises(ValueError, match="direction must be one of"):
        ReductionExplorer("sideways")


@pytest.mark.parametrize(("direction", "box", "typed"),
                         [(LEMMA7, "i_box", "xyz"), (LEMMA7, "j_box", ""), (LEMMA7, "i_box", "9"),
                          (LEMMA8, "i_box", "six")])
def test_a_vertex_refused_in_the_browser_stays_refused_until_ask(direction, box, typed):
    app = ReductionExplorer(direction)
    kept = int(getattr(app, box).value)
    shown = []
    app.status.observe(lambda change: shown.append(change["new"]), names="value")
    getattr(app, box).set_state({"value": typed})  # what the browser sends when the student presses Enter
    assert int(getattr(app, box).value) == kept, "a refused value should leave the box at its previous number"
    assert app.status_text.startswith("Not changed:"), \
        f"the refusal of {typed!r} should stay on the status line, not be replaced at once: saw {shown}"
    app.ask_button.click()
    assert app.history == [], "Ask right after a refused value should not play the old value silently"
    assert app.status_text.startswith("Not asked: the last value typed was refused"), \
        "Ask right after a refused value should say that it was refused"
    app.ask_button.click()  # the student has read it: Ask again plays the boxes as they are
    assert len(app.history) == 1, "a second Ask should play the boxes as they are"


def test_a_valid_vertex_typed_after_a_browser_refusal_clears_it():
    app = ReductionExplorer(LEMMA7)
    app.i_box.set_state({"value": "9"})
    assert app.status_text.startswith("Not changed:"), "a refused i should be explained in the status line"
    app.i_box.set_state({"value": "2"})
    assert int(app.i_box.value) == 2 and app.status_text.startswith("Trials: 0;"), \
        "a valid value typed after a refusal should replace the refusal by the state"
    app.ask_button.click()
    assert [r["pair"] for r in app.history] == [(2, 5)], "Ask should then play the pair typed"


def test_the_reduction_explorer_replays_the_same_seed_after_reset():
    app = ReductionExplorer(LEMMA7, seed=5)
    first = [app.random_trial()["pair"] for _ in range(6)]
    app.reset_button.click()
    assert app.history == [] and app.mistakes == 0 and "Trials: 0; master mistakes M = 0" in app.status_text
    assert [app.random_trial()["pair"] for _ in range(6)] == first


@pytest.mark.parametrize("direction", [LEMMA7, LEMMA8])
def test_the_reduction_explorer_says_computing_while_a_trial_runs_and_redraws(direction):
    app = ReductionExplorer(direction)
    seen = []
    play = app._ask_pair if direction == LEMMA7 else app._ask_vertex
    render = app._render
    app._ask_pair = lambda *a: (seen.append(app.status.value), play(*a))[1]
    app._ask_vertex = lambda *a: (seen.append(app.status.value), play(*a))[1]
    app._render = lambda: (seen.append(app.status.value), render())[1]
    app.random_button.click()
    assert len(seen) == 2 and all("Computing…" in v for v in seen), \
        "the status line should say 'Computing…' while the trial is played and while the figure is redrawn"
    assert "Computing…" not in app.status.value and "Trial 1:" in app.status_text, \
        "once the figure is drawn the status line should describe the trial, without 'Computing…'"


# -- 05: the matrix learners ----------------------------------------------------------------------
@pytest.mark.parametrize("learner", MatrixLearnerExplorer.LEARNERS)
@pytest.mark.parametrize("adversary", MatrixLearnerExplorer.ADVERSARIES)
def test_the_matrix_explorer_plays_as_play_adversary_does(learner, adversary):
    app = MatrixLearnerExplorer(learner, adversary, seed=4)
    spec = resolve(learner)
    ref = spec.build(app.G, 4, app.labels)
    state = GameState(app.labels, 4, G=app.G, learner=ref)
    app.run(12)
    played = list(play_adversary(make_adversary(adversary), state, 12, learner=ref))
    assert [r["pair"] for r in app.trials] == [(t.i, t.j) for t, _ in played]
    assert [r["prediction"] for r in app.trials] == [p for _, p in played]
    assert app.mistakes == ref.mistakes <= app.bound
    assert app.bound == pytest.approx(spec.bound_for(app.G, app.labels, ref))
    for r in app.trials:
        assert r["prediction"] == int(r["score"] > r["threshold"])
        assert r["margin"] == pytest.approx((r["score"] - r["threshold"]) / r["threshold"])
        if not r["mistake"]:
            assert r["score_after"] == pytest.approx(r["score"])  # conservative: right, no update
        elif r["truth"] == 1:
            assert r["score_after"] > r["score"]  # a promotion raises the pair's score
        else:
            assert r["score_after"] < r["score"]
    S = app.scores()
    th = float(ref.threshold)
    assert S.shape == (12, 12) and np.allclose(S, S.T) and np.all(np.diag(S) == 0)
    assert S[0, 5] == pytest.approx((float(ref.score(0, 5)) - th) / th)
    assert f"Trials: 12; mistakes M = {app.mistakes} ≤ bound" in app.status_text


def test_the_matrix_explorer_names_only_the_selected_learners_starting_weight():
    app = MatrixLearnerExplorer("Matrix Perceptron")
    assert "A fresh Matrix Perceptron: W = 0." in app.status_text and "Winnow" not in app.status_text
    app.learner.value = "Matrix Winnow"  # a new learner: a fresh game
    m = app.G.number_of_edges()
    assert f"A fresh Matrix Winnow: W = I/m (m = {m})." in app.status_text and "Perceptron" not in app.status_text
    app.step_button.click()
    app.reset_button.click()
    assert f"A fresh Matrix Winnow: W = I/m (m = {m})." in app.status_text


def test_the_matrix_explorer_starts_afresh_and_refuses_odd_input():
    app = MatrixLearnerExplorer()
    assert "Trials: 0; mistakes M = 0" in app.status_text and float(app.model.threshold) == app.model.R ** 2
    app.step_button.click()
    app.step_button.click()
    assert len(app.trials) == 2
    with pytest.raises(ValueError, match=r"seed must lie in 0..1000000, got 99999999999; the box keeps 0"):
        app.seed.value = 99999999999
    assert len(app.trials) == 2  # not clamped, not restarted
    with pytest.raises(ValueError,
                       match=r"seed must be a whole number in 0..1000000, got '3.5' \(it is not rounded\).*keeps 0"):
        app.seed.value = 3.5
    assert app.seed.value == 0 and len(app.trials) == 2  # not truncated to 3, not restarted
    assert "Trials: 2; mistakes M =" in app.status_text  # the header stays
    assert "Not changed: seed must be a whole number in 0..1000000, got '3.5'" in app.status_text
    with pytest.raises(ValueError, match=r"learner must be one of \['Matrix Perceptron', 'Matrix Winnow'\]"):
        app.learner.value = "BST Perceptron"
    assert "Not changed: learner must be one of" in app.status_text
    app.learner.value = "Matrix Winnow"  # a new learner: from scratch, Winnow's threshold
    assert app.trials == [] and type(app.model).__name__ == "MatrixWinnow"
    assert float(app.model.threshold) != app.model.R ** 2
    app.step_button.click()
    with pytest.raises(ValueError, match="got None"):  # from code only: the dropdown undoes it, says so and raises
        app.learner.value = None
    assert app.learner.value == "Matrix Winnow" and len(app.trials) == 1, "a refused None must not restart the game"
    assert ("Not changed: learner must be one of ['Matrix Perceptron', 'Matrix Winnow'], got None; "
            "the choice stays 'Matrix Winnow'") in app.status_text
    with pytest.raises(ValueError, match="steps"):
        app.run(0)
    with pytest.raises(ValueError, match="adversary must be one of"):
        MatrixLearnerExplorer(adversary="student")


def test_the_matrix_explorer_refuses_letters_without_speaking_of_rounding():
    """'(it is not rounded)' is said of a number with a fraction only, not of letters or an empty box."""
    app = MatrixLearnerExplorer()
    for text in ("abc", ""):
        with pytest.raises(ValueError) as err:
            app.seed.value = text
        assert "must be a whole number in 0..1000000" in str(err.value) and "rounded" not in str(err.value)
        assert "rounded" not in app.status_text and app.seed.value == 0
    with pytest.raises(ValueError, match=r"got '2.5' \(it is not rounded\)"):
        app.seed.value = "2.5"


def test_the_matrix_explorer_heatmap_diverges_at_the_threshold_with_each_side_its_own_range(monkeypatch):
    """Winnow's margins are >= -1 but reach several units above 0: with a shared +-max scale its
    similar (blue) blocks were near white. Each side of the threshold now spans its own range."""
    from simpred_lite.apps import learner_explorers

    shown = []
    monkeypatch.setattr(learner_explorers, "_show", lambda out, fig, dpi=80: shown.append(fig))
    app = MatrixLearnerExplorer("Matrix Winnow", "adaptive", seed=0)
    app.run(30)
    fig = shown[-1]
    im = fig.axes[0].images[0]
    S = app.scores()
    off = S[~np.eye(len(S), dtype=bool)]
    assert float(im.norm.vcenter) == 0.0
    assert im.norm.vmin == pytest.approx(min(-1.0, off.min()))
    assert im.norm.vmax == pytest.approx(max(1.0, off.max())) and im.norm.vmax > 1.5
    similar = app.labels[:, None] == app.labels[None, :]
    similar_off = similar & ~np.eye(len(S), dtype=bool)
    assert float(np.mean(im.norm(S[similar_off]))) < 0.35  # similar pairs clearly blue, not near 0.5 (white)
    assert "θ" in fig.axes[-1].get_ylabel()  # the colour bar is labelled


def test_the_matrix_explorer_shows_progress_while_it_runs():
    app = MatrixLearnerExplorer("Matrix Winnow", "adaptive", seed=1)
    seen, disabled = [], []
    app.status.observe(lambda change: (seen.append(change["new"]), disabled.append(app.run_button.disabled)),
                       names="value")
    app.run_button.click()
    working = [v for v in seen if "Working" in v]
    assert working and "trial 1 of 10" in working[0] and any("trial 10 of 10" in v for v in working)
    assert all(disabled[: len(working)])  # the buttons are off while it works
    assert not (app.run_button.disabled or app.step_button.disabled or app.reset_button.disabled)
    assert "Working" not in app.status.value and "10 trials played" in app.status_text


def test_the_matrix_explorer_names_each_learners_scored_instance():
    """Winnow scores the trace-one instance X^w_t = X_t / R_ij (notebook 05's name), not X_t: its first
    score at W = I/m is 1/m, which is <W, X^w_t>. The status line must say which instance it scored."""
    app = MatrixLearnerExplorer("Matrix Winnow", "adaptive", seed=0)
    rec = app.step()
    assert "Score ⟨W, X^w_t⟩ = " in app.status_text and "⟨W, X_t⟩" not in app.status_text
    assert rec["score"] == pytest.approx(1 / app.model.m)
    app.learner.value = "Matrix Perceptron"  # a fresh game with the Perceptron, which scores X_t itself
    app.step()
    assert "Score ⟨W, X_t⟩ = " in app.status_text and "X^w_t" not in app.status_text


# -- 11: your data ----------------------------------------------------------------------------------
@pytest.mark.parametrize("trials", ["random", "adaptive"])
def test_your_data_run_is_evaluates_result(trials):
    chosen = ["UnionFindLearner", "Matrix Perceptron", "TreeWinnow"]
    app = YourDataExplorer("karate club", learners=chosen, trials=trials, T=150, seed=2)
    assert app.k.disabled and "k does not apply" in app.status_text
    app.run_button.click()
    ev = evaluate(chosen, "karate club", trials=trials, T=150, seed=2)
    assert app.evaluation.mistakes == ev.mistakes
    assert app.evaluation.bounds == ev.bounds
    assert app.progress.value == app.progress.max == len(chosen) + 1
    assert app.busy.layout.display == "none" and not app.run_button.disabled  # idle again
    assert f"Done: {ev.title()}" in app.status_text
    assert "Matrix Perceptron" in app.table.value and app.out.outputs


def test_your_data_offers_the_batch_anchors_of_the_notebook():
    from simpred_lite.game import label_spreading_anchor

    anchors = [label_spreading_anchor("classes"), label_spreading_anchor("similarity")]
    chosen = ["UnionFindLearner", *(a.name for a in anchors)]
    app = YourDataExplorer("karate club", learners=chosen, T=120, seed=1, time_limit=None)
    assert all(name in app.learners.options for name in chosen)
    app.run_button.click()
    ev = evaluate(["UnionFindLearner", *anchors], "karate club", T=120, seed=1, time_limit=None)
    assert app.evaluation.mistakes == ev.mistakes
    assert app.evaluation.records() == ev.records()   # the same given column: the class oracle is flagged


def test_your_data_uses_k_for_the_knn_graphs():
    app = YourDataExplorer("iris", k=5, learners=["UnionFindLearner"], T=100)
    assert not app.k.disabled
    assert app.graph().name == "iris (kNN, k=5)"
    app.run()
    assert app.evaluation.mistakes == evaluate(["UnionFindLearner"], app.graph(), T=100).mistakes


def test_your_data_refuses_long_choices_with_a_sentence():
    app = YourDataExplorer("iris", learners=["UnionFindLearner"], T=100)
    app.learners.value = ("Similarity from class",)
    app.run_button.click()
    assert app.evaluation is None and app.status_text.startswith("Not run: 'Similarity from class' keeps a pool")
    assert "at most 40 vertices" in app.status_text
    app.dataset.value = "karate club"
    app.T.value = 1000
    app.run()
    assert app.evaluation is None and "it is offered for T ≤ 300" in app.status_text
    app.learners.value = tuple(app.PLAYABLE[:5])
    app.T.value = YOUR_DATA_MAX_WORK // 5 + 1
    app.run()
    assert app.evaluation is None and f"more than {YOUR_DATA_MAX_WORK:,}" in app.status_text
    app.learners.value = ()
    app.run()
    assert "no learner is chosen" in app.status_text
    with pytest.raises(ValueError, match=r"T must lie in 1..5000, got 1000000"):
        app.T.value = 10**6
    with pytest.raises(ValueError, match=r"data set must be one of"):
        app.dataset.value = "mnist"
    with pytest.raises(ValueError, match="are not offered"):
        YourDataExplorer(learners=["GraphPerceptron"])
    assert app.busy.layout.display == "none"


def test_the_sizes_the_data_explorer_judges_by_are_the_data_sets():
    from simpred_lite.datasets import DATASETS, load_graph

    assert set(DATASET_SIZES) == set(DATASETS)
    for name in DATASETS:
        if name != "digits":  # its kNN graph takes long to build: scikit-learn's table gives its size
            assert load_graph(name).n == DATASET_SIZES[name], name
    import sklearn.datasets

    assert sklearn.datasets.load_digits().data.shape[0] == DATASET_SIZES["digits"]



@pytest.mark.parametrize("typed, why", [("2.5", "(it is not rounded)"), ("ten", ""), ("", ""),
                                        ("1e1", "(write it with digits only)"), ("3.0", "(write it with digits only)")])
def test_your_data_refuses_a_k_that_is_not_a_whole_number(typed, why):
    """The reason in brackets fits what was typed: a fraction is not rounded, letters get none."""
    app = YourDataExplorer("iris", k=5, learners=["UnionFindLearner"], T=100)
    with pytest.raises(ValueError, match=r"k \(kNN\) must be a whole number in 1\.\.30, got .*keeps 5") as err:
        app.k.value = typed
    assert f"got {typed!r}{' ' + why if why else ''}; the box keeps 5" in str(err.value)
    assert "must be a whole number" in app.status_text and int(app.k.value) == 5
    app.k.set_state({"value": typed})  # what the browser sends when the student presses Enter
    assert int(app.k.value) == 5 and ("not rounded" in app.status_text) == ("rounded" in why)
    app.run()
    assert app.graph().name == "iris (kNN, k=5)" and app.evaluation is not None


def test_your_data_refuses_a_non_integer_T_or_seed_and_accepts_whole_numbers():
    app = YourDataExplorer("karate club", learners=["UnionFindLearner"], T=100)
    with pytest.raises(ValueError, match="T must be a whole number"):
        app.T.value = 99.9
    with pytest.raises(ValueError, match="seed must be a whole number"):
        app.seed.value = "1.5"
    app.T.value, app.seed.value = 60, " 3 "
    app.run()
    assert app.evaluation.T == 60 and app.evaluation.seed == 3


def test_your_data_says_which_learner_plays_i_of_n():
    chosen = ["UnionFindLearner", "Matrix Perceptron", "BST Perceptron"]
    app = YourDataExplorer("karate club", learners=chosen, T=50)
    seen = []
    app.now_playing.observe(lambda change: seen.append(change["new"]), names="value")
    app.run()
    assert [s for s in seen if s.startswith("learner")] == [f"learner {i} of 3: {name}"
                                                             for i, name in enumerate(chosen, start=1)]
    assert app.now_playing in app.busy.children and app.now_playing.value == ""  # cleared when idle


def test_your_data_valid_entry_after_a_refusal_clears_the_refusal():
    app = YourDataExplorer("karate club", learners=["UnionFindLearner"], T=50)
    app.T.set_state({"value": "2.5"})  # refused, as typed in the browser
    assert app.status_text.startswith("Not changed"), "a refused T should be explained in the status line"
    app.T.set_state({"value": " 100 "})
    assert int(app.T.value) == 100, "a valid T typed after a refusal should be accepted"
    assert not app.status_text.startswith("Not changed"), "a valid entry should replace the refusal in the status line"


def test_your_data_time_limit_none_plays_every_trial():
    app = YourDataExplorer("karate club", learners=["UnionFindLearner"], T=60, time_limit=None)
    app.run()
    assert not app.evaluation.retired, "with time_limit=None no learner should be retired on time"
    assert app.evaluation["UnionFindLearner"].played == 60, "every trial should be played"


def test_the_data_explorer_names_every_learner_tied_for_fewest_mistakes():
    from simpred_lite.apps.learner_explorers import fewest_mistakes

    ev = evaluate({"first": "UnionFindLearner", "second": "UnionFindLearner", "AlwaysSimilar": "AlwaysSimilar"},
                  "karate club", T=60, seed=3, time_limit=None)
    m = ev.mistakes["first"]
    assert ev.mistakes["second"] == m < ev.mistakes["AlwaysSimilar"]
    assert fewest_mistakes(ev) == f"Fewest mistakes: first and second ({m} each)"


@pytest.mark.parametrize("direction", [LEMMA7, LEMMA8])
@pytest.mark.parametrize("bad", [6, "x", -1])
def test_reduction_ask_after_a_refused_box_plays_nothing(direction, bad):
    app = ReductionExplorer(direction)
    app.i_box.value = 1
    with pytest.raises(ValueError):
        app.i_box.value = bad
    app.ask_button.click()
    assert app.history == [], "Ask right after a refused box must not play the value the box kept"
    assert app.status.value.startswith("Not asked"), "the status should say that nothing was asked, and why"
    assert "refused" in app.status.value and "keeps 1" in app.status.value, "the status should repeat the refusal"
    app.ask_button.click()
    assert len(app.history) == 1, "a second Ask plays the boxes as they are"
    app.random_button.click()
    assert len(app.history) == 2, "Random plays a trial whatever the boxes held"


def test_reduction_votes_panel_labels_every_history_apart():
    app = ReductionExplorer(LEMMA7)
    for i, j in [(0, 5), (1, 4), (2, 3), (0, 3), (1, 5)]:
        app.ask(i, j, redraw=False)
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    app._draw_votes(ax, app.history[-1])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    plt.close(fig)
    assert len(labels) > 1 and len(set(labels)) == len(labels), "every bar of the vote panel should have its own label"


def test_lemma8_arcs_between_neighbouring_vertices_rise_clear_of_their_markers(monkeypatch):
    """The arcs of the last vertex's answers (judged similar / dissimilar) show between neighbours
    too: each rises off the path further than the representative squares reach."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from simpred_lite.apps import learner_explorers

    shown = []
    monkeypatch.setattr(learner_explorers, "_show", lambda out, fig, dpi=80: shown.append((fig, dpi)))
    app = ReductionExplorer(LEMMA8)
    for v in (3, 0, 5, 1, 2, 4):  # vertex 4 is compared with its neighbours 3 and 5, the representatives
        app.ask(v)
    fig, dpi = shown[-1]
    fig.set_dpi(dpi)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax_g = fig.axes[0]
    arcs = [a for a in ax_g.texts if getattr(a, "arrow_patch", None) is not None]
    assert len(arcs) == len(app.history[-1]["answers"]) == 2
    path_y = ax_g.transData.transform((0.0, 0.0))[1]
    square_half = np.sqrt(2.0 * learner_explorers.VERTEX_SIZE) / 2 * dpi / 72   # squares: twice a vertex's area
    for ann in arcs:
        ann.arrow_patch.draw(renderer)
        curve = np.concatenate([bezier(np.linspace(0, 1, 101))              # display coordinates
                                for bezier, _ in ann.arrow_patch.get_path().iter_bezier()])
        rise = np.max(np.abs(curve[:, 1] - path_y))
        assert rise >= square_half + 3, (rise, square_half)
