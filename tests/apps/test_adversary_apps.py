"""The adversary games and their widgets, without a browser."""

import networkx as nx
import pytest

from simpred_lite.apps import GraphAdversaryApp, MergeSortLearnerApp, PermutationAdversaryApp
from simpred_lite.checks import check_random_state
from simpred_lite.game.hand_played import GraphAdversaryGame, PermutationAdversaryGame
from simpred_lite.learners import AlwaysSimilar, UnionFindLearner
from simpred_lite.learners.permutations import HalvingPermutationLearner, TransitiveOrderLearner
from simpred_lite.theory.lowerbound import check_consistent, comparison_trial, merge_sort_min_comparisons


def test_permutation_game_random_play_stays_consistent():
    rng = check_random_state(0)
    for learner_factory in (TransitiveOrderLearner, HalvingPermutationLearner, lambda K: AlwaysSimilar(K * K)):
        K = 5
        game = PermutationAdversaryGame(K, learner_factory(K))
        for _ in range(25):
            a, b = (int(v) for v in rng.choice(K, 2, replace=False))
            game.ask(a, b)
            allowed = game.allowed_answers()
            game.reveal(allowed[int(rng.integers(len(allowed)))])
        z = game.permutation()
        trials = [comparison_trial(z, h["a"], h["b"]) for h in game.history]
        assert [t.y for t in trials] == [h["answer"] for h in game.history]
        assert game.mistakes == game.learner.mistakes == int(game.cumulative_mistakes()[-1])


def test_permutation_game_refuses_contradictions():
    game = PermutationAdversaryGame(3)
    game.ask(0, 1)
    game.reveal(0)  # z(0) < z(1)
    game.ask(1, 2)
    game.reveal(0)  # z(1) < z(2)
    game.ask(2, 0)
    assert game.allowed_answers() == (1,)
    with pytest.raises(ValueError, match="force 1"):
        game.reveal(0)
    assert game.determined() and game.permutation() == (0, 1, 2)
    with pytest.raises(ValueError, match="ask a pair first"):
        PermutationAdversaryGame(3).reveal(0)
    with pytest.raises(ValueError, match="two distinct items"):
        game.ask(1, 1)
    with pytest.raises(ValueError, match="n >= 9"):
        PermutationAdversaryGame(3, UnionFindLearner(4))


def test_permutation_game_answering_against_the_learner_never_needs_a_forced_answer_with_merge_order():
    # replaying the merge-sort questions by hand: every answer against the prediction is allowed
    from simpred_lite.theory.lowerbound import ComparisonAdversary
    K = 6
    adv, game = ComparisonAdversary(K), PermutationAdversaryGame(K)
    while not adv.done:
        a, b = adv.query()
        y_hat = game.ask(a, b)
        assert game.allowed_answers() == (0, 1)
        assert game.reveal(adv.answer(y_hat))
    assert game.mistakes == len(game.history) >= merge_sort_min_comparisons(K)


def test_graph_game_labeling_is_consistent_with_answers():
    rng = check_random_state(1)
    G = nx.petersen_graph()
    game = GraphAdversaryGame(G, UnionFindLearner(10))
    for _ in range(30):
        i, j = (int(v) for v in rng.choice(10, 2, replace=False))
        game.ask(i, j)
        allowed = game.allowed_answers()
        game.reveal(allowed[int(rng.integers(len(allowed)))])
    y = game.labeling()
    assert all(int(y[h["i"]] != y[h["j"]]) == h["answer"] for h in game.history)
    assert game.cut_size() == sum(y[u] != y[v] for u, v in G.edges())
    # the union-find learner's bound n - K holds whatever the adversary answered
    assert game.mistakes <= 10 - (int(y.max()) + 1)


def test_graph_game_errors():
    game = GraphAdversaryGame(nx.path_graph(3), UnionFindLearner(3))
    game.ask(0, 1)
    game.reveal(1)
    game.ask(1, 0)
    with pytest.raises(ValueError, match="force 1"):
        game.reveal(0)
    with pytest.raises(ValueError, match="distinct"):
        game.ask(2, 2)
    with pytest.raises(ValueError, match="4 vertices but the graph has 3"):
        GraphAdversaryGame(nx.path_graph(3), UnionFindLearner(4))


