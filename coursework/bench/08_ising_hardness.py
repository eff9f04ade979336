"""Bench answers for notebooks/08_ising_hardness.ipynb: for each autograded exercise one
correct answer written differently and one plausible wrong answer (see coursework/README.md)."""

ANSWERS = {
    "08-ex1-code": {
        "different": '''from math import comb


def cycle_Z_ex1(n, beta):
    # 2 binom(n, c) labelings for every even number c of cut edges
    q = Fraction(1, 2 ** beta)
    return 2 * sum((comb(n, c) * q ** c for c in range(0, n + 1, 2)), Fraction(0))


Z_C8_ex1 = cycle_Z_ex1(8, 2)
''',
        "wrong": '''def cycle_Z_ex1(n, beta):
    # the right formula, but computed in floating point and only converted to a Fraction at the end
    q = 2.0 ** -beta
    return Fraction((1 + q) ** n + (1 - q) ** n)


Z_C8_ex1 = cycle_Z_ex1(8, 2)
''',
        "wrong_fails": ["08-ex1-tests"],
        "why": ("different: binomial sum over even cut sizes; wrong: the closed form evaluated in floats and converted "
                "to a Fraction (not exact: fails the exactness check on C_30 at beta = 5)"),
    },
    "08-ex2-code": {
        "different": '''def euler_visit(T, v=0, parent=None):
    out = [v]
    for w in sorted(T.neighbors(v)):
        if w != parent:
            out += euler_visit(T, w, v) + [v]
    return out


def reduce_with_tree_ex2(G, T):
    tree_edges = {frozenset(e) for e in T.edges()}
    copies = euler_visit(T)
    for a, b in sorted(tuple(sorted(e)) for e in G.edges() if frozenset(e) not in tree_edges):
        p = copies.index(a)
        copies = copies[:p + 1] + [b, a] + copies[p + 1:] if p + 1 < len(copies) else copies[:p] + [a, b] + copies[p:]
    pairs = [(i, j) for i in range(len(copies)) for j in range(i + 1, len(copies)) if copies[i] == copies[j]]
    return copies, nx.path_graph(len(copies)), pairs


P_bfs_ex2 = reduce_with_tree_ex2(G, nx.bfs_tree(G, 0).to_undirected())[0]
same_ex2 = np.int64(0)
for H in graphs:
    kruskal, bfs_path = (reduce_with_tree_ex2(H, T) for T in (nx.minimum_spanning_tree(H),
                                                                nx.bfs_tree(H, 0).to_undirected()))
    for _, PH, CH in (kruskal, bfs_path):
        assert all(partition_function(H, 2 * beta) == constrained_partition_function(PH, CH, beta) for beta in (2, 1))
    same_ex2 += kruskal[0] == bfs_path[0]
''',
        "wrong": '''def euler_visit(T, v=0, parent=None):
    # enters the children in the order T.neighbors(v) lists them, not in increasing order
    out = [v]
    for w in T.neighbors(v):
        if w != parent:
            out += euler_visit(T, w, v) + [v]
    return out


def reduce_with_tree_ex2(G, T):
    tree = {(min(e), max(e)) for e in T.edges()}
    copies = euler_visit(T)
    for a, b in sorted((min(e), max(e)) for e in G.edges() if (min(e), max(e)) not in tree):
        p = copies.index(a)
        copies[p + 1:p + 1] = [b, a]
    m = len(copies)
    return copies, nx.path_graph(m), [(i, j) for i in range(m) for j in range(i + 1, m) if copies[i] == copies[j]]


P_bfs_ex2 = reduce_with_tree_ex2(G, nx.bfs_tree(G, 0).to_undirected())[0]
same_ex2 = 0
for H in graphs:
    paths = [reduce_with_tree_ex2(H, T)[0] for T in (nx.bfs_tree(H, 0).to_undirected(), nx.minimum_spanning_tree(H))]
    same_ex2 += paths[0] == paths[1]
''',
        "wrong_fails": ["08-ex2-tests"],
        "why": ("different: recursive Euler visit, frozenset edges, list slicing, numpy counter, identity asserted; "
                "wrong: enters the children in T.neighbors order instead of increasing order, a valid reduction but "
                "not the unique one asked for"),
    },
    "08-ex3-code": {
        "different": '''from collections import defaultdict

positions = defaultdict(list)
for p in P:
    positions[P.nodes[p]["copy"]].append(p)
chain_ex3 = sorted((pair for ps in positions.values() for pair in zip(ps, ps[1:])), key=lambda pair: pair[1])
Z_chain_ex3 = constrained_partition_function(P, chain_ex3, 1)
Z_drop_ex3 = constrained_partition_function(P, [c for i, c in enumerate(chain_ex3) if i != 1], 1)
''',
        "wrong": '''# the right chain, but the dropped pair is off by one: the FIRST pair chain_ex3[0], not chain_ex3[1]
copies = [P.nodes[p]["copy"] for p in P]
chain_ex3, last_copy = [], {}
for p, v in enumerate(copies):
    if v in last_copy:
        chain_ex3.append((last_copy[v], p))
    last_copy[v] = p
Z_chain_ex3 = constrained_partition_function(P, chain_ex3, 1)
Z_drop_ex3 = constrained_partition_function(P, chain_ex3[1:], 1)
''',
        "wrong_fails": ["08-ex3-tests"],
        "why": ("different: positions grouped per vertex, pairs sorted by their second copy, the second pair dropped "
                "by its index; wrong: the right chain, but drops the first pair instead of the second (off by one)"),
    },
    "08-ex4-code": {
        "different": '''def frontier_Z_ex4(m, constraints, beta):
    parent = list(range(m))

    def root(v):
        while parent[v] != v:
            v = parent[v]
        return v

    for a, b in constraints:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    cls = [root(v) for v in range(m)]
    last = {c: p for p, c in enumerate(cls)}
    q = Fraction(1, 2 ** beta)
    msg = {(y, frozenset({(cls[0], y)} if last[cls[0]] > 0 else ())): Fraction(1) for y in (0, 1)}
    largest = len(msg)
    for p in range(1, m):
        c, new = cls[p], {}
        for (y_prev, opened), w in msg.items():
            forced = [lab for cc, lab in opened if cc == c]
            rest = frozenset(e for e in opened if e[0] != c)
            for y in forced or [0, 1]:
                key = (y, rest | {(c, y)} if last[c] > p else rest)
                new[key] = new.get(key, Fraction(0)) + (w if y == y_prev else w * q)
        msg = new
        largest = max(largest, len(msg))
    return sum(msg.values(), Fraction(0)), largest


entries_ex4 = {}
for k in (6, 5, 4):
    Pk, Ck = reduce_to_constrained_path(nx.complete_graph(k))
    Zk, entries_ex4[k] = frontier_Z_ex4(Pk.number_of_nodes(), Ck, 1)
    if k == 6:
        Z_K6_ex4 = Zk
''',
        "wrong": '''def frontier_Z_ex4(m, constraints, beta):
    # a class, once opened, is kept in the message for ever: it is never dropped after its last vertex
    uf = nx.utils.UnionFind(range(m))
    for i, j in constraints:
        uf.union(i, j)
    cls = [uf[v] for v in range(m)]
    size = {c: cls.count(c) for c in cls}
    q = Fraction(1, 2 ** beta)
    msg = {(y, ((cls[0], y),) if size[cls[0]] > 1 else ()): Fraction(1) for y in (0, 1)}
    largest = len(msg)
    for p in range(1, m):
        c, new = cls[p], {}
        for (y_prev, opened), w in msg.items():
            known = dict(opened)
            for y in ((known[c],) if c in known else (0, 1)):
                nxt = dict(known)
                if size[c] > 1:
                    nxt[c] = y
                key = (y, tuple(sorted(nxt.items())))
                new[key] = new.get(key, 0) + w * (q if y != y_prev else 1)
        msg = new
        largest = max(largest, len(msg))
    return sum(msg.values()), largest


entries_ex4 = {}
for k in (4, 5, 6):
    Pk, Ck = reduce_to_constrained_path(nx.complete_graph(k))
    Zk, entries_ex4[k] = frontier_Z_ex4(Pk.number_of_nodes(), Ck, 1)
Z_K6_ex4 = Zk
''',
        "wrong_fails": ["08-ex4-tests"],
        "why": ("different: own union-find, frozenset messages, reversed loop; wrong: keeps every constrained class in "
                "the message for ever instead of dropping it after its last vertex (right Z, and right largest on "
                "the reductions of K_4, K_5, K_6, but too large where one class closes before another opens)"),
    },
}
