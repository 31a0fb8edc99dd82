package io.privmat.mechanism.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.privmat.mechanism.audit.AuditCases.AuditCase;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The empirical privacy audit (docs/privacy-audit.md): for every audited mechanism, the
 * Clopper–Pearson ε lower bound from its outputs on a worst-case neighbouring pair stays below the
 * claimed ε, and the same test with the same samples count and seeds rejects a mutant whose noise
 * is under-calibrated. Fixed seeds; false-alarm probability β = 1e-3 per bound.
 */
class PrivacyAuditTest {

    static final double BETA = 1e-3;

    static Stream<AuditCase> cases() {
        return AuditCases.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void lowerBoundStaysBelowTheClaimAndTheMutantIsCaught(AuditCase c) {
        Row row = run(c, 1, 20261122L);
        System.out.println(row.markdown());
        assertTrue(row.honest().epsilonLowerBound() <= c.claimedEpsilon(),
                () -> c + ": empirical lower bound " + row.honest() + " exceeds the claimed epsilon " + c.claimedEpsilon());
        assertTrue(row.mutant().epsilonLowerBound() > c.claimedEpsilon(),
                () -> c + ": the mutant (" + c.mutation() + ") was not caught: " + row.mutant());
    }

    record Row(AuditCase c, DpAuditor.Result honest, DpAuditor.Result mutant) {
        String markdown() {
            return String.format(Locale.ROOT, "| %s | %s | %s | %s | %.3f | %d | %s: %.3f (%s) |", c.mechanism(),
                    c.relation(), fmt(c.claimedEpsilon()), c.delta() == 0 ? "0" : String.format(Locale.ROOT, "%.3g", c.delta()),
                    honest.epsilonLowerBound(), honest.samplesPerSide(), c.mutation(), mutant.epsilonLowerBound(),
                    mutant.epsilonLowerBound() > c.claimedEpsilon() ? "caught" : "NOT caught");
        }

        private static String fmt(double v) {
            return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
        }
    }

    static Row run(AuditCase c, int scale, long seed) {
        int n = c.samples() * scale;
        DpAuditor.Result honest = DpAuditor.epsilonLowerBound(AuditCases.draw(c.honestD(), n, seed),
                AuditCases.draw(c.honestNeighbour(), n, seed + 1), c.delta(), BETA);
        DpAuditor.Result mutant = DpAuditor.epsilonLowerBound(AuditCases.draw(c.mutantD(), n, seed),
                AuditCases.draw(c.mutantNeighbour(), n, seed + 1), c.delta(), BETA);
        return new Row(c, honest, mutant);
    }
}
