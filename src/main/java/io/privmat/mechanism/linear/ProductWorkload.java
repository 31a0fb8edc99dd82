package io.privmat.mechanism.linear;

import java.util.ArrayList;
import java.util.List;

/**
 * A union (row stack) of Kronecker products of one-attribute generators: IDENTITY, PREFIX,
 * ALL_RANGE (1-D on some attributes or k-D boxes), MARGINALS. Queries are listed term by term, each
 * term in row-major order over its attributes' queries (last attribute fastest).
 */
final class ProductWorkload extends BoxWorkload {

    private final String kind;
    private final List<Generator[]> terms;
    private final int[] termStart;
    private final int queries;

    ProductWorkload(Domain domain, String kind, List<Generator[]> terms) {
        super(domain);
        if (terms.isEmpty()) {
            throw new LinearQueryException(LinearQueryException.Reason.EMPTY, "workload", "a workload needs a term");
        }
        this.kind = kind;
        this.terms = new ArrayList<>();
        this.termStart = new int[terms.size() + 1];
        long m = 0;
        for (int t = 0; t < terms.size(); t++) {
            Generator[] term = terms.get(t);
            if (term.length != domain.attributes()) {
                throw LinearQueryException.shape("workload.terms[" + t + "]", "a term needs one generator per attribute ("
                        + domain.attributes() + ") but had " + term.length);
            }
            long q = 1;
            for (int i = 0; i < term.length; i++) {
                q *= term[i].queries(domain.size(i));
                if (q > LinearLimits.MAX_QUERIES) {
                    break;
                }
            }
            termStart[t] = (int) Math.min(m, Integer.MAX_VALUE);
            m += q;
            if (m > LinearLimits.MAX_QUERIES) {
                throw LinearQueryException.tooLarge("workload", "the number of queries", m, LinearLimits.MAX_QUERIES);
            }
            this.terms.add(term.clone());
        }
        termStart[terms.size()] = (int) m;
        this.queries = (int) m;
    }

    @Override
    public int queries() {
        return queries;
    }

    @Override
    public String kind() {
        return kind;
    }

    List<Generator[]> terms() {
        return terms;
    }

    @Override
    public String canonical() {
        StringBuilder b = new StringBuilder("product;domain=").append(domain().canonical()).append(";terms=");
        for (int t = 0; t < terms.size(); t++) {
            b.append(t == 0 ? "" : "|");
            Generator[] term = terms.get(t);
            for (int i = 0; i < term.length; i++) {
                b.append(i == 0 ? "" : ",").append(term[i].name());
            }
        }
        return b.toString();
    }

    @Override
    void forEachBox(BoxConsumer consumer) {
        Domain d = domain();
        int k = d.attributes();
        int[] lo = new int[k];
        int[] hi = new int[k];
        int[] lohi = new int[2];
        int q = 0;
        for (Generator[] term : terms) {
            for (int i = 0; i < k; i++) {
                term[i].first(d.size(i), lohi);
                lo[i] = lohi[0];
                hi[i] = lohi[1];
            }
            while (true) {
                consumer.accept(q++, lo, hi);
                int i = k - 1;
                for (; i >= 0; i--) {
                    lohi[0] = lo[i];
                    lohi[1] = hi[i];
                    boolean more = term[i].next(d.size(i), lohi);
                    lo[i] = lohi[0];
                    hi[i] = lohi[1];
                    if (more) {
                        break;
                    }
                }
                if (i < 0) {
                    break;
                }
            }
        }
    }

    @Override
    Box box(int query) {
        if (query < 0 || query >= queries) {
            throw LinearQueryException.shape("query", "query index " + query + " is not in [0, " + queries + ")");
        }
        int t = 0;
        while (termStart[t + 1] <= query) {
            t++;
        }
        long local = query - termStart[t];
        Generator[] term = terms.get(t);
        Domain d = domain();
        int k = d.attributes();
        int[] lo = new int[k];
        int[] hi = new int[k];
        for (int i = k - 1; i >= 0; i--) {
            int n = d.size(i);
            long q = term[i].queries(n);
            long idx = local % q;
            local /= q;
            switch (term[i]) {
                case IDENTITY -> {
                    lo[i] = (int) idx;
                    hi[i] = (int) idx;
                }
                case TOTAL -> {
                    lo[i] = 0;
                    hi[i] = n - 1;
                }
                case PREFIX -> {
                    lo[i] = 0;
                    hi[i] = (int) idx;
                }
                case ALL_RANGE -> {
                    int a = 0;
                    long start = 0;
                    while (start + (n - a) <= idx) {
                        start += n - a;
                        a++;
                    }
                    lo[i] = a;
                    hi[i] = (int) (a + idx - start);
                }
            }
        }
        return new Box(lo, hi);
    }

    @Override
    double[] columnCounts() {
        Domain d = domain();
        double[] total = new double[cells()];
        for (Generator[] term : terms) {
            double[] v = {1};
            for (int i = 0; i < term.length; i++) {
                int n = d.size(i);
                double[] next = new double[v.length * n];
                for (int a = 0; a < v.length; a++) {
                    for (int j = 0; j < n; j++) {
                        next[a * n + j] = v[a] * term[i].columnCount(n, j);
                    }
                }
                v = next;
            }
            for (int c = 0; c < total.length; c++) {
                total[c] += v[c];
            }
        }
        return total;
    }

    @Override
    public double frobeniusSquared() {
        double total = 0;
        for (Generator[] term : terms) {
            double p = 1;
            for (int i = 0; i < term.length; i++) {
                p *= term[i].frobeniusSquared(domain().size(i));
            }
            total += p;
        }
        return total;
    }

    @Override
    public double[] denseGram() {
        requireDenseCells("WᵀW");
        return kronGram().dense();
    }

    @Override
    KronGram kronGram() {
        List<KronGram.Factor[]> out = new ArrayList<>();
        for (Generator[] term : terms) {
            KronGram.Factor[] factors = new KronGram.Factor[term.length];
            for (int i = 0; i < term.length; i++) {
                factors[i] = new KronGram.Generated(term[i], domain().size(i));
            }
            out.add(factors);
        }
        return new KronGram(domain().sizes(), out);
    }
}