def test_permutation_app_buttons_drive_the_game():
    app = PermutationAdversaryApp(4, "UnionFindLearner")
    app.a.value, app.b.value = 2, 3
    app.ask_button.click()
    assert "Is z(2) < z(3)?" in app.status_text
    app.dissimilar_button.click()
    assert app.game.history[-1]["answer"] == 1 and "Mistakes:" in app.status_text
    app.similar_button.click()  # nothing pending
    assert "Ask the learner" in app.status_text
    app.a.value = app.b.value = 1
    app.ask_button.click()
    assert "different" in app.status_text
    assert app.out.outputs and "image/png" in app.out.outputs[0]["data"]
    assert app._repr_mimebundle_()["text/plain"].startswith("PermutationAdversaryApp")
    with pytest.raises(ValueError, match="unknown learner"):
        PermutationAdversaryApp(4, "Perceptron")


def test_permutation_app_refuses_a_forced_contradiction_politely():
    app = PermutationAdversaryApp(3)
    for a, b in [(0, 1), (1, 2)]:
        app.a.value, app.b.value = a, b
        app.ask()
        app.answer(0)
    app.a.value, app.b.value = 0, 2
    app.ask()
    assert "forced" in app.status_text
    assert app.answer(1) is None and "Not allowed" in app.status_text
    assert app.answer(0) is not None and "determined" in app.status_text


def test_permutation_app_with_every_learner():
    from simpred_lite.apps import PERMUTATION_LEARNERS
    for name in PERMUTATION_LEARNERS:
        app = PermutationAdversaryApp(4, name)
        app.a.value, app.b.value = 0, 3
        y_hat = app.ask()
        assert app.answer(1 - y_hat) is True and app.game.mistakes == 1


def test_graph_app():
    app = GraphAdversaryApp(nx.cycle_graph(5), UnionFindLearner(5))
    app.i.value, app.j.value = 0, 2
    app.ask_button.click()
    app.similar_button.click()
    assert app.game.mistakes == 1 and "4 classes" in app.status_text


def test_graph_app_refused_ask_drops_the_waiting_pair():
    # after the pair changed and a refused Ask (i = j), an answer must not go to the earlier pair
    app = GraphAdversaryApp(nx.path_graph(4), UnionFindLearner(4))
    for (i, j), y in (((0, 1), 0), ((1, 2), 1)):
        app.i.value, app.j.value = i, j
        app.ask()
        app.answer(y)
    app.i.value, app.j.value = 0, 2
    app.ask()                                   # forced: dissimilar
    app.i.value = app.j.value = 3                # changing the pair withdrew (0, 2) at once
    assert app.game.pending is None and app.similar_button.disabled
    assert app.ask() is None and app.game.pending is None and "different" in app.status_text
    assert app.answer(0) is None and "first" in app.status_text and len(app.game.history) == 2
    app.i.value, app.j.value = 0, 2
    app.ask()
    assert app.answer(0) is None and "(0, 2)" in app.status_text, "the refusal names the pair it is about"


def test_graph_app_shows_the_bound_line_when_it_is_zero():
    # before any similar answer every vertex is its own class, so n - K = 0: its dashed line must
    # lie inside the mistakes panel, above the x-axis, not on it
    app = GraphAdversaryApp(nx.cycle_graph(5), UnionFindLearner(5))
    ax_m = app.figure().axes[1]
    bound_lines = [ln for ln in ax_m.get_lines() if ln.get_linestyle() == "--"]
    assert bound_lines and all(ln.get_ydata()[0] == 0 for ln in bound_lines)
    assert ax_m.get_ylim()[0] < 0 < ax_m.get_ylim()[1]


def test_graph_app_keeps_the_bound_line_visible_where_the_curve_reaches_it():
    # C6, every answer similar: the learner errs until M = n - K = 5, then runs along the line;
    # the dashed bound is drawn above the curve, and the legend (upper left) stays above both
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    app = GraphAdversaryApp(nx.cycle_graph(6), UnionFindLearner(6))
    pairs = [(i, i + 1) for i in range(5)] + [(0, 3), (1, 4), (2, 5)]
    for i, j in pairs:
        app.i.value, app.j.value = i, j
        app.ask_button.click()
        app.similar_button.click()
    curve = app.game.cumulative_mistakes()
    assert curve[-1] == 5 and list(curve[-4:]) == [5, 5, 5, 5]   # it runs along n - K
    fig = app.figure()
    ax_m = fig.axes[1]
    (bound,) = [ln for ln in ax_m.get_lines() if ln.get_linestyle() == "--"]
    (learner,) = [ln for ln in ax_m.get_lines() if ln.get_label() == "UnionFindLearner"]
    assert bound.get_ydata()[0] == 5
    assert bound.get_zorder() > learner.get_zorder()
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    legend_bottom = ax_m.get_legend().get_window_extent(renderer).y0
    assert ax_m.transData.transform((0, 5))[1] < legend_bottom


