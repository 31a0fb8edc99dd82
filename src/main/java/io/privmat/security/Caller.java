package io.privmat.security;

import java.util.UUID;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The authenticated caller of a request: the key, the subject it acts for (several keys may share
 * a subject, e.g. after rotation) and its role.
 */
public record Caller(UUID keyId, String subject, Role role) {

    /** The caller of the current request; throws if the request is not authenticated. */
    public static Caller current() {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth != null && auth.getPrincipal() instanceof Caller caller) {
            return caller;
        }
        throw new IllegalStateException("no authenticated caller");
    }

    public boolean is(Role r) {
        return role == r;
    }
}
