package io.privmat.api;

import io.privmat.mechanism.catalog.FactVocabulary;
import io.privmat.mechanism.catalog.Facts;
import java.util.Map;
import io.swagger.v3.oas.models.media.ObjectSchema;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Public facts ({@link Facts}: a plan's noise facts, a factorisation's facts, a release's metadata)
 * in JSON: one object, the facts' names as keys in their order, each value as Jackson writes it. The
 * one place facts are rendered, for responses and stored documents alike (the application's mapper
 * carries the module; {@link #module()} gives it to a mapper built by hand), and the one place stored
 * facts are read back ({@link #read}). In the served contract a
 * facts field is an object, typed by its vocabulary's schema where the view refers to it.
 */
@Configuration(proxyBeanMethods = false)
public class FactsJson {

    static {
        SpringDocUtils.getConfig().replaceWithSchema(Facts.class, new ObjectSchema());
    }

    @Bean
    JacksonModule privmatFacts() {
        return module();
    }

    /** The module that writes {@link Facts}. */
    public static JacksonModule module() {
        SimpleModule module = new SimpleModule("privmat-facts");
        module.addSerializer(Facts.class, new FactsSerializer());
        return module;
    }

    /**
     * Facts stored as a JSON document (a release's metadata), read back with the mapper that reads
     * every stored document (its numbers as the document holds them).
     *
     * @throws IllegalArgumentException when a key is not a fact of the vocabulary or has the wrong type
     */
    public static Facts read(JsonMapper json, FactVocabulary vocabulary, String document) {
        return Facts.parse(vocabulary, json.readValue(document, new TypeReference<Map<String, ?>>() {}));
    }

    static final class FactsSerializer extends StdSerializer<Facts> {
        FactsSerializer() {
            super(Facts.class);
        }

        @Override
        public void serialize(Facts facts, JsonGenerator gen, SerializationContext context) {
            gen.writeStartObject(facts);
            facts.forEach((name, value) -> {
                gen.writeName(name);
                context.writeValue(gen, value);
            });
            gen.writeEndObject();
        }
    }
}
