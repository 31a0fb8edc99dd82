package io.privmat.security;

/** What a key may do. */
public enum Role {
    /** Manages API keys, reads the audit log and metrics; no access to datasets. */
    ADMIN,
    /** Creates datasets, uploads data, grants and revokes analysts, deletes; queries own datasets. */
    OWNER,
    /** Quotes and submits queries on datasets granted to it; reads its own jobs and results. */
    ANALYST
}
