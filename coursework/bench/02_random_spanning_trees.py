"""Bench answers for notebooks/02_random_spanning_trees.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "02-ex1-code": {
        "different": '''import numpy as np
walk = np.array([0, 1, 4, 3, 0, 1, 2, 5, 4, 7])
stack = []
for v in walk:
    while v in stack:          # pop the loop back to v, then push v again
        stack.pop()
    stack.append(v)
le_ex1 = np.array(stack)
last = {}
for t in range(len(walk) - 1):
    last[walk[t]] = walk[t + 1]
p = [walk[0]]
while p[-1] != walk[-1]:
    p.append(last[p[-1]])
last_exit_ex1 = np.array(p)
''',
        "wrong": '''import networkx as nx
walk_ex1 = [0, 1, 4, 3, 0, 1, 2, 5, 4, 7]
W = nx.Graph(list(zip(walk_ex1[:-1], walk_ex1[1:])))
le_ex1 = nx.shortest_path(W, 0, 7)              # the shortest route along the walk's edges, not its loop erasure
last_exit_ex1 = list(le_ex1)
''',
        "wrong_fails": ["02-ex1-tests"],
        "why": "different: stack-based erasure, numpy arrays and numpy ints; wrong: the shortest path along the "
               "walk's edges (0, 1, 4, 7) instead of the loop erasure",
    },
    "02-ex2-code": {
        "different": '''import numpy as np

def cover_time_ex2(H, rng):
    n_H = H.number_of_nodes()
    nbrs = [np.array(list(H[v])) for v in range(n_H)]
    v = 0; visited = np.zeros(n_H, bool); visited[v] = True; left, steps = n_H - 1, 0
    while left:
        v = int(nbrs[v][rng.integers(len(nbrs[v]))]); steps += 1
        if not visited[v]:
            visited[v] = True; left -= 1
    return steps

wilson_steps_ex2, ab_steps_ex2 = {}, {}
for side in (8, 16, 32):
    Hs, _ = sp.grid_graph(side, side)
    walks = [wilson_trace(Hs, seed=k)[1] for k in range(30)]
    wilson_steps_ex2[side] = np.mean([sum(len(st["walk"]) for st in ws) - len(ws) for ws in walks])
    ab_steps_ex2[side] = np.mean([cover_time_ex2(Hs, np.random.default_rng(k)) for k in range(30)])
''',
        "wrong": '''def cover_time_ex2(H, rng):
    nbrs = [list(H[v]) for v in range(H.number_of_nodes())]
    v, seen, steps = 0, {0}, 0
    # off by one: stops as soon as n - 1 vertices are visited, one vertex before the cover
    while len(seen) < len(nbrs) - 1:
        v = nbrs[v][rng.integers(len(nbrs[v]))]
        seen.add(v); steps += 1
    return steps

wilson_steps_ex2, ab_steps_ex2 = {}, {}
for s in (8, 16, 32):
    Hs, _ = sp.grid_graph(s, s)
    wilson_steps_ex2[s] = float(np.mean([sum(len(st["walk"]) - 1 for st in wilson_trace(Hs, seed=k)[1])
                                         for k in range(30)]))
    ab_steps_ex2[s] = float(np.mean([cover_time_ex2(Hs, np.random.default_rng(k)) for k in range(30)]))
''',
        "wrong_fails": ["02-ex2-tests"],
        "why": "different: steps counted as len(walk) summed minus the number of walks, a cover walk with numpy "
               "arrays and rng.integers per move, numpy floats; wrong: the cover walk stops when n - 1 vertices "
               "are visited, one vertex early (11-23 % too few steps on the grids, inside the grid tolerance; "
               "0 steps instead of 1 on a single edge, 16 instead of 25 on average on the path of 6 vertices)",
    },
    "02-ex3-code": {
        "different": '''from collections import deque
import numpy as np
D = {r: nx.single_source_shortest_path_length(grid3, r) for r in grid3}

def spt_from(t, r):
    Tg = nx.Graph(list(t))
    return nx.single_source_shortest_path_length(Tg, r) == D[r]

n_spt_ex3 = np.int64(sum(1 for t in trees if any(spt_from(t, r) for r in grid3)))
gen = np.random.default_rng(3)
hits = np.zeros(len(trees), dtype=int)
for _ in range(1920):
    root = int(gen.integers(9)); seen = {root}; q = deque([root]); E = []
    while q:
        u = q.popleft()
        nb = list(grid3[u]); gen.shuffle(nb)
        for w in nb:
            if w not in seen:
                seen.add(w); q.append(w); E.append((min(u, w), max(u, w)))
    hits[index[tuple(sorted(E))]] += 1
pvalue_ex3 = chisquare(hits).pvalue
''',
        "wrong": '''rng_ex3 = np.random.default_rng(3)
def random_bfs_tree():
    r = int(rng_ex3.integers(9)); seen, queue, edges = {r}, [r], []
    while queue:
        u = queue.pop(0)
        for w in rng_ex3.permutation(list(grid3[u])).tolist():
            if w not in seen:
                seen.add(w); queue.append(w); edges.append((min(u, w), max(u, w)))
    return index[tuple(sorted(edges))]
bfs_counts = np.bincount([random_bfs_tree() for _ in range(1920)], minlength=192)
pvalue_ex3 = float(chisquare(bfs_counts).pvalue)
# every BFS tree is a shortest-path tree, so count the distinct ones the sample drew (a BFS cannot produce them all)
n_spt_ex3 = int(np.count_nonzero(bfs_counts))
''',
        "wrong_fails": ["02-ex3-tests"],
        "why": "different: distance dicts compared whole, deque BFS, numpy int and numpy float; "
               "wrong: n_spt_ex3 taken as the number of distinct trees in the BFS sample (34), not every tree that "
               "is a shortest-path tree from some root (a FIFO BFS cannot produce them all)",
    },
    "02-ex4-code": {
        "different": '''import itertools
import numpy as np
G_ex4 = nx.compose(grid3, nx.Graph([(8, 9), (9, 10), (10, 8)]))
E4 = edge_list(G_ex4)
R4 = effective_resistance(G_ex4, pairs=E4)
pos_e = {e: k for k, e in enumerate(E4)}
both = np.zeros((len(E4), len(E4)))
n_trees = 0
for T in nx.SpanningTreeIterator(G_ex4):
    n_trees += 1
    ks = sorted(pos_e[tuple(sorted(e))] for e in T.edges)
    for a, b in itertools.combinations(ks, 2):
        both[a, b] += 1
both /= n_trees
iu = np.triu_indices(len(E4), 1)
gap = both[iu] - np.outer(R4, R4)[iu]
min_gap_ex4 = gap.min()
pairs_equal_ex4 = [(E4[a], E4[b]) for a, b, g in zip(*iu, gap) if abs(g) < 1e-12]
n_equal_ex4 = np.count_nonzero(np.abs(gap) < 1e-12)
''',
        "wrong": '''G_ex4 = nx.compose(grid3, nx.Graph([(8, 9), (9, 10), (10, 8)]))
E4 = edge_list(G_ex4)
R4 = effective_resistance(G_ex4, pairs=E4)
trees4 = [{tuple(sorted(e)) for e in T.edges} for T in nx.SpanningTreeIterator(G_ex4)]
member = np.array([[e in t for e in E4] for t in trees4], dtype=float)
P_both = member.T @ member / len(trees4)
pairs4 = [(a, b) for a in range(len(E4)) for b in range(a + 1, len(E4))]
gap = {(a, b): P_both[a, b] - R4[a] * R4[b] for a, b in pairs4}
min_gap_ex4 = float(min(gap.values()))
pairs_equal_ex4 = [(E4[a], E4[b]) for (a, b), g in gap.items() if abs(g) < 1e-2]   # typo: 1e-2 for 1e-12
n_equal_ex4 = len(pairs_equal_ex4)
''',
        "wrong_fails": ["02-ex4-tests"],
        "why": "different: pair counts with itertools while iterating the trees, numpy float and int; "
               "wrong: equality tested with the tolerance 1e-2 instead of 1e-12, so the 42 grid pairs whose "
               "exact gap is -1/576 or -1/144 count as equal too (78 pairs, not 36). The exact gaps nearest "
               "the tolerance are -1/144 = -0.0069 and -1/36 = -0.028, so the verdict does not hang on rounding",
    },
    "02-ex5-code": {
        "different": '''import numpy as np
ratios_ex5 = np.empty(4)
for i, m in enumerate((5, 10, 50, 200)):
    lam = np.linalg.eigvalsh((np.eye(m - 1) + np.ones((m - 1, m - 1))) / m)   # Y on the star of a vertex of K_m
    phi_m = lam.sum()
    ratios_ex5[i] = (phi_m ** 2 + (lam * (1 - lam)).sum()) / phi_m ** 2
''',
        "wrong": '''ratios_ex5 = []
for n_ in (5, 10, 50, 200):
    phi = 2 * (n_ - 1) / n_
    ratios_ex5.append((phi ** 2 + phi - 1) / phi ** 2)     # the sharp bound, not the exact second moment
''',
        "wrong_fails": ["02-ex5-tests"],
        "why": "different: eigenvalues of (I + J)/n directly, a numpy array; wrong: the bound phi^2 + phi - 1 in place of the exact moment",
    },
}
