package io.privmat.security;

import io.privmat.hashing.Sha256;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import io.privmat.security.jdbc.ApiKeyRepository;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Creates, lists, revokes and checks API keys. A key is {@code pm_} followed by 43 base64url
 * characters (256 random bits from {@link SecureRandom}); only its SHA-256 is stored (a fast hash
 * is enough for a 256-bit random secret: there is nothing to brute-force), with its first 11
 * characters as a public prefix for listing.
 */
@Service
public class ApiKeyService {

    /** A newly created key: the only time the key itself is returned. */
    public record Created(ApiKey key, String secret) {}

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ApiKeyRepository repository;
    private final Clock clock;

    public ApiKeyService(ApiKeyRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    /**
     * Creates a key. A subject has one role for ever: a key whose subject already belongs to keys
     * of another role (active or revoked) is refused with 409, or an ADMIN could mint an ANALYST
     * key named like an owner and act as that owner's analyst.
     */
    @org.springframework.transaction.annotation.Transactional
    public Created create(String name, String subject, Role role, String createdBy) {
        Optional<String> other = repository.lockSubjectRoles(subject).stream()
                .filter(r -> !r.equals(role.name())).findFirst();
        if (other.isPresent()) {
            throw new PrivmatException(ProblemType.SUBJECT_ROLE_CONFLICT, "This subject already "
                    + "belongs to keys of role " + other.get() + "; a subject has one role.",
                    java.util.Map.of("parameter", "subject", "existingRole", other.get()));
        }
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        String secret = "pm_" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        return new Created(store(secret, name, subject, role, createdBy), secret);
    }

    private ApiKey store(String secret, String name, String subject, Role role, String createdBy) {
        UUID id = UUID.randomUUID();
        String prefix = secret.substring(0, Math.min(11, secret.length()));
        repository.insert(id, prefix, hash(secret), name, subject, role, createdBy, clock.instant());
        return repository.find(id).orElseThrow();
    }

    /**
     * Makes sure an admin key exists: the configured bootstrap key if one is given (registered
     * once), otherwise — when no active admin key exists at all — a generated one, returned so that
     * it can be printed once.
     */
    public Optional<String> bootstrap(String configuredKey) {
        if (configuredKey != null && !configuredKey.isBlank()) {
            if (configuredKey.length() < 24) {
                throw new IllegalStateException("PRIVMAT_BOOTSTRAP_ADMIN_KEY must have at least 24 characters");
            }
            if (!repository.existsByHash(hash(configuredKey))) {
                try {
                    store(configuredKey, "bootstrap", "bootstrap-admin", Role.ADMIN, "bootstrap");
                } catch (org.springframework.dao.DataIntegrityViolationException concurrentReplica) {
                    // Another replica registered it first.
                }
            }
            return Optional.empty();
        }
        if (repository.countActiveAdmins() == 0) {
            return Optional.of(create("bootstrap", "bootstrap-admin", Role.ADMIN, "bootstrap").secret());
        }
        return Optional.empty();
    }

    public Optional<Caller> authenticate(String token) {
        return repository.findActiveByHash(hash(token)).map(k -> new Caller(k.id(), k.subject(), k.role()));
    }

    public List<ApiKey> list(int offset, int limit) {
        return repository.list(offset, limit);
    }

    public ApiKey revoke(UUID id) {
        ApiKey key = repository.find(id).orElseThrow(() -> new PrivmatException(ProblemType.NOT_FOUND,
                "No API key with id " + id + ".", java.util.Map.of()));
        repository.revoke(id, clock.instant());
        return repository.find(key.id()).orElseThrow();
    }

    static byte[] hash(String secret) {
        return Sha256.bytes(secret);
    }
}
