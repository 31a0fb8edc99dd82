package io.privmat.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * What to do when privmat has no database (instead of Spring's advice to put an embedded H2, HSQL
 * or Derby on the classpath, which privmat cannot use): docs/deploy.md.
 */
class NoDatabaseConfiguredFailureAnalyzer extends AbstractFailureAnalyzer<NoDatabaseConfiguredException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NoDatabaseConfiguredException cause) {
        return new FailureAnalysis("privmat needs PostgreSQL, and none is configured: SPRING_DATASOURCE_URL "
                + "(spring.datasource.url) is not set, and the embedded PostgreSQL is switched off "
                + "(PRIVMAT_EMBEDDED_POSTGRES_ENABLED=false, privmat.embedded-postgres.enabled; the container "
                + "image sets it so that a pod never keeps its data in a throw-away database).",
                "Point privmat at your PostgreSQL (14 or newer): set SPRING_DATASOURCE_URL (e.g. "
                        + "jdbc:postgresql://db.example:5432/privmat), SPRING_DATASOURCE_USERNAME and "
                        + "SPRING_DATASOURCE_PASSWORD. For a local trial instead, set "
                        + "PRIVMAT_EMBEDDED_POSTGRES_ENABLED=true to start the embedded PostgreSQL (docs/deploy.md).",
                cause);
    }
}
