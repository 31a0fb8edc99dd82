package io.privmat.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.privmat.dataset.ExternalSchema;
import io.privmat.mechanism.NeighbouringRelation;
import io.privmat.mechanism.catalog.DataAccess;
import io.privmat.mechanism.catalog.DataShape;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.MechanismDefinition;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PublicFacts;
import io.privmat.mechanism.catalog.QueryBudget;
import io.privmat.mechanism.catalog.QueryKind;
import io.privmat.mechanism.catalog.Release;
import io.privmat.mechanism.catalog.CovarianceRelease;
import io.privmat.mechanism.catalog.Factorization;
import io.privmat.mechanism.noise.TestNoiseSources;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every mechanism the catalogue offers on matrices (column sums, covariance and PCA, sketches, low
 * rank and top singular vectors, regression), under both relations where it supports them: the same
 * plan released with the same seed on the Spark path and on the in-process path over the same rows
 * gives the same values, bit for bit. The statistic is exact on both paths ({@code FixedPointGram}),
 * so nothing downstream — noise, eigensolvers, samplers — can tell them apart; the same holds for
 * the vector layout (one column holding the row as a list of doubles or as 8·d bytes).
 */
class SparkParityTest {

    static final int N = 300;
    static final int D = 6;
    static final double B = 1.5;
    static ExternalSchema source;
    static ExternalSchema list;
    static ExternalSchema binary;
    static double[][] rowsAsRead;

    @BeforeAll
    static void write() {
        Path dir = SparkTestData.tempDir();
        double[][] x = SparkTestData.matrix(N, D, B, 77);
        source = new ExternalSchema(SparkTestData.write(x, dir, "parity", ExternalSchema.Format.PARQUET, 3),
                ExternalSchema.Format.PARQUET, SparkTestData.columns(D), (long) N);
        rowsAsRead = SparkTestData.readBack(source);
        // The rows in the order Spark reads the scalar files, one file each (the row-stream mechanisms
        // see the source's order; SparkStatisticsTest covers several files of the vector layout).
        list = SparkTestData.writeVector(rowsAsRead, dir, "parity-list", SparkTestData.Vector.LIST, 1, (long) N);
        binary = SparkTestData.writeVector(rowsAsRead, dir, "parity-binary", SparkTestData.Vector.BINARY, 1,
                (long) N);
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (MechanismDefinition m : MechanismCatalog.standard().all()) {
            if (!m.shapes().contains(DataShape.MATRIX)) {
                continue;
            }
            for (QueryKind kind : m.kinds()) {
                for (NeighbouringRelation r : m.relations()) {
                    out.add(Arguments.of(m.name(), kind, r));
                }
            }
        }
        assertThat(out).hasSizeGreaterThan(20);
        return out.stream();
    }

    static QueryBudget budget(MechanismDefinition m) {
        return switch (m.budgetForm()) {
            case GAUSSIAN -> new QueryBudget(null, null, new BigDecimal("0.5"));
            case PURE_EPSILON -> new QueryBudget(BigDecimal.ONE, null, null);
            case APPROXIMATE -> new QueryBudget(BigDecimal.ONE, new BigDecimal("1e-6"), null);
            case PURE_OR_GAUSSIAN -> new QueryBudget(null, null, new BigDecimal("0.5"));
        };
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void sparkAndInProcessReleasesAreIdenticalWithTheSameSeed(String name, QueryKind kind, NeighbouringRelation relation) {
        MechanismCatalog catalog = MechanismCatalog.standard();
        MechanismDefinition m = catalog.find(name).orElseThrow();
        PublicFacts facts = SparkTestData.facts(D, B, (long) N, relation);
        Plan plan = catalog.plan(kind.name(), name, budget(m), m.exampleParams(kind), facts);
        DataAccess local = new SparkTestData.LocalExact(rowsAsRead, D, B);
        double[] b = values(plan.release(local, TestNoiseSources.seeded(11)));
        // The d scalar columns and the vector layout (a list of doubles, a binary).
        for (ExternalSchema layout : List.of(source, list, binary)) {
            ExternalSchema declared = relation == NeighbouringRelation.REPLACE_ONE ? layout
                    : new ExternalSchema(layout.location(), layout.format(), layout.columns(), null, layout.vector());
            DataAccess spark = SparkTestData.access(declared, facts, new SparkTestData.Recorder());
            double[] a = values(plan.release(spark, TestNoiseSources.seeded(11)));
            assertThat(a).as(layout.location()).isNotEmpty().containsExactly(b);
        }
        // A different seed gives another release: the comparison above is not vacuous.
        assertThat(values(plan.release(local, TestNoiseSources.seeded(12)))).isNotEqualTo(b);
    }

    static double[] values(Release r) {
        if (r instanceof Release.Vector v) {
            return v.values();
        }
        if (r instanceof Release.Covariance c) {
            CovarianceRelease cr = c.result();
            return concat(cr.eigenvalues(), cr.components(), cr.covariance() == null ? new double[0] : cr.covariance());
        }
        if (r instanceof Release.Factors f) {
            Factorization fz = f.factorization();
            return concat(fz.s(), fz.v(), fz.u() == null ? new double[0] : fz.u());
        }
        if (r instanceof Release.Regression g) {
            return concat(g.result().estimate(), g.result().lower(), g.result().upper());
        }
        return ((Release.Sketch) r).values();
    }

    static double[] concat(double[]... parts) {
        return Arrays.stream(parts).flatMapToDouble(Arrays::stream).toArray();
    }
}
