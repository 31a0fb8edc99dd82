package io.privmat.api;

import io.privmat.mechanism.catalog.RequestParams;
import io.swagger.v3.oas.models.media.ObjectSchema;
import java.util.Map;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.deser.std.StdConvertingDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdConvertingSerializer;
import tools.jackson.databind.util.StdConverter;

/**
 * Raw request parameters ({@link RequestParams}) in JSON: read exactly as a JSON object bound to a
 * map is read by the mapper at hand (its duplicate, coercion and number settings apply unchanged; the
 * mechanism's declarations validate the values afterwards), written as that object in its order. The
 * application's mapper carries the module (request bodies); {@link #module()} gives it to a mapper
 * built by hand (the stored spec's codec). In the served contract a params field is an object, typed
 * by the mechanism's params schema where the request refers to it.
 */
@Configuration(proxyBeanMethods = false)
public class RequestParamsJson {

    static {
        SpringDocUtils.getConfig().replaceWithSchema(RequestParams.class, new ObjectSchema());
    }

    @Bean
    JacksonModule privmatRequestParams() {
        return module();
    }

    /** The module that reads and writes {@link RequestParams}. */
    public static JacksonModule module() {
        SimpleModule module = new SimpleModule("privmat-request-params");
        module.addSerializer(RequestParams.class, new StdConvertingSerializer(new Out()));
        module.addDeserializer(RequestParams.class, new StdConvertingDeserializer<>(new In()));
        return module;
    }

    /** A JSON object as the mapper binds it to a map, as parameters. */
    static final class In extends StdConverter<Map<String, ?>, RequestParams> {
        @Override
        public RequestParams convert(Map<String, ?> object) {
            return RequestParams.of(object);
        }
    }

    /** Parameters as the JSON object they hold. */
    static final class Out extends StdConverter<RequestParams, Map<String, ?>> {
        @Override
        public Map<String, ?> convert(RequestParams params) {
            return params.asMap();
        }
    }
}
