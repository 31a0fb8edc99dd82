#!/usr/bin/env python3
"""Cut queries on a graph: the owner uploads a graph with two planted communities, the analyst pays
once for a Johnson-Lindenstrauss sketch and then asks any number of cut queries for free, each with
an interval. The true cuts are printed next to the private answers (only the owner could know them)."""
import numpy as np

from _setup import QUICK, clients

admin, owner, analyst, analyst_name = clients("cuts")
n = 1500  # the JL overlay needs enough vertices at these parameters
rng = np.random.default_rng(11)
community = np.arange(n) < n // 2
edges = set()
while len(edges) < (6000 if QUICK else 20000):
    u, v = rng.integers(0, n, size=2)
    if u == v:
        continue
    same = community[u] == community[v]
    if same or rng.random() < 0.1:  # inside a community always, across one time in ten
        edges.add((min(u, v), max(u, v)))
edges = sorted(edges)
labels = [f"v{i}" for i in range(n)]
g = owner.create_dataset("calls", "GRAPH", epsilon=10, delta=1e-4, vertices={"labels": labels})
owner.upload(g, "".join(f"v{u},v{v}\n" for u, v in edges))
owner.grant(g, analyst_name)
print(f"graph: {n} vertices, {len(edges)} edges")

job = analyst.submit(g.id, "SKETCH", "JL", epsilon=2, delta=1e-6, eta=0.3, nu=0.1).wait(timeout=120)
release = job.result().release_id
spent = analyst.budget(g.id).spent.to_dict()
print("sketch released:", release, "privacy loss charged:", job.loss.charged.to_dict())


def true_cut(members):
    inside = np.zeros(n, dtype=bool)
    inside[members] = True
    return sum(inside[u] != inside[v] for u, v in edges)


queries = {"community A": np.flatnonzero(community), "first 100": np.arange(100),
           "random half": rng.choice(n, n // 2, replace=False), "one vertex": np.array([7])}
answers = analyst.cuts(release, [[labels[i] for i in q] for q in queries.values()]).answers
print(f"{'set':12s} {'true':>7s} {'estimate':>10s}  interval")
for (name, members), a in zip(queries.items(), answers):
    print(f"{name:12s} {true_cut(members):7d} {a.estimate:10.1f}  [{a.lower:.1f}, {a.upper:.1f}]")
assert analyst.budget(g.id).spent.to_dict() == spent, "cut queries are free"
print("the cut queries charged nothing; graph cuts: OK")
