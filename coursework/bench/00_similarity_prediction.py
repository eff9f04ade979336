"""Bench answers for notebooks/00_similarity_prediction.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "00-ex1-code": {
        "different": '''\
# every pair (0, v) with v in another class than vertex 0, repeated until there are 50
others = np.flatnonzero(labels != labels[0])
trials_ex1 = [Trial(0, int(v), 1) for v in np.resize(others, 50)]
m_always_ex1 = np.int64(sum(AlwaysSimilar(n).predict_one(t.i, t.j) != t.y for t in trials_ex1))
''',
        "wrong": '''\
# 50 random pairs: some of them are similar, so AlwaysSimilar is right on those
trials_ex1 = random_trials(G, labels, T=50, seed=101)
m_always_ex1 = run(AlwaysSimilar(n), trials_ex1).total_mistakes
''',
        "wrong_fails": ["00-ex1-tests"],
        "why": "different: one fixed vertex against every vertex of another class, cycled, numpy "
               "count by hand; wrong: uniformly random pairs, of which some are similar (M < T)",
    },
    "00-ex2-code": {
        "different": '''\
learner = UnionFindLearner(n, default=0)
for t in trials:
    learner.learn_one(t.i, t.j, t.y)
m_random_ex2 = learner.mistakes
# the dissimilar pairs in random order, each once, then all similar pairs (no more mistakes)
rng = np.random.default_rng(7)
dis = [(i, j) for i in range(n) for j in range(n) if i < j and labels[i] != labels[j]]
sim = [(i, j) for i in range(n) for j in range(n) if i < j and labels[i] == labels[j]]
trials_ex2 = trials_from_pairs(labels, [dis[k] for k in rng.permutation(len(dis))] + sim)
m_adv_ex2 = np.int64(run(UnionFindLearner(n, default=0), trials_ex2).total_mistakes)
''',
        "wrong": '''\
# the default-1 learner by mistake in (a), and the n - K star adversary of section 4 in (b)
m_random_ex2 = run(UnionFindLearner(n), trials).total_mistakes
trials_ex2 = adversarial
m_adv_ex2 = run(UnionFindLearner(n, default=0), trials_ex2).total_mistakes
''',
        "wrong_fails": ["00-ex2-tests"],
        "why": "different: learner driven by hand, dissimilar pairs shuffled then every similar pair "
               "appended; wrong: default 1 in (a) and the similar-pair adversary (which default 0 "
               "never misses) in (b)",
    },
    "00-ex3-code": {
        "different": '''\
import networkx as nx

cuts_ex3 = np.array([], dtype=int)
m_uf_ex3 = []
graphs_ex3 = [sp.planted_partition(60, 3, p_in=0.3, p_out=p, seed=0) for p in (0.005, 0.02, 0.08)]
for Gp, yp in graphs_ex3:
    cuts_ex3 = np.append(cuts_ex3, sum(1 for u, v in Gp.edges() if yp[u] != yp[v]))
    first = {}
    pairs = []
    for v in range(60):
        k = int(yp[v])
        if k in first:
            pairs.append((first[k], v))
        else:
            first[k] = v
    m_uf_ex3.append(np.int64(run(UnionFindLearner(60), trials_from_pairs(yp, pairs)).total_mistakes))
plt.plot([0.005, 0.02, 0.08], cuts_ex3, "s-", label="cut size")
plt.axhline(60 - 3, ls=":", label="n - K")
plt.legend()
plt.show()
''',
        "wrong": '''\
# the wrong seed (other graphs), and mistakes on the random sequence of section 3
graphs_ex3, cuts_ex3, m_uf_ex3 = [], [], []
for p in (0.005, 0.02, 0.08):
    Gp, yp = sp.planted_partition(60, 3, p_in=0.3, p_out=p, seed=1)
    graphs_ex3.append((Gp, yp))
    cuts_ex3.append(sp.cut_size(Gp, yp))
    m_uf_ex3.append(run(UnionFindLearner(60), random_trials(Gp, yp, T=400, seed=1)).total_mistakes)
''',
        "wrong_fails": ["00-ex3-tests"],
        "why": "different: cut edges counted by hand into a numpy array, adversary built with a dict "
               "of first members; wrong: graphs of seed 1 and the random sequence instead of the adversary",
    },
    "00-ex4-code": {
        "different": '''\
def adversary_ex4(T):
    # link vertex by vertex along each faction (a path, not a star): every pair joins two components
    chain = []
    for k in (0, 1):
        m = [int(v) for v in np.flatnonzero(np.asarray(yk) == k)]
        chain += list(zip(m[:-1], m[1:]))
    pairs = [chain[t] if t < len(chain) else chain[0] for t in range(T)]
    return [Trial(i, j, int(yk[i] != yk[j])) for i, j in pairs]
''',
        "wrong": '''\
def adversary_ex4(T):
    # the 32 merging pairs (a star in each faction), then the same list again as filler
    star = [(int(m[0]), int(v)) for m in (np.flatnonzero(yk == k) for k in range(2)) for v in m[1:]]
    pairs = (star + star)[:T]
    return trials_from_pairs(yk, pairs)
''',
        "wrong_fails": ["00-ex4-tests"],
        "why": "different: a path through each faction instead of a star, Trials built by hand; "
               "wrong: the merging pairs doubled as filler, so fewer than T trials come back for T > 64",
    },
    "00-ex5-code": {
        "different": '''\
def mistakes(seq):
    return run(UnionFindLearner(n), seq).total_mistakes

rng = np.random.default_rng(2024)
shuffled_seqs_ex5 = [list(rng.permutation(np.array(adversarial, dtype=object))) for _ in range(20)]
shuffled_ex5 = np.array([mistakes(seq) for seq in shuffled_seqs_ex5])
# a random spanning tree of each class from a random walk (Aldous-Broder on the complete graph)
tree_seqs_ex5, random_seqs_ex5 = [], []
for _ in range(20):
    pairs = []
    for m in members:
        seen = {int(m[0])}
        cur = int(m[0])
        while len(seen) < len(m):
            nxt = int(rng.choice(m))
            if nxt not in seen:
                pairs.append((cur, nxt))
                seen.add(nxt)
            cur = nxt
    rng.shuffle(pairs)
    tree_seqs_ex5.append(trials_from_pairs(labels, pairs))
    random_seqs_ex5.append(list(rng.permutation(np.array(trials, dtype=object))))
tree_ex5 = [np.int64(mistakes(seq)) for seq in tree_seqs_ex5]
random_ex5 = [float(mistakes(seq)) for seq in random_seqs_ex5]
''',
        "wrong": '''\
# off by one in the class trees: vertex r joins a random earlier vertex, but r starts at 2,
# so the first vertex of each class is never joined (a forest of two trees per class)
rng_ex5 = np.random.default_rng(5)
shuffled_seqs_ex5, tree_seqs_ex5, random_seqs_ex5 = [], [], []
for _ in range(20):
    shuffled_seqs_ex5.append([adversarial[k] for k in rng_ex5.permutation(len(adversarial))])
    tree_pairs = []
    for m in members:
        m = rng_ex5.permutation(m)
        tree_pairs += [(int(m[r]), int(m[rng_ex5.integers(1, r)])) for r in range(2, len(m))]
    tree_pairs = [tree_pairs[k] for k in rng_ex5.permutation(len(tree_pairs))]
    tree_seqs_ex5.append(trials_from_pairs(labels, tree_pairs))
    random_seqs_ex5.append([trials[k] for k in rng_ex5.permutation(len(trials))])
shuffled_ex5 = [run(UnionFindLearner(n), seq).total_mistakes for seq in shuffled_seqs_ex5]
tree_ex5 = [run(UnionFindLearner(n), seq).total_mistakes for seq in tree_seqs_ex5]
random_ex5 = [run(UnionFindLearner(n), seq).total_mistakes for seq in random_seqs_ex5]
''',
        "wrong_fails": ["00-ex5-tests"],
        "why": "different: shuffles of object arrays, class trees from random walks, counts as numpy "
               "array / numpy ints / floats; wrong: class trees off by one (r from 2, so the first vertex "
               "of each class is left out: 54 mistakes instead of n - K)",
    },
}
