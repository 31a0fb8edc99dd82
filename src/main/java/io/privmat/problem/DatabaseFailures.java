package io.privmat.problem;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Map;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Which failures mean "the database is unavailable for now" (down, restarting, unreachable, or no
 * pooled connection free in time) rather than a bug or a bad request: the API answers them with
 * 503 and {@code Retry-After}, and the job engine retries its state writes on them within the
 * lease (docs/reliability.md). Decided from exception types and SQLSTATE classes only, never from
 * messages.
 */
public final class DatabaseFailures {

    /** What a client is told to wait before retrying a request refused for this reason. */
    public static final long RETRY_AFTER_SECONDS = 5;

    private DatabaseFailures() {}

    /** Whether {@code e}, or a cause of it, says the database is (temporarily) unavailable. */
    public static boolean isUnavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessException
                    || t instanceof RecoverableDataAccessException || t instanceof CannotCreateTransactionException
                    || t instanceof SQLTransientException || t instanceof SQLRecoverableException) {
                return true;
            }
            // A commit whose outcome the driver could not learn (the connection broke while committing).
            if (t instanceof TransactionSystemException && t.getCause() instanceof SQLException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                // 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now;
                // 53300: too many connections.
                if (state.startsWith("08") || state.startsWith("57P0") || state.equals("53300")) {
                    return true;
                }
            }
            if (t instanceof IOException && t.getClass().getName().startsWith("java.net")) {
                return true;
            }
        }
        return false;
    }

    /** The 503 a request gets when the database is unavailable. */
    public static PrivmatException unavailable(Throwable cause) {
        return new PrivmatException(ProblemType.SERVICE_UNAVAILABLE, "The database is unavailable or overloaded "
                + "right now. Retry later (a query submission with the same Idempotency-Key, so that it is not "
                + "charged twice).",
                Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS), cause);
    }
}
