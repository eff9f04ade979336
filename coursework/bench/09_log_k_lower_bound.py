"""Bench answers for notebooks/09_log_k_lower_bound.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "09-ex1-code": {
        "different": '''from simpred_lite.learners.permutations import ConsistentPredictor


class LargestUnused(ConsistentPredictor):
    def predict(self, x):
        if x in self.known:
            return self.known[x]
        unused = sorted(set(range(self.K)) - set(self.used))
        return unused[-1]


z_ex1 = (1, 2, 0)
seq_ex1 = [((0, 0), 1)]
for _ in range(5):
    seq_ex1.append(((2, 0), 1))
A0, errors_ex1 = LargestUnused(3), np.int64(0)
for (a, b), y in seq_ex1:
    if max(A0.predict(a), A0.predict(b)) != y:
        errors_ex1 += 1
        A0.add(a if z_ex1[a] == y else b, y)
''',
        "wrong": '''from simpred_lite.learners.permutations import ConsistentPredictor


class LargestUnused(ConsistentPredictor):
    def predict(self, x):
        # forgets to skip the values already used
        return self.known.get(x, self.K - 1)


z_ex1 = (1, 2, 0)
seq_ex1 = [((0, 0), 1)] + [((0, 2), 1)] * 10
A0, errors_ex1 = LargestUnused(3), 0
for (a, b), y in seq_ex1:
    if max(A0.predict(a), A0.predict(b)) != y:
        errors_ex1 += 1
        A0.add(a if z_ex1[a] == y else b, y)
''',
        "wrong_fails": ["09-ex1-tests"],
        "why": "different: set difference, another sequence, numpy counter, no helper function; wrong: ignores the used values",
    },
    "09-ex2-code": {
        "different": '''betas_ex2 = np.linspace(1e-4, 1 - 1e-4, 400001)
c_values = np.log(2 / betas_ex2) / np.log(2 / (1 + betas_ex2))
k = int(np.argmin(c_values))
beta_star_ex2, c_star_ex2 = betas_ex2[k], c_values[k]
''',
        "wrong": '''from scipy.optimize import minimize_scalar

# log2(1/beta) instead of log2(2/beta) in the numerator
opt = minimize_scalar(lambda b: math.log2(1 / b) / math.log2(2 / (1 + b)), bounds=(1e-9, 1 - 1e-9), method="bounded")
beta_star_ex2, c_star_ex2 = float(opt.x), float(opt.fun)
''',
        "wrong_fails": ["09-ex2-tests"],
        "why": "different: a fine numpy grid in natural logs, numpy scalars; wrong: 1/beta instead of 2/beta",
    },
    "09-ex3-code": {
        "different": '''def popcount_sum_ex3(K):
    return int(np.sum([i.bit_count() for i in range(K)], dtype=np.int64))


agree_ex3 = np.all([popcount_sum_ex3(K) == merge_sort_min_comparisons(K) for K in range(1, 301)])
''',
        "wrong": '''def popcount_sum_ex3(K):
    # 1..K instead of 0..K-1
    return sum(bin(i).count("1") for i in range(1, K + 1))


agree_ex3 = all(popcount_sum_ex3(K) == merge_sort_min_comparisons(K) for K in range(1, 301))
''',
        "wrong_fails": ["09-ex3-tests"],
        "why": "different: int.bit_count and numpy bool; wrong: off by one, counts 1..K",
    },
    "09-ex4-code": {
        "different": '''from itertools import combinations

from simpred_lite.game.hand_played import PermutationAdversaryGame


def play_naive(learner, K):
    game = PermutationAdversaryGame(K, learner)
    for a, b in combinations(range(K), 2):
        y_hat = game.ask(a, b)
        allowed = game.allowed_answers()
        game.reveal(1 - y_hat if 1 - y_hat in allowed else y_hat)
    return np.int64(game.mistakes)


naive_transitive_ex4 = {K: play_naive(TransitiveOrderLearner(K), K) for K in range(2, 9)}
naive_halving_ex4 = {K: play_naive(HalvingPermutationLearner(K), K) for K in range(2, 9)}
''',
        "wrong": '''from simpred_lite.game.hand_played import PermutationAdversaryGame


def naive_adversary(learner, K):
    game = PermutationAdversaryGame(K, learner)
    for a in range(K):
        for b in range(a + 1, K - 1):   # off by one: item K - 1 is never compared
            prediction = game.ask(a, b)
            allowed = game.allowed_answers()
            game.reveal(allowed[0] if len(allowed) == 1 else 1 - prediction)
    return game


naive_transitive_ex4 = {K: naive_adversary(TransitiveOrderLearner(K), K).mistakes for K in range(2, 9)}
naive_halving_ex4 = {K: naive_adversary(HalvingPermutationLearner(K), K).mistakes for K in range(2, 9)}
''',
        "wrong_fails": ["09-ex4-tests"],
        "why": "different: itertools.combinations, numpy ints, dict comprehensions; wrong: off by one in the inner loop, the last item is never compared",
    },
    "09-ex5-code": {
        "different": '''from itertools import permutations


def game_value(K):
    perms = list(permutations(range(K)))
    full = (1 << len(perms)) - 1
    masks = []
    for a in range(K):
        for b in range(a + 1, K):
            masks.append(sum(1 << k for k, z_ in enumerate(perms) if z_[a] < z_[b]))
    memo = {}

    def best(V):
        if V in memo:
            return memo[V]
        size, value = bin(V).count("1"), 0
        for mask in masks:
            S, D = V & mask, V & (full ^ mask)
            s, d = bin(S).count("1"), bin(D).count("1")
            if s and d:
                majority, minority = (D, S) if 2 * d > size else (S, D)
                value = max(value, 1 + best(minority), best(majority))
        memo[V] = value
        return value

    return np.int64(best(full)), np.int64(len(memo))


game_value_ex5, states_ex5 = {}, {}
for K in (6, 5, 4, 3):
    game_value_ex5[K], states_ex5[K] = game_value(K)
''',
        "wrong": '''from functools import lru_cache
from itertools import permutations


def halving_game_value(K):
    perms = list(permutations(range(K)))
    less = [sum(1 << k for k, z_ in enumerate(perms) if z_[a] < z_[b]) for a in range(K) for b in range(a + 1, K)]

    @lru_cache(maxsize=None)
    def value(V):
        size, best = V.bit_count(), 0
        for mask in less:
            S, D = V & mask, V & ~mask
            s, d = S.bit_count(), D.bit_count()
            if s == 0 or d == 0:
                continue
            # sides swapped: a mistake is taken to leave the MAJORITY of V (Halving's own side)
            wrong, right = (D, S) if 2 * d > size else (S, D)
            best = max(best, 1 + value(wrong), value(right))
        return best

    return value((1 << len(perms)) - 1), value.cache_info().currsize


game_value_ex5, states_ex5 = {}, {}
for K in (3, 4, 5, 6):
    game_value_ex5[K], states_ex5[K] = halving_game_value(K)
''',
        "wrong_fails": ["09-ex5-tests"],
        "why": "different: dict memo, bin().count, numpy ints; wrong: the mistaken answer leaves the majority side of V, not the minority",
    },
}
