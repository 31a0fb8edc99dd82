package io.privmat.config;

/**
 * Start-up refused: no {@code spring.datasource.url} is configured and the embedded PostgreSQL is
 * switched off ({@code privmat.embedded-postgres.enabled=false}, as in the container image).
 * {@link NoDatabaseConfiguredFailureAnalyzer} turns it into advice that names both settings.
 */
class NoDatabaseConfiguredException extends IllegalStateException {

    NoDatabaseConfiguredException() {
        super("No database: spring.datasource.url is not set and privmat.embedded-postgres.enabled is false");
    }
}
