package io.privmat.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.hashing.Sha256;
import io.privmat.mechanism.catalog.MechanismCatalog;
import io.privmat.mechanism.catalog.Plan;
import io.privmat.mechanism.catalog.PlanningException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The plan documents against what is stored: {@code stored-specs-v1.tsv} holds, for plans of every
 * mechanism and kind on every shape, accounting mode and budget form, the spec JSON, the request hash
 * and the loss document exactly as written before the typed codec (by the string-keyed maps it
 * replaced). Every line must read, rebuild to the same plan, and be written back byte for byte, with
 * the same hash; a stored loss altered in any way must be refused.
 */
class PlanDocumentsTest {

    private static final Path STORED = Path.of("src/test/resources/io/privmat/plan/stored-specs-v1.tsv");
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    /** The parts of a loss that are doubles (Δ, σ, μ); the others are exact decimals or counts. */
    private static final Set<String> DOUBLES = Set.of("l2Sensitivity", "sigma", "mu");

    private final PlanDocuments documents = new PlanDocuments(MechanismCatalog.standard());

    record Stored(String spec, String hash, String loss) {}

    static List<Stored> stored() throws IOException {
        List<Stored> out = new ArrayList<>();
        for (String line : Files.readAllLines(STORED, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            out.add(new Stored(f[0], f[1], f[2]));
        }
        return out;
    }

    @Test
    void everyStoredVersionOneSpecRebuildsAndIsWrittenBackExactly() throws IOException {
        List<Stored> all = stored();
        assertThat(all).hasSizeGreaterThan(100);
        List<String> differences = new ArrayList<>();
        for (Stored s : all) {
            Plan plan = documents.rebuild(s.spec());
            PlanDocuments.Written written = documents.write(plan);
            if (!written.specJson().equals(s.spec()) || !written.requestHash().equals(s.hash())
                    || !written.lossJson().equals(s.loss()) || !documents.chargeMatches(plan, s.loss())) {
                differences.add(s.spec() + "\n  now: " + written);
            }
            // As PostgreSQL's jsonb gives it back: other key order, other spacing, plain decimals.
            Plan fromDatabase = documents.rebuild(asJsonb(s.spec()));
            if (!documents.specJson(fromDatabase).equals(s.spec()) || !documents.chargeMatches(fromDatabase,
                    asJsonb(s.loss()))) {
                differences.add(s.spec() + "\n  does not read back from its jsonb form");
            }
        }
        assertThat(differences).isEmpty();
    }

    @Test
    void aStoredLossAlteredAnywhereIsAMismatch() throws IOException {
        for (Stored s : stored().subList(0, 40)) {
            Plan plan = documents.rebuild(s.spec());
            ObjectNode loss = (ObjectNode) JSON.readTree(s.loss());
            for (String side : List.of("mechanism", "charged")) {
                ObjectNode entry = (ObjectNode) loss.get(side);
                for (Map.Entry<String, JsonNode> value : List.copyOf(entry.properties())) {
                    ObjectNode altered = loss.deepCopy();
                    JsonNode v = value.getValue();
                    ObjectNode e = (ObjectNode) altered.get(side);
                    if (v.isString()) {
                        e.put(value.getKey(), v.stringValue().equals("zCDP") ? "pure-DP" : "zCDP");
                    } else if (v.isIntegralNumber()) {
                        e.put(value.getKey(), v.intValue() + 1);
                    } else if (DOUBLES.contains(value.getKey())) {
                        // The next double: the smallest change a double-valued part of a loss can show.
                        e.put(value.getKey(), Math.nextUp(v.doubleValue()));
                    } else {
                        // One unit in the last of up to 34 digits.
                        BigDecimal d = v.decimalValue();
                        e.put(value.getKey(), d.add(d.ulp()));
                    }
                    assertThat(documents.chargeMatches(plan, altered.toString())).as("%s %s altered in %s", side,
                            value.getKey(), s.loss()).isFalse();
                    ObjectNode removed = loss.deepCopy();
                    ((ObjectNode) removed.get(side)).remove(value.getKey());
                    assertThat(documents.chargeMatches(plan, removed.toString())).isFalse();
                }
                ObjectNode extra = loss.deepCopy();
                ((ObjectNode) extra.get(side)).put("epsilon".equals(entry.propertyNames().iterator().next())
                        ? "rho" : "parts", 1);
                assertThat(documents.chargeMatches(plan, extra.toString())).as("extra value in %s", side).isFalse();
                ObjectNode missing = loss.deepCopy();
                missing.remove(side);
                assertThat(documents.chargeMatches(plan, missing.toString())).isFalse();
            }
            ObjectNode unknown = loss.deepCopy();
            unknown.put("note", "x");
            assertThat(documents.chargeMatches(plan, unknown.toString())).isFalse();
            // A text that states the same values in a form the service never writes is a mismatch too:
            // a repeated key (whichever a reader keeps), a number written as a string.
            String genuine = s.loss();
            assertThat(documents.chargeMatches(plan, genuine)).isTrue();
            String charged = loss.get("charged").toString();
            assertThat(documents.chargeMatches(plan, "{\"charged\":" + charged + "," + genuine.substring(1)))
                    .as("repeated key in %s", genuine).isFalse();
            ObjectNode quoted = loss.deepCopy();
            ObjectNode entry = (ObjectNode) quoted.get("charged");
            String firstNumber = entry.propertyStream().filter(p -> p.getValue().isNumber()).map(Map.Entry::getKey)
                    .findFirst().orElseThrow();
            entry.put(firstNumber, entry.get(firstNumber).asString());
            assertThat(documents.chargeMatches(plan, quoted.toString())).as("number as a string in %s", genuine)
                    .isFalse();
            assertThat(documents.chargeMatches(plan, "not json")).isFalse();
            assertThat(documents.chargeMatches(plan, "null")).isFalse();
        }
    }

    @Test
    void aSpecThatIsNotVersionOneOrLacksAValueDoesNotRead() throws IOException {
        String spec = stored().get(0).spec();
        ObjectNode doc = (ObjectNode) JSON.readTree(spec);
        assertThatThrownBy(() -> documents.rebuild(doc.deepCopy().put("version", 2).toString()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version 2");
        assertThatThrownBy(() -> documents.rebuild(doc.deepCopy().without("version").toString()))
                .isInstanceOf(IllegalArgumentException.class);
        for (String key : List.of("kind", "mechanism", "facts")) {
            assertThatThrownBy(() -> documents.rebuild(doc.deepCopy().without(key).toString())).as(key)
                    .isInstanceOf(IllegalArgumentException.class).isNotInstanceOf(PlanningException.class);
        }
        ObjectNode noCols = doc.deepCopy();
        ((ObjectNode) noCols.get("facts")).remove("cols");
        assertThatThrownBy(() -> documents.rebuild(noCols.toString())).hasMessageContaining("facts.cols");
        ObjectNode wrongType = doc.deepCopy();
        ((ObjectNode) wrongType.get("facts")).put("cols", "four");
        assertThatThrownBy(() -> documents.rebuild(wrongType.toString())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> documents.rebuild(doc.deepCopy().put("kind", "NOPE").toString()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> documents.rebuild(doc.deepCopy().put("mechanism", "NOPE").toString()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown mechanism");
        assertThatThrownBy(() -> documents.rebuild("[1]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> documents.rebuild("null")).isInstanceOf(IllegalArgumentException.class);
        // A key it does not know is ignored, as the maps it replaced ignored it.
        assertThat(documents.specJson(documents.rebuild(doc.deepCopy().put("note", "x").toString()))).isEqualTo(spec);
    }

    /**
     * One hash per request for query jobs and subscriptions: the canonical one; a subscription created
     * before stored SHA-256 of its spec JSON, which still names the same request.
     */
    @Test
    void theRequestHashIsCanonicalAndASubscriptionsEarlierHashStillMatches() throws IOException {
        Stored s = stored().get(3);
        PlanDocuments.Written written = documents.write(documents.rebuild(s.spec()));
        assertThat(written.sameRequest(s.hash())).isTrue();
        assertThat(written.sameRequest(Sha256.hex(s.spec()))).isTrue();
        assertThat(written.sameRequest(stored().get(4).hash())).isFalse();
        assertThat(written.sameRequest(Sha256.hex(stored().get(4).spec()))).isFalse();
    }

    /** The text PostgreSQL's jsonb returns for a document: keys by length then bytes, spaced, plain decimals. */
    static String asJsonb(String json) throws IOException {
        StringBuilder out = new StringBuilder();
        jsonb(JSON.readTree(json), out);
        return out.toString();
    }

    private static void jsonb(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            List<String> keys = new ArrayList<>(node.propertyNames());
            keys.sort(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));
            out.append('{');
            for (int i = 0; i < keys.size(); i++) {
                out.append(i == 0 ? "" : ", ").append(JSON.writeValueAsString(keys.get(i))).append(": ");
                jsonb(node.get(keys.get(i)), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                out.append(i == 0 ? "" : ", ");
                jsonb(node.get(i), out);
            }
            out.append(']');
        } else if (node.isBigDecimal()) {
            out.append(node.decimalValue().toPlainString());
        } else {
            out.append(JSON.writeValueAsString(node));
        }
    }
}
