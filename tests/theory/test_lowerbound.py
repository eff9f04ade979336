"""Tests of simpred_lite.theory.lowerbound: Theorem thm:lognec on data.

Class side: the master over hallucinated histories errs at most (K-1) log2(2/β)/log2(2/(1+β))
times, and the proof's invariants hold step by step.  Similarity side: the comparison
adversary forces a mistake on every query, stays consistent with the permutation it
reveals, and asks at least (K/2)⌊log2 K⌋ questions whatever the answers.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from simpred_lite.checks import check_random_state
from simpred_lite.game.play import run, run_class
from simpred_lite.learners import (
    AlwaysSimilar,
    HalvingClassifier,
    SimilarityFromClassifier,
    SimilarityLearner,
    UnionFindLearner,
    reduction_constant,
    similarity_from_classifier_mistake_bound,
)
from simpred_lite.learners.bounds import PAPER_BETA, paired_permutation_mistake_bound
from simpred_lite.learners.permutations import (
    ConsistentPredictor,
    HalvingPermutationLearner,
    IteratedClassLearner,
    PairedPermutationClassLearner,
    PairedPermutationClassLearnerReference,
    TransitiveOrderLearner,
)
from simpred_lite.theory.lowerbound import (
    ComparisonAdversary,
    binary_insertion_min_comparisons,
    binary_insertion_sort_coroutine,
    check_consistent,
    comparison_trial,
    iterate_sequences,
    log2_factorial,
    merge_sort_coroutine,
    merge_sort_lower_bound,
    merge_sort_min_comparisons,
    paired_permutation_hypotheses,
    paired_permutation_label,
    pattern_index,
    pattern_items,
    play_adversary,
    play_iterated_adversary,
    random_class_sequence,
    random_permutation,
    version_space_class_run,
)


# -- the concept ---------------------------------------------------------------------------------
def test_paired_permutation_label_matches_the_papers_example():
    z = (1, 2, 0)  # z(1)=2, z(2)=3, z(3)=1 counted from 0
    assert paired_permutation_label(z, 0, 1) == 2 and paired_permutation_label(z, 0, 0) == 1
    assert paired_permutation_label(z, 2, 2) == 0


def test_pattern_numbering_roundtrip_and_errors():
    K = 5
    assert [pattern_items(pattern_index(a, b, K), K) for a in range(K) for b in range(K)] == \
        [(a, b) for a in range(K) for b in range(K)]
    with pytest.raises(ValueError, match="must lie in 0.."):
        pattern_index(5, 0, K)
    with pytest.raises(ValueError, match="pattern number"):
        pattern_items(25, K)
    with pytest.raises(ValueError, match="permutation"):
        paired_permutation_label((0, 0, 1), 0, 1)
    with pytest.raises(ValueError, match="two distinct items"):
        comparison_trial((0, 1), 1, 1)
    with pytest.raises(TypeError, match="K must be an integer"):
        random_permutation(2.5, 0)


def test_comparison_trial_is_similar_iff_z_a_below_z_b():
    rng = check_random_state(3)
    for _ in range(30):
        K = int(rng.integers(2, 7))
        z = random_permutation(K, rng)
        a, b = (int(v) for v in rng.choice(K, 2, replace=False))
        t = comparison_trial(z, a, b)
        assert t.y == int(not z[a] < z[b])
        assert check_consistent(z, [t])


# -- the class algorithm -----------------------------------------------------------------------
def test_class_mistake_bound_constant():
    # the proof's constant at β = 0.294 is 4.4035 (the paper prints 4.1, a slip) ...
    assert paired_permutation_mistake_bound(2) == pytest.approx(4.4035, abs=1e-4)
    # ... and 0.294 is (to 3 digits) the β that minimises it
    grid = np.linspace(0.05, 0.95, 901)
    best = grid[np.argmin([paired_permutation_mistake_bound(2, b) for b in grid])]
    assert abs(best - PAPER_BETA) < 0.002
    with pytest.raises(ValueError, match="beta"):
        paired_permutation_mistake_bound(3, 1.5)


def test_consistent_predictor_uses_smallest_unused_value():
    A0 = ConsistentPredictor(5, [(3, 0), (1, 2)])
    assert [A0.predict(x) for x in range(5)] == [1, 2, 1, 0, 1]
    A0.add(3, 4)  # a repeated item keeps its first value, but the value counts as used
    assert A0.predict(3) == 0 and A0.predict(0) == 1
    with pytest.raises(ValueError, match="must lie in 0.."):
        A0.add(7, 0)


@pytest.mark.parametrize("seed", range(4))
def test_class_learner_matches_the_plain_reference(seed):
    K = 4
    z = random_permutation(K, seed)
    seq = random_class_sequence(z, 25, seed)
    fast, naive = PairedPermutationClassLearner(K), PairedPermutationClassLearnerReference(K)
    for x, y in seq:
        assert fast.predict_class(x) == naive.predict_class(x)
        fast.learn_class(x, y)
        naive.learn_class(x, y)
    assert fast.total_weight == sum(w for _, w in naive.pool)
    assert fast.mistakes == naive.mistakes and fast.pool_size <= len(naive.pool)


def _consistent_histories(learner, z):
    return [(known, w) for known, w in learner.histories() if all(z[x] == v for x, v in known.items())]


@pytest.mark.parametrize("K", [2, 3, 5, 7])
def test_class_learner_bound_and_proof_invariants(K):
    half = Fraction("0.294") / 2
    shrink = (1 + Fraction("0.294")) / 2
    for seed in range(3):
        z = random_permutation(K, seed)
        A = PairedPermutationClassLearner(K)
        for x, y in random_class_sequence(z, 8 * K * K, seed):
            A.learn_class(x, y)
            # a consistent history survives, with at most K-1 examples and weight >= (β/2)^(K-1)
            good = _consistent_histories(A, z)
            assert good and min(len(k) for k, _ in good) <= K - 1
            assert max(w for _, w in good) >= half ** (K - 1)
            # every master mistake multiplies W by at most (1+β)/2
            assert A.total_weight <= shrink ** A.mistakes
        assert A.mistakes <= paired_permutation_mistake_bound(K)
        assert A.mistakes <= 4.1 * (K - 1)  # the paper's printed constant also holds on data
        # after the run, the learner is right on every pattern
        assert all(A.predict_class((a, b)) == max(z[a], z[b]) for a in range(K) for b in range(K))


def test_class_learner_on_an_adaptive_sequence_stays_within_the_bound():
    # the sequence picks, among all patterns, one the master currently gets wrong
    K = 6
    z = random_permutation(K, 11)
    A = PairedPermutationClassLearner(K)
    while True:
        wrong = [(a, b) for a in range(K) for b in range(K) if A.predict_class((a, b)) != max(z[a], z[b])]
        if not wrong:
            break
        x = wrong[len(wrong) // 2]
        A.learn_class(x, max(z[x[0]], z[x[1]]))
    assert A.mistakes <= paired_permutation_mistake_bound(K)
    assert A.mistakes >= 1


def test_class_learner_input_errors():
    A = PairedPermutationClassLearner(3)
    with pytest.raises(ValueError, match=r"pair \(x', x''\)"):
        A.predict_class((0, 1, 2))
    with pytest.raises(ValueError, match=r"pattern x \(a pair"):
        A.predict_class(9)
    with pytest.raises(ValueError, match="must lie in 0.."):
        A.predict_class((0, 3))
    with pytest.raises(TypeError, match="pattern x"):
        A.predict_class("01")
    with pytest.raises(ValueError, match="class label 3 is outside 0..2"):
        A.learn_class((0, 1), 3)
    assert A.mistakes == A.trials == 0
    with pytest.raises(ValueError, match="K must be"):
        PairedPermutationClassLearner(1)
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        PairedPermutationClassLearner(3, beta=1.0)
    with pytest.raises(TypeError, match="beta"):
        PairedPermutationClassLearner(3, beta="0.3")


def test_iterated_class_learner_adds_up():
    K, r = 4, 3
    seqs = [random_class_sequence(random_permutation(K, s), 40, s) for s in range(r)]
    A = IteratedClassLearner(K, r)
    flags = run_class(A, iterate_sequences(seqs))
    singles = [run_class(PairedPermutationClassLearner(K), s).sum() for s in seqs]
    assert flags.sum() == A.mistakes == sum(singles) <= r * paired_permutation_mistake_bound(K)
    with pytest.raises(ValueError, match="copy index"):
        A.predict_class(((0, 1), 3))
    # a pattern number i K² + x' K + x'' is the same pattern as ((x', x''), i)
    B = IteratedClassLearner(K, r)
    for (x, i), y in iterate_sequences(seqs)[:30]:
        assert B.predict_class(i * K * K + pattern_index(*x, K)) == B.predict_class((x, i))
        B.learn_class(i * K * K + pattern_index(*x, K), y)
    assert B.mistakes == sum(c.mistakes for c in B.copies)


# -- sorting comparisons ------------------------------------------------------------------------
def _exhaustive_min(sorter, K):
    """Fewest comparisons of a coroutine sort over every possible answer sequence."""
    best = math.inf

    def explore(prefix):
        nonlocal best
        gen = sorter(list(range(K)))
        try:
            next(gen)
            for ans in prefix:
                gen.send(ans)
        except StopIteration:
            best = min(best, len(prefix))
            return
        explore(prefix + [True])
        explore(prefix + [False])

    explore([])
    return best


@pytest.mark.parametrize("K", range(1, 8))
def test_min_comparisons_match_exhaustive_search(K):
    assert merge_sort_min_comparisons(K) == _exhaustive_min(merge_sort_coroutine, K)
    assert binary_insertion_min_comparisons(K) == _exhaustive_min(binary_insertion_sort_coroutine, K)


def test_merge_sort_comparison_floors():
    mins = [merge_sort_min_comparisons(K) for K in range(1, 4097)]
    assert all(a <= b for a, b in zip(mins, mins[1:]))  # monotone in K: the proof of the floor
    for K in range(1, 4097):
        c = mins[K - 1]
        m = K.bit_length() - 1
        assert c >= merge_sort_lower_bound(K) >= (K // 4) * m
        assert c >= K / 2 * (math.log2(K) - 1)  # a stronger floor, checked on data
        assert binary_insertion_min_comparisons(K) >= log2_factorial(K) - K
    for m in range(11):  # at K = 2^m merge sort's fewest comparisons are exactly (K/2) log2 K
        assert merge_sort_min_comparisons(2**m) == merge_sort_lower_bound(2**m) == (2**m * m) // 2
    # the (K/2)⌊log2 K⌋ is not a floor when K is not a power of two
    assert merge_sort_min_comparisons(9) == 13 < 9 / 2 * 3


# -- the adversary -------------------------------------------------------------------------------
class RandomLearner(SimilarityLearner):
    def __init__(self, n, seed):
        super().__init__(n)
        self.rng = check_random_state(seed)

    def _predict(self, i, j, path):
        return int(self.rng.integers(2))

    def _learn(self, i, j, y, y_hat, path):
        pass


def learners_for(K, seed=0):
    out = [AlwaysSimilar(K * K), UnionFindLearner(K * K), UnionFindLearner(K * K, default=0),
           TransitiveOrderLearner(K), TransitiveOrderLearner(K, default=1), RandomLearner(K * K, seed)]
    if K <= 6:
        out.append(HalvingPermutationLearner(K))
    return out


@pytest.mark.parametrize("strategy", ["merge", "binary_insertion"])
@pytest.mark.parametrize("K", [2, 3, 5, 6, 9, 16])
def test_adversary_forces_a_mistake_on_every_query(K, strategy):
    floor = merge_sort_min_comparisons(K) if strategy == "merge" else binary_insertion_min_comparisons(K)
    for learner in learners_for(K, seed=K):
        result = play_adversary(learner, K, strategy)
        assert result.total_mistakes == len(result.trials) >= floor
        assert learner.mistakes == result.total_mistakes
        assert check_consistent(result.z, result.trials)
        if strategy == "merge":
            assert result.total_mistakes >= merge_sort_lower_bound(K)
        if isinstance(learner, HalvingPermutationLearner):
            # each mistake at least halves the version space: M <= log2 K!
            assert 2 ** result.total_mistakes <= math.factorial(K)  # exact: M <= log2 K!
            assert learner.version_space_size == 1


def test_adversary_never_asks_an_implied_comparison():
    # with random answers, no query is decided by transitivity of the earlier answers
    rng = check_random_state(8)
    for strategy in ("merge", "binary_insertion"):
        for K in (5, 8, 13):
            adv, knower = ComparisonAdversary(K, strategy), TransitiveOrderLearner(K)
            while not adv.done:
                a, b = adv.query()
                assert not knower.less(a, b) and not knower.less(b, a)
                y = adv.answer(int(rng.integers(2)))
                knower.learn_one(*adv_pair(a, b, K), y)
            z = adv.permutation()
            assert check_consistent(z, [comparison_trial(z, a, b) for a, b, _ in adv.asked])
            assert all(comparison_trial(z, a, b).y == y for a, b, y in adv.asked)


def adv_pair(a, b, K):
    return pattern_index(a, b, K), pattern_index(b, b, K)


def test_replaying_the_revealed_sequence_gives_the_same_mistakes():
    # the revealed z makes the adversary's sequence an honest paired-permutation sequence
    K = 7
    result = play_adversary(TransitiveOrderLearner(K), K)
    replay = run(TransitiveOrderLearner(K), result.trials)
    assert replay.total_mistakes == result.total_mistakes == len(result.trials)


def test_iterated_adversary():
    K, r = 4, 3
    total, zs = play_iterated_adversary(UnionFindLearner(r * K * K), K, r)
    assert total >= r * merge_sort_lower_bound(K) and len(zs) == r
    with pytest.raises(ValueError, match="n >= 48"):
        play_iterated_adversary(UnionFindLearner(16), K, r)


def test_adversary_errors():
    with pytest.raises(ValueError, match="unknown strategy"):
        ComparisonAdversary(4, "bubble")
    adv = ComparisonAdversary(3)
    with pytest.raises(ValueError, match="revealed only when the sort is done"):
        adv.permutation()
    while not adv.done:
        adv.answer(0)
    assert adv.query() is None and adv.query_pair() is None
    with pytest.raises(ValueError, match="no query"):
        adv.answer(1)
    with pytest.raises(ValueError, match="n >= K\\*K"):
        play_adversary(UnionFindLearner(8), 3)
    with pytest.raises(TypeError, match="not a similarity learner"):
        play_adversary(object(), 3)
    with pytest.raises(ValueError, match="0 \\(similar\\) or 1"):
        ComparisonAdversary(3).answer(2)


# -- the learners ---------------------------------------------------------------------------------
def test_transitive_learner_is_right_on_every_implied_comparison():
    rng = check_random_state(2)
    K = 8
    z = random_permutation(K, 5)
    L = TransitiveOrderLearner(K)
    for _ in range(60):
        a, b = (int(v) for v in rng.choice(K, 2, replace=False))
        t = comparison_trial(z, a, b)
        implied = L.less(a, b) or L.less(b, a)
        if implied:
            assert L.predict_one(t.i, t.j) == t.y
        L.learn_one(t.i, t.j, t.y)
    # diagonal patterns are always dissimilar, and the mirrored comparison ((b, a), (b, b)) is recognised
    assert L.predict_one(pattern_index(1, 1, K), pattern_index(2, 2, K)) == 1
    assert L._comparison(pattern_index(3, 1, K), pattern_index(1, 1, K)) == (3, 1)
    assert L._comparison(pattern_index(1, 1, K), pattern_index(1, 3, K)) == (3, 1)


def test_halving_learner_mistake_bound_on_random_sequences():
    K = 5
    for seed in range(3):
        z = random_permutation(K, seed)
        rng = check_random_state(seed)
        trials = []
        for _ in range(80):
            p, q = (int(v) for v in rng.choice(K * K, 2, replace=False))
            (a, b), (c, d) = pattern_items(p, K), pattern_items(q, K)
            from simpred_lite.game.trials import Trial
            trials.append(Trial(p, q, int(max(z[a], z[b]) != max(z[c], z[d]))))
        assert run(HalvingPermutationLearner(K), trials).total_mistakes <= log2_factorial(K)


def test_halving_learner_errors():
    with pytest.raises(ValueError, match="at most 8"):
        HalvingPermutationLearner(9)
    L = HalvingPermutationLearner(2)
    L.learn_one(pattern_index(0, 1, 2), pattern_index(1, 1, 2), 0)
    with pytest.raises(ValueError, match="contradict every permutation"):
        L.learn_one(pattern_index(0, 1, 2), pattern_index(1, 1, 2), 1)


def test_smallest_unused_value_is_what_the_proof_needs():
    # With "largest unused value", a history consistent with z can err on (x', x'') when x' is
    # known and z(x'') < z(x'): the consistent continuation (x', y) repeats a known example,
    # so the history learns nothing and may err again forever.  "Smallest unused" cannot.
    z = (1, 0, 2)

    class LargestUnused(ConsistentPredictor):
        def predict(self, x):
            return self.known[x] if x in self.known else max(v for v in range(self.K) if v not in self.used)

    history = [(0, z[0])]  # consistent with z
    y = max(z[0], z[1])
    bad = LargestUnused(3, history)
    assert max(bad.predict(0), bad.predict(1)) != y and y == z[0] != z[1]
    good = ConsistentPredictor(3, history)
    assert max(good.predict(0), good.predict(1)) == y


# -- Lemma equiv's similarity learner, built from class learners of the paired permutation problem --
def test_hypotheses_are_the_paired_permutation_concepts():
    K = 4
    H = paired_permutation_hypotheses(K)
    z = random_permutation(K, 0)
    row = next(r for r in H if all(r[pattern_index(x, x, K)] == z[x] for x in range(K)))
    assert all(row[pattern_index(a, b, K)] == max(z[a], z[b]) for a in range(K) for b in range(K))
    assert len({tuple(r) for r in H}) == math.factorial(K)
    with pytest.raises(ValueError, match="at most K = 8"):
        paired_permutation_hypotheses(9)


@pytest.mark.parametrize("K", [3, 4, 5, 6])
def test_similarity_from_halving_classifier_is_squeezed(K):
    # Lemma equiv: M <= c_K * floor(log2 K!);  the adversary: M >= C(K) (every query a mistake)
    H = paired_permutation_hypotheses(K)
    for strategy in ("merge", "binary_insertion"):
        sim = SimilarityFromClassifier(lambda: HalvingClassifier(H, K), K)
        result = play_adversary(sim, K, strategy)
        floor = merge_sort_min_comparisons(K) if strategy == "merge" else binary_insertion_min_comparisons(K)
        assert result.total_mistakes == len(result.trials) >= floor
        B = HalvingClassifier(H, K).mistake_bound()
        assert result.total_mistakes <= similarity_from_classifier_mistake_bound(B, K)
        assert check_consistent(result.z, result.trials)


def test_similarity_from_the_papers_class_algorithm():
    K = 3
    sim = SimilarityFromClassifier(lambda: PairedPermutationClassLearner(K), K)
    result = play_adversary(sim, K)
    assert result.total_mistakes >= merge_sort_min_comparisons(K)
    assert result.total_mistakes <= reduction_constant(K) * paired_permutation_mistake_bound(K)
    by_number, by_pair = PairedPermutationClassLearner(K), PairedPermutationClassLearner(K)
    z = random_permutation(K, 1)
    for x, y in random_class_sequence(z, 30, 1):
        assert by_number.predict_class(pattern_index(*x, K)) == by_pair.predict_class(x)
        by_number.learn_class(pattern_index(*x, K), y)
        by_pair.learn_class(x, y)
    assert by_number.mistakes == by_pair.mistakes <= paired_permutation_mistake_bound(K)
    assert by_number.state_key() == by_pair.state_key()


# -- the greedy version-space adversary (the class side of Theorem 9) ----------------------------
@pytest.mark.parametrize("K", [2, 3, 4, 5, 6])
def test_version_space_class_adversary_is_consistent_and_forces_mistakes(K):
    A = PairedPermutationClassLearner(K)
    examples, z = version_space_class_run(A, K, seed=K)
    assert sorted(z) == list(range(K))
    assert all(paired_permutation_label(z, a, b) == y for (a, b), y in examples)
    assert A.mistakes == len(examples) >= K - 1             # every trial is a mistake
    assert A.mistakes <= paired_permutation_mistake_bound(K)             # Theorem 9, class side
    # after the game the learner is right on every pattern for the revealed z
    assert all(A.predict_class((a, b)) == paired_permutation_label(z, a, b) for a in range(K) for b in range(K))


def test_version_space_class_adversary_arguments():
    with pytest.raises(ValueError):
        version_space_class_run(PairedPermutationClassLearner(9), 9, seed=0)
    with pytest.raises(ValueError, match="build the learner for K=3"):
        version_space_class_run(PairedPermutationClassLearner(4), 3, seed=0)
    examples, _ = version_space_class_run(PairedPermutationClassLearner(4), 4, seed=0, max_trials=2)
    assert len(examples) == 2
