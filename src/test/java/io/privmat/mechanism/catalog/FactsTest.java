package io.privmat.mechanism.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.mechanism.lowrank.FactorizationFacts;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FactsTest {

    @Test
    void keepsTheOrderFactsWerePutInAndReadsThemTyped() {
        Facts noise = Facts.builder(NoiseFacts.VOCABULARY).put(NoiseFacts.DISTRIBUTION, "discrete Gaussian")
                .put(NoiseFacts.SIGMA, 2.5).put(NoiseFacts.ITERATIONS, 3).build();
        List<String> names = new ArrayList<>();
        noise.forEach((name, value) -> names.add(name));
        assertThat(names).containsExactly("distribution", "sigma", "iterations");
        double sigma = noise.get(NoiseFacts.SIGMA);
        int iterations = noise.get(NoiseFacts.ITERATIONS);
        assertThat(sigma).isEqualTo(2.5);
        assertThat(iterations).isEqualTo(3);
        assertThat(noise.find(NoiseFacts.SCALE)).isNull();
        assertThat(noise.has(NoiseFacts.SCALE)).isFalse();
    }

    @Test
    void withAddsACopyAndKeepsAPresentFactInItsPlace() {
        Facts facts = Facts.builder(FactorizationFacts.VOCABULARY).put(FactorizationFacts.SIGMA, 1.0)
                .put(FactorizationFacts.ERROR_BOUND, "bound").build();
        Facts shrunk = facts.with(FactorizationFacts.SIGMA, 2.0).with(FactorizationFacts.COMPONENTS_ABOVE_NOISE, 1);
        assertThat(facts.get(FactorizationFacts.SIGMA)).isEqualTo(1.0);
        assertThat(facts.size()).isEqualTo(2);
        assertThat(shrunk.entries()).extracting(Facts.Entry::name)
                .containsExactly("sigma", "errorBound", "componentsAboveNoise");
        assertThat(shrunk.get(FactorizationFacts.SIGMA)).isEqualTo(2.0);
    }

    @Test
    void aMissingFactFailsLoudlyAndAFactOfAnotherVocabularyIsRefused() {
        Facts empty = Facts.empty(NoiseFacts.VOCABULARY);
        assertThatThrownBy(() -> empty.get(NoiseFacts.SIGMA)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sigma");
        assertThatThrownBy(() -> Facts.builder(NoiseFacts.VOCABULARY).put(ReleaseMeta.NU, 0.05))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ReleaseMeta.nu");
    }

    @Test
    void checkRefusesANumberThatIsNotFinite() {
        Facts facts = Facts.builder(NoiseFacts.VOCABULARY).put(NoiseFacts.SIGMA, Double.NaN).build();
        assertThatThrownBy(() -> NoiseFacts.VOCABULARY.check(facts)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sigma");
        assertThatThrownBy(() -> ReleaseMeta.VOCABULARY.check(facts)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parsedFactsConvertOnReadAndKeepTheNumbersAsRead() {
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("degrees", 12); // an INTEGER fact declared Long, read as an Integer
        stored.put("b2", new BigDecimal("0.000030517578125")); // a decimal as a stored document holds it
        stored.put("nu", 1); // a NUMBER written without a fraction
        Facts meta = Facts.parse(ReleaseMeta.VOCABULARY, stored);
        long degrees = meta.get(ReleaseMeta.DEGREES);
        assertThat(degrees).isEqualTo(12L);
        assertThat(meta.get(ReleaseMeta.B2)).isEqualTo(3.0517578125E-5);
        assertThat(meta.get(ReleaseMeta.NU)).isEqualTo(1.0);
        Map<String, Object> rendered = new LinkedHashMap<>();
        meta.forEach(rendered::put);
        assertThat(rendered).containsExactlyEntriesOf(stored);
    }

    @Test
    void parseRefusesAnUndeclaredKeyOrAWrongType() {
        assertThatThrownBy(() -> Facts.parse(ReleaseMeta.VOCABULARY, Map.of("unknown", 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown");
        assertThatThrownBy(() -> Facts.parse(ReleaseMeta.VOCABULARY, Map.of("nu", "0.05")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nu");
        assertThatThrownBy(() -> Facts.parse(ReleaseMeta.VOCABULARY, Map.of("r", 1.5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("r");
    }

    @Test
    void theVocabulariesDeclareEachNameOnceInTheirOrder() {
        assertThat(NoiseFacts.VOCABULARY.fields()).extracting(Fact::name).startsWith("distribution", "sigma")
                .doesNotHaveDuplicates();
        assertThat(NoiseFacts.VOCABULARY.fact("sigma")).isSameAs(NoiseFacts.SIGMA);
        assertThat(FactorizationFacts.VOCABULARY.fact("sigma")).isSameAs(FactorizationFacts.SIGMA)
                .isNotSameAs(NoiseFacts.SIGMA);
    }

    @Test
    void theVocabulariesNameNoMechanismAndTheCatalogueDescribesEveryFact() {
        MechanismCatalog catalog = MechanismCatalog.standard();
        List<String> ids = catalog.all().stream().map(MechanismDefinition::name).toList();
        for (FactVocabulary v : List.of(NoiseFacts.VOCABULARY, FactorizationFacts.VOCABULARY, ReleaseMeta.VOCABULARY)) {
            for (Fact<?> f : v.fields()) {
                for (String id : ids) {
                    assertThat(f.description()).as(f + " names " + id).doesNotContainPattern("\\b" + id + "\\b");
                }
                assertThat(catalog.description(f)).as(f.toString()).isNotBlank();
            }
        }
        // two families' notes on one fact, in catalogue order after nothing of the vocabulary's own
        assertThat(catalog.description(NoiseFacts.ETA)).isEqualTo("JL: multiplicative accuracy of the answers; "
                + "ADASSP: the noise bound η that sets its ridge");
        // a vocabulary's own text comes first; a fact no mechanism notes is served as declared
        assertThat(catalog.description(NoiseFacts.SIGMA)).isEqualTo(NoiseFacts.SIGMA.description());
        // the values of one family noting the same fact serve it once
        assertThat(catalog.description(NoiseFacts.STRATEGY_KEY)).doesNotContain("; ");
    }

    @Test
    void aNoteMustSaySomething() {
        assertThatThrownBy(() -> NoiseFacts.SIGMA.note(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneValueDeclaresItselfTheWarmUpsRepresentativeAndItAnswersPcaOnAMatrix() {
        MechanismCatalog catalog = MechanismCatalog.standard();
        assertThat(catalog.all().stream().filter(MechanismDefinition::warmUpRepresentative)).hasSize(1);
        MechanismDefinition m = catalog.warmUpRepresentative();
        assertThat(m.kinds()).contains(QueryKind.PCA);
        assertThat(m.shapes()).contains(DataShape.MATRIX);
        assertThatThrownBy(() -> new MechanismCatalog(List.of()).warmUpRepresentative())
                .isInstanceOf(IllegalStateException.class);
    }
}
