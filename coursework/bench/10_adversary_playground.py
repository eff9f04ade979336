"""Bench answers for notebooks/10_adversary_playground.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "10-ex1-code": {
        "different": '''app_ex1 = PlaygroundApp(seed=0, play_steps=20)
app_ex1.graph.value, app_ex1.adversary.value = "barbell", "adaptive"
app_ex1.target.value = "UnionFindLearner"
for _ in range(20):  # twenty Steps instead of one Play
    app_ex1.step_button.click()
M_uf_ex1 = float(app_ex1.game.mistakes["UnionFindLearner"])  # a whole float is accepted
bound_ex1 = np.int64(app_ex1.game.n - len(np.unique(app_ex1.game.labels)))
# the statement's comparison and the student's own attempt, on a second app: app_ex1 is left as it is
second = PlaygroundApp("barbell", ["UnionFindLearner"], "random", seed=0, play_steps=20)
second.play_button.click()
second.adversary.value = "student"
for pair in [(0, 1), (1, 2), (9, 10), (0, 2), (10, 11)]:
    second.i.value, second.j.value = pair
    second.step_button.click()
''',
        "wrong": '''# the comparison with the random adversary made on app_ex1 itself: the setting starts a fresh game
app_ex1 = PlaygroundApp(seed=0, play_steps=20)
app_ex1.graph.value = "barbell"
app_ex1.adversary.value = "adaptive"
app_ex1.target.value = "UnionFindLearner"
app_ex1.play_button.click()
M_uf_ex1 = app_ex1.game.mistakes["UnionFindLearner"]
bound_ex1 = app_ex1.game.n - app_ex1.game.K
app_ex1.adversary.value = "random"
app_ex1.play_button.click()
''',
        "wrong_fails": ["10-ex1-tests"],
        "why": "different: twenty Step clicks, K from the labels, a whole float and a numpy int, and the comparison "
               "with the random and the student adversary on a second app; wrong: the random adversary played on "
               "app_ex1 itself, which replaces the adaptive game the test checks",
    },
    "10-ex2-code": {
        "different": '''learners_ex2 = list(games["random"].names)
game_ex2 = Playground("karate club", learners_ex2, "adaptive", seed=0, adversary_options={"target": "AlwaysSimilar"})
for _ in range(60):
    game_ex2.step()
mistakes_ex2 = {name: np.int64(game_ex2.mistakes[name]) for name in learners_ex2}
''',
        "wrong": '''# the exhaustive adversary of section 2 copied (candidates=None), not the statement's 32 candidates
game_ex2 = Playground("karate club", games["random"].names, "adaptive", seed=0,
                      adversary_options={"target": "AlwaysSimilar", "candidates": None})
game_ex2.play(60)
mistakes_ex2 = game_ex2.mistakes
''',
        "wrong_fails": ["10-ex2-tests"],
        "why": "different: step() in a loop, numpy ints; wrong: candidates=None copied from section 2 (the exhaustive adversary, another sequence: Matrix Perceptron 53 instead of 52)",
    },
    "10-ex3-code": {
        "different": '''names_ex3 = ["AlwaysSimilar", "UnionFindLearner", "Matrix Perceptron", "Matrix Winnow", "BST Perceptron"]
mistakes_ex3 = {g: {} for g in ("planted partition", "grid")}
games_ex3 = {g: {} for g in mistakes_ex3}
boundary_ex3 = {}
for adversary in ("cut-biased", "random"):
    for graph in mistakes_ex3:
        game = Playground(graph, names_ex3, adversary, seed=np.int64(0))
        game.play(100)
        games_ex3[graph][adversary] = game
        mistakes_ex3[graph][adversary] = {n: np.int64(m) for n, m in game.mistakes.items()}
        touching = {v for e in game.cut for v in e}
        boundary_ex3[graph] = np.float64(len(touching)) / game.n
''',
        "wrong": '''# the boundary counted once per cut edge it touches: 2 |Phi| / n
names_ex3 = ["AlwaysSimilar", "UnionFindLearner", "Matrix Perceptron", "Matrix Winnow", "BST Perceptron"]
games_ex3, mistakes_ex3, boundary_ex3 = {}, {}, {}
for graph in ("grid", "planted partition"):
    games_ex3[graph], mistakes_ex3[graph] = {}, {}
    for adversary in ("random", "cut-biased"):
        game = Playground(graph, names_ex3, adversary, seed=0)
        game.play(100)
        games_ex3[graph][adversary] = game
        mistakes_ex3[graph][adversary] = game.mistakes
    boundary_ex3[graph] = 2 * len(game.cut) / game.n
''',
        "wrong_fails": ["10-ex3-tests"],
        "why": "different: loops swapped, boundary from the cut edges, numpy float and ints, seed as np.int64; wrong: the endpoints of the cut edges counted with multiplicity, 2 |Phi| / n (right on the grid, whose cut edges share no vertex; 0.667 instead of 0.472 on the planted partition)",
    },
    "10-ex4-code": {
        "different": '''def crossings(path):
    return int(np.sum([grid.labels[a] != grid.labels[b] for a, b in zip(path, path[1:])]))


short_cuts_ex4 = {p: crossings(shortest_path(grid.G, *p)) for p in [(0, 35), (0, 39)]}
walk_cuts_ex4 = {p: np.array([crossings(random_walk_path(grid.G, p[0], p[1], seed=s)) for s in range(100)])
                 for p in [(0, 35), (0, 39)]}
''',
        "wrong": '''# seeds 1..100 instead of 0..99
def cut_edges_on(path):
    return sum((min(a, b), max(a, b)) in cuts for a, b in zip(path[:-1], path[1:]))


short_cuts_ex4 = {pair: cut_edges_on(shortest_path(grid.G, *pair)) for pair in [(0, 39), (0, 35)]}
walk_cuts_ex4 = {pair: np.array([cut_edges_on(random_walk_path(grid.G, *pair, seed=s)) for s in range(1, 101)])
                 for pair in [(0, 39), (0, 35)]}
''',
        "wrong_fails": ["10-ex4-tests"],
        "why": "different: cut edges recognised by the labels, comprehensions; wrong: seeds 1..100 instead of 0..99",
    },
    "10-ex5-code": {
        "different": '''from simpred_lite.graphs import cut_edges
from simpred_lite.learners import SimilarityLearner
from simpred_lite.game.playground import register_learner


class AdjacentSimilar(SimilarityLearner):
    def __init__(self, G):
        super().__init__(G.number_of_nodes())
        self.adjacent = {frozenset(e) for e in G.edges()}

    def _predict(self, i, j, path):
        return int(frozenset((i, j)) not in self.adjacent)

    def _learn(self, i, j, y, y_hat, path):
        return None


class NeighboursAlike(AdjacentSimilar):
    def __init__(self, G):
        super().__init__(G)
        self.block = list(range(self.n))       # block label of every vertex (relabelled on a merge)
        self.differ = set()

    def _predict(self, i, j, path):
        a, b = self.block[i], self.block[j]
        if a == b:
            return 0
        if frozenset((a, b)) in self.differ:
            return 1
        return super()._predict(i, j, path)

    def _learn(self, i, j, y, y_hat, path):
        a, b = self.block[i], self.block[j]
        if y == 1:
            self.differ.add(frozenset((a, b)))
        elif a != b:
            self.block = [b if c == a else c for c in self.block]
            self.differ = {frozenset(b if r == a else r for r in pair) for pair in self.differ}


register_learner("Adjacent => similar", lambda G, seed: AdjacentSimilar(G), replace=True)
register_learner("Neighbours alike", lambda G, seed: NeighboursAlike(G), replace=True,
                 bound=lambda G, labels: float(G.number_of_nodes() - len(set(labels)) + len(cut_edges(G, labels))))
plain = Playground("barbell", ["Adjacent => similar"], "student", seed=0)
for _ in range(20):
    plain.step(pair=(1, 8))
game_plain_ex5 = plain
M_plain_ex5 = np.int64(plain.mistakes["Adjacent => similar"])
M_alike_ex5, bound_alike_ex5, game_alike_ex5 = {}, {}, {}
for graph in ("karate club", "barbell"):
    game = Playground(graph, ["UnionFindLearner", "Neighbours alike"], "adaptive", seed=0,
                      adversary_options={"target": "Neighbours alike"})
    for _ in range(80):
        game.step()
    game_alike_ex5[graph] = game
    M_alike_ex5[graph] = np.int64(game.mistakes["Neighbours alike"])
    bound_alike_ex5[graph] = game.bounds()["Neighbours alike"]
''',
        "wrong": '''from simpred_lite.graphs import cut_edges
from simpred_lite.learners import SimilarityLearner
from simpred_lite.game.playground import register_learner


class AdjacentSimilar(SimilarityLearner):
    # (a) a fixed rule: similar iff adjacent in G; it never learns
    def __init__(self, G):
        super().__init__(G.number_of_nodes())
        self.G = G

    def _predict(self, i, j, path):
        return 0 if self.G.has_edge(i, j) else 1

    def _learn(self, i, j, y, y_hat, path):
        pass


class NeighboursAlike(AdjacentSimilar):
    # (b) union-find memory; the graph only decides pairs about which nothing is known
    def __init__(self, G):
        super().__init__(G)
        self.parent = list(range(self.n))
        self.apart = set()                      # pairs of component roots known to differ

    def find(self, v):
        while self.parent[v] != v:
            self.parent[v] = self.parent[self.parent[v]]
            v = self.parent[v]
        return v

    def _predict(self, i, j, path):
        a, b = self.find(i), self.find(j)
        if a == b:
            return 0
        if frozenset((a, b)) in self.apart:
            return 1
        return super()._predict(i, j, path)

    def _learn(self, i, j, y, y_hat, path):
        a, b = self.find(i), self.find(j)
        if y == 0 and a != b:                   # merge a into b; the known differences still name a
            self.parent[a] = b
        elif y == 1:
            self.apart.add(frozenset((a, b)))


def alike_bound(G, labels):
    return G.number_of_nodes() - len(np.unique(labels)) + len(cut_edges(G, labels))


register_learner("Adjacent => similar", lambda G, seed: AdjacentSimilar(G), replace=True)
register_learner("Neighbours alike", lambda G, seed: NeighboursAlike(G), bound=alike_bound, replace=True)

plain = Playground("barbell", ["Adjacent => similar", "UnionFindLearner"], "student", seed=0)
for _ in range(20):
    plain.step(pair=(0, 8))                     # same class, not adjacent: similar, predicted dissimilar
game_plain_ex5 = plain
M_plain_ex5 = plain.mistakes["Adjacent => similar"]
print(f"(a) the pair (0, 8) twenty times: Adjacent => similar errs {M_plain_ex5} times, UnionFindLearner {plain.mistakes['UnionFindLearner']}")

game_alike_ex5, M_alike_ex5, bound_alike_ex5 = {}, {}, {}
for graph in ("barbell", "karate club"):
    game = Playground(graph, ["Neighbours alike", "UnionFindLearner"], "adaptive", seed=0,
                      adversary_options={"target": "Neighbours alike"})
    game.play(80)
    game_alike_ex5[graph] = game
    M_alike_ex5[graph] = game.mistakes["Neighbours alike"]
    bound_alike_ex5[graph] = game.bounds()["Neighbours alike"]
    print(f"(b) {graph}: Neighbours alike {M_alike_ex5[graph]} <= n - K + |Phi| = {game.n} - {game.K} + {len(game.cut)} "
          f"= {bound_alike_ex5[graph]:.0f};  UnionFindLearner on the same trials: {game.mistakes['UnionFindLearner']}")
    calm = [Playground(graph, ["Neighbours alike", "UnionFindLearner"], "random", seed=s) for s in range(5)]
    for g5 in calm:
        g5.play(150)
    print(f"    150 random pairs, seeds 0-4: Neighbours alike {[g5.mistakes['Neighbours alike'] for g5 in calm]}, "
          f"UnionFindLearner {[g5.mistakes['UnionFindLearner'] for g5 in calm]}")
''',
        "wrong_fails": ["10-ex5b-tests"],
        "why": "different: frozenset adjacency, block relabelling instead of union-find, another non-adjacent pair; wrong: the part (b) learner does not rename its pairs of roots known to differ when two components merge (its mistakes stay within the bound on the adaptive games, so only the hidden check that a known difference survives a merge catches it)",
    },
}
