package io.privmat.stream;

import io.privmat.mechanism.catalog.Facts;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One window release of a subscription: its block, the stream block it completed with, the stored
 * release that holds the estimate, the kind's post-processed answer (PCA: eigenvalues and
 * components, as JSON) and the release's public facts.
 */
public record SubscriptionRelease(UUID subscriptionId, long block, long streamBlock, UUID releaseId,
        @Nullable String answer, Facts meta, Instant createdAt) {}
