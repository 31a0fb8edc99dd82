package io.privmat.query;

import io.privmat.dataset.Dataset;
import io.privmat.dataset.MatrixChunk;
import io.privmat.dataset.Neighbouring;
import io.privmat.job.JobContext;
import io.privmat.job.JobHandler;
import io.privmat.job.JobOutput;
import io.privmat.mechanism.lowrank.Factorization;
import io.privmat.mechanism.lowrank.GramOperator;
import io.privmat.mechanism.lowrank.RowStream;
import io.privmat.mechanism.noise.NoiseSource;
import io.privmat.mechanism.noise.NoiseSources;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Runs LOW_RANK and TOP_SINGULAR_VECTORS jobs. Row-based mechanisms (randomized response,
 * Hardt–Roth) stream the stored row chunks twice; the Gram-based ones (noisy power, private Oja,
 * orbit sampling) stream them once into XᵀX. The result holds s and v (and u for LOW_RANK, inline
 * when m·k ≤ {@value #INLINE_LIMIT}, and always as the {@code .npy} array).
 */
@Configuration(proxyBeanMethods = false)
class LowRankHandlers {

    static final int INLINE_LIMIT = 100_000;

    @Bean
    JobHandler lowRankHandler(JobInputs inputs) {
        return new Runner(QueryKind.LOW_RANK, inputs);
    }

    @Bean
    JobHandler topSingularVectorsHandler(JobInputs inputs) {
        return new Runner(QueryKind.TOP_SINGULAR_VECTORS, inputs);
    }

    static final class Runner implements JobHandler {
        private final QueryKind kind;
        private final JobInputs inputs;

        Runner(QueryKind kind, JobInputs inputs) {
            this.kind = kind;
            this.inputs = inputs;
        }

        @Override
        public String kind() {
            return kind.name();
        }

        /** The stored rows, block by block, for {@code passes} passes; progress runs to 0.9 over them. */
        private RowStream rowStream(Dataset dataset, JobContext context, int passes) {
            long n = dataset.rows();
            int[] pass = {0};
            return visitor -> {
                long[] seen = {0};
                inputs.rows().forEachMatrixChunk(dataset.id(), (MatrixChunk chunk) -> {
                    visitor.block(chunk.toDense(), chunk.rowCount(), seen[0]);
                    seen[0] += chunk.rowCount();
                    context.progress(0.9 * Math.min(1, (pass[0] + (double) seen[0] / Math.max(1, n)) / passes));
                });
                pass[0]++;
            };
        }

        @Override
        public JobOutput run(JobContext context) {
            JobInputs.Loaded in = inputs.load(context);
            Dataset dataset = in.dataset();
            QueryPlanner.Planned planned = in.planned();
            LowRankSpec spec = planned.lowRank();
            int d = Math.toIntExact(dataset.cols());
            long n = dataset.rows();
            NoiseSource random = NoiseSources.secure();
            Factorization f;
            if (spec.rowBased()) {
                // Two passes (randomized response: Gram then u; Hardt–Roth: range finder then projection).
                RowStream stream = rowStream(dataset, context, 2);
                f = spec.randomizedResponse() != null ? spec.randomizedResponse().release(stream, random)
                        : spec.hardtRoth().release(stream, random);
            } else if (spec.orbit() == null && d > QueryPlanner.MAX_GRAM_DIMENSION) {
                // Too wide for the d × d Gram: stream Xᵀ(X·V) from the rows, one pass per iteration.
                RowStream stream = rowStream(dataset, context, spec.iterations());
                GramOperator op = GramOperator.ofRows(stream, d);
                f = spec.noisyPower() != null ? spec.noisyPower().release(op, random) : spec.oja().release(op, random);
            } else {
                double[] c = inputs.gram(dataset, context, 0.8, null);
                if (spec.noisyPower() != null) {
                    f = spec.noisyPower().release(c, random);
                } else if (spec.oja() != null) {
                    f = spec.oja().release(c, random);
                } else {
                    boolean nPublic = dataset.neighbouring() == Neighbouring.REPLACE_ONE;
                    double b2 = dataset.rowNormBound() * dataset.rowNormBound();
                    f = spec.orbit().release(c, nPublic ? n * b2 : Double.POSITIVE_INFINITY, random);
                }
            }
            context.progress(0.95);
            Map<String, Object> body = in.resultHead(kind.name());
            body.put("noise", planned.plan().noise());
            body.put("facts", f.facts());
            body.put("k", f.k());
            body.put("singularValues", f.s());
            body.put("v", RowMajor.rows(f.v(), d, f.k()));
            if (spec.leftFactor() && f.u() != null) {
                body.put("rows", f.m());
                if ((long) f.m() * f.k() <= INLINE_LIMIT) {
                    body.put("u", RowMajor.rows(f.u(), f.m(), f.k()));
                } else {
                    body.put("u", "m·k exceeds " + INLINE_LIMIT + ": ask for application/x-npy");
                }
                return new JobOutput(inputs.toJson(body), "u", new int[] {f.m(), f.k()}, f.u());
            }
            return new JobOutput(inputs.toJson(body), "v", new int[] {d, f.k()}, f.v());
        }
    }
}