def test_merge_sort_learner_app_always_errs_and_reveals_a_consistent_permutation():
    app = MergeSortLearnerApp(5)
    rng = check_random_state(2)
    while app.question is not None:
        (app.similar_button if rng.integers(2) else app.dissimilar_button).click()
    assert app.mistakes == len(app.adversary.asked) >= merge_sort_min_comparisons(5)
    z = app.adversary.permutation()
    trials = [comparison_trial(z, a, b) for a, b, _ in app.adversary.asked]
    assert check_consistent(z, trials)
    assert "reveals z" in app.status_text and app.question_text == "No more questions."
    assert app.predict(0) is None


def test_new_game_buttons_start_again():
    app = PermutationAdversaryApp(4, "TransitiveOrderLearner")
    app.a.value, app.b.value = 0, 1
    app.ask_button.click()
    app.dissimilar_button.click()
    assert app.game.mistakes == 1
    app.new_game_button.click()
    assert app.game.mistakes == 0 and not app.game.history and app.status_text.startswith("New game.")
    app.ask_button.click()
    assert app.game.pending["prediction"] == 0, "a fresh learner has no answers to go by"

    graph_app = GraphAdversaryApp(nx.cycle_graph(5), UnionFindLearner(5))
    graph_app.i.value, graph_app.j.value = 0, 2
    graph_app.ask_button.click()
    graph_app.similar_button.click()
    graph_app.new_game_button.click()
    assert graph_app.game.mistakes == 0 and graph_app.game.learner.mistakes == 0
    assert graph_app.status_text.startswith("New game.")

    learner_app = MergeSortLearnerApp(3)
    while learner_app.question is not None:
        learner_app.similar_button.click()
    assert learner_app.predict(0) is None and "New game" in learner_app.status_text
    learner_app.new_game_button.click()
    assert learner_app.mistakes == 0 and learner_app.question == (1, 2) and "New game" in learner_app.status_text


def test_graph_game_status_counts_one_class_in_the_singular():
    app = GraphAdversaryApp(nx.path_graph(3), UnionFindLearner(3))
    assert "allow 3 classes" in app._extra()  # nothing answered yet: every vertex its own class
    for i, j in ((0, 1), (1, 2)):
        app.i.value, app.j.value = i, j
        app.ask()
        app.similar_button.click()
    assert app._extra() == "Your answers allow 1 class with |Φ| = 0."


def test_graph_app_withdraws_the_question_when_the_pair_changes_after_ask():
    # a reviewer asked (2, 4), then chose i = 5: the answer went to (2, 4) while the controls showed (5, 4)
    app = GraphAdversaryApp(nx.cycle_graph(6), UnionFindLearner(6))
    assert app.similar_button.disabled and app.dissimilar_button.disabled, "nothing asked yet: no answer to give"
    app.i.value, app.j.value = 2, 4
    app.ask()
    assert not app.similar_button.disabled and not app.dissimilar_button.disabled
    app.i.value = 5
    assert app.game.pending is None
    assert app.similar_button.disabled and app.dissimilar_button.disabled
    assert app.status_text == "You changed the pair: press Ask the learner for (5, 4)."
    assert app.answer(0) is None and not app.game.history, "no answer may go to the withdrawn pair (2, 4)"
    app.similar_button.click()
    assert not app.game.history
    app.ask()
    assert app.answer(0) is not None
    assert [(h["i"], h["j"]) for h in app.game.history] == [(5, 4)]
    assert app.similar_button.disabled, "answered: the buttons wait for the next Ask"
    # choosing the same pair again keeps the question; so does a refused value
    app.ask()
    app.j.value = 4
    with pytest.raises(ValueError):
        app.i.value = 99
    assert app.game.pending is not None and not app.similar_button.disabled


def test_permutation_app_withdraws_the_question_when_the_items_change_after_ask():
    app = PermutationAdversaryApp(4)
    app.a.value, app.b.value = 0, 1
    app.ask()
    assert not app.dissimilar_button.disabled
    app.b.value = 2
    assert app.game.pending is None and app.dissimilar_button.disabled
    assert app.status_text == "You changed the pair: press Ask the learner for (0, 2)."
    app.new_game()
    assert app.similar_button.disabled
