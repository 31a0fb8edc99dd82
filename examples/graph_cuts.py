#!/usr/bin/env python3
"""Cut queries on a graph: the owner uploads a graph with two planted communities, the analyst pays
once for a Johnson-Lindenstrauss sketch and then asks any number of cut queries for free, each with
an interval. The true cuts are printed next to the private answers (only the owner could know them).

The sketch's additive error is about eta*w*s(n-s)/(n-w) for a set of s vertices (w is the sketch's
overlay weight, about 480 at epsilon = 2): a cut is resolved only when the graph is dense enough
that the cut exceeds it -- here about a quarter of all vertex pairs across the communities. On a
sparse graph every answer is flagged noise-dominated (docs/accuracy/warnings.md), and this example
says so instead of "OK"."""
import sys

import numpy as np

from _setup import QUICK, clients, noise_dominated

admin, owner, analyst, analyst_name = clients("cuts")
n = 1500  # the JL overlay needs enough vertices at these parameters
rng = np.random.default_rng(11)
community = np.arange(n) < n // 2
inside_p, across_p = (0.4, 0.2) if QUICK else (0.5, 0.25)
u, v = np.triu_indices(n, 1)
keep = rng.random(u.size) < np.where(community[u] == community[v], inside_p, across_p)
u, v = u[keep], v[keep]
labels = [f"v{i}" for i in range(n)]
g = owner.create_dataset("calls", "GRAPH", epsilon=10, delta=1e-4, vertices={"labels": labels})
owner.upload(g, "".join(f"v{a},v{b}\n" for a, b in zip(u.tolist(), v.tolist())))
owner.grant(g, analyst_name)
print(f"graph: {n} vertices, {u.size} edges (pairs joined: {inside_p:.0%} inside a community, {across_p:.0%} across)")

quote = analyst.quote(g.id, "SKETCH", "JL", epsilon=2, delta=1e-6, eta=0.3, nu=0.1)
for e in quote.expected_error:
    if e.metric == "absPerAnswer":
        print(f"quoted additive error, {e.quantity}: {e.value:.4g} (probability {e.level})")
job = analyst.submit(g.id, "SKETCH", "JL", epsilon=2, delta=1e-6, eta=0.3, nu=0.1).wait(timeout=120)
release = job.result().release_id
spent = analyst.budget(g.id).spent.to_dict()
print("sketch released:", release, "privacy loss charged:", job.loss.charged.to_dict())


def true_cut(members):
    inside = np.zeros(n, dtype=bool)
    inside[members] = True
    return int(np.count_nonzero(inside[u] != inside[v]))


queries = {"community A": np.flatnonzero(community), "first 100": np.arange(100),
           "random half": rng.choice(n, n // 2, replace=False), "one vertex": np.array([7])}
answers = analyst.cuts(release, [[labels[i] for i in q] for q in queries.values()])
print(f"{'set':12s} {'true':>7s} {'estimate':>10s}  interval")
for (name, members), a in zip(queries.items(), answers.answers):
    print(f"{name:12s} {true_cut(members):7d} {a.estimate:10.1f}  [{a.lower:.1f}, {a.upper:.1f}]")
assert analyst.budget(g.id).spent.to_dict() == spent, "cut queries are free"
print("the cut queries charged nothing")
if noise_dominated(answers):
    print("graph cuts: NOISE-DOMINATED -- most intervals contain 0: this graph is too sparse for the sketch's "
          "additive error at epsilon = 2 (see the warning above)")
    sys.exit(0)
print("graph cuts: OK (no answer is flagged: every interval stands clear of 0)")
