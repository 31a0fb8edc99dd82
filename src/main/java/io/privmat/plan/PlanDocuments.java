package io.privmat.plan;

import io.privmat.api.RequestParamsJson;
import io.privmat.hashing.Sha256;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PublicArtifacts;
import io.privmat.privacy.PrivacyLoss;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * The plan's stored documents, for query jobs and subscriptions alike (docs/architecture.md, "The
 * plan documents"). At submission a plan is written once ({@link #write}: its spec, its request hash
 * and its loss document); a worker reads the stored spec once ({@link #rebuild}) and checks the
 * stored loss against the rebuilt plan's typed losses ({@link #chargeMatches}) before any data access.
 *
 * <p>The documents' JSON does not depend on the application's Jackson settings: this class writes
 * and reads them with its own mappers, so that the stored form is the codec's alone.
 */
@Component
public class PlanDocuments {

    /** Writes documents (numbers as their Java types, so a double's canonical text is its own). */
    private static final JsonMapper WRITER = JsonMapper.builder().addModule(RequestParamsJson.module()).build();
    /** Reads a stored spec: parameters' decimals stay exact, unknown keys are ignored (as always). */
    private static final ObjectReader SPEC = JsonMapper.builder().addModule(RequestParamsJson.module())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build().readerFor(SpecDocument.class);
    /**
     * Reads a stored loss document: a value it does not know is a mismatch, not something to skip; so
     * are a repeated key, a number written as a string and a fraction where a count belongs.
     */
    private static final ObjectReader LOSS = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build().readerFor(LossDocument.class);

    private final MechanismCatalog catalog;

    public PlanDocuments(MechanismCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * A plan's documents as stored at submission: the spec (JSON), the request hash idempotency keys
     * are checked against, and the loss document (JSON).
     */
    public record Written(String specJson, String requestHash, String lossJson) {

        /**
         * True if a stored request hash is this request's. Subscriptions created before the plan
         * documents were one service stored SHA-256 of their spec JSON instead of the canonical hash;
         * those hashes still match the same request.
         */
        public boolean sameRequest(String storedHash) {
            return storedHash.equals(requestHash) || storedHash.equals(Sha256.hex(specJson));
        }
    }

    /** Writes a plan's documents, each once. */
    public Written write(Plan plan) {
        SpecDocument spec = SpecDocument.of(plan.spec());
        return new Written(WRITER.writeValueAsString(spec), Sha256.hex(Canonical.text(WRITER.valueToTree(spec))),
                lossJson(plan));
    }

    /** The stored spec of a plan (JSON: sorted keys, exact decimals). */
    public String specJson(Plan plan) {
        return WRITER.writeValueAsString(SpecDocument.of(plan.spec()));
    }

    /** The loss document of a plan (JSON), rendered from its typed losses. */
    public String lossJson(Plan plan) {
        return WRITER.writeValueAsString(LossDocument.of(plan));
    }

    /**
     * Rebuilds the plan a stored spec describes, through the same validation as a new request.
     *
     * @throws IllegalArgumentException when the text is not a stored spec this service can read
     * @throws io.privmat.mechanism.catalog.PlanningException when the spec no longer plans
     */
    public Plan rebuild(String specJson, PublicArtifacts artifacts) {
        SpecDocument document = read(SPEC, specJson, "a stored spec");
        return catalog.rebuild(document.parsed(), artifacts);
    }

    /** {@link #rebuild(String, PublicArtifacts)} with artifacts given inline only (stream mechanisms). */
    public Plan rebuild(String specJson) {
        return rebuild(specJson, PublicArtifacts.inline());
    }

    /**
     * Reads a stored loss document into its typed losses.
     *
     * @throws IllegalArgumentException when it is not a loss document
     */
    public LossDocument.Losses readLoss(String lossJson) {
        LossDocument document = read(LOSS, lossJson, "a loss document");
        return document.losses();
    }

    /**
     * True if the stored loss document states exactly the plan's losses, as run and as charged
     * (decimals compared by value: the database may reformat them); false for anything else,
     * including a document that does not read.
     */
    public boolean chargeMatches(Plan plan, String storedLossJson) {
        LossDocument.Losses stored;
        try {
            stored = readLoss(storedLossJson);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return same(stored.mechanism(), plan.mechanismLoss()) && same(stored.charged(), plan.chargedLoss());
    }

    private static <T> T read(ObjectReader reader, String json, String what) {
        T document;
        try {
            document = reader.readValue(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not " + what + ": " + e.getOriginalMessage(), e);
        }
        if (document == null) {
            throw new IllegalArgumentException("not " + what + ": null");
        }
        return document;
    }

    /** Two typed losses of the same notion with the same values (decimals by value). */
    static boolean same(PrivacyLoss a, PrivacyLoss b) {
        return LossDocument.sameValues(LossDocument.Entry.of(a), LossDocument.Entry.of(b));
    }
}
