package io.privmat.api;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.deser.jdk.NumberDeserializers;
import tools.jackson.databind.deser.jdk.UntypedObjectDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.TypeFactory;

/**
 * Bounds the decimal numbers a request body may carry. JSON allows {@code 1e999999999}: eleven
 * characters that Jackson reads as a {@link BigDecimal} with a huge scale, which is harmless until
 * something prints it in plain notation or converts it to an integer (a billion digits). Every
 * {@code BigDecimal} read from a request, typed or untyped (free-form {@code params}), must have a
 * decimal exponent within ±{@value #MAX_EXPONENT}, which covers every finite double; anything else is
 * refused while parsing with a 400 naming the field (see docs/reliability.md).
 */
@Configuration(proxyBeanMethods = false)
public class JsonNumberBounds {

    /** Largest accepted |decimal exponent| (the double range is about 1e-324 to 1e308). */
    public static final int MAX_EXPONENT = 400;

    @Bean
    JacksonModule privmatNumberBounds() {
        SimpleModule module = new SimpleModule("privmat-number-bounds");
        module.addDeserializer(BigDecimal.class, new BoundedBigDecimal());
        TypeFactory types = TypeFactory.createDefaultInstance();
        module.addDeserializer(Object.class, new BoundedUntyped(
                types.constructType(java.util.List.class), types.constructType(Map.class)));
        return module;
    }

    /** True when {@code value} is within the accepted exponent range. */
    public static boolean withinBounds(BigDecimal value) {
        if (value.signum() == 0) {
            return Math.abs((long) value.scale()) <= 2L * MAX_EXPONENT;
        }
        long exponent = (long) value.precision() - value.scale() - 1;
        return Math.abs(exponent) <= MAX_EXPONENT;
    }

    static JacksonException outOfRange(JsonParser p, BigDecimal value) {
        // The message is bounded and carries no digits of the value.
        return InvalidFormatException.from(p, "number outside the accepted range (decimal exponent beyond ±"
                + MAX_EXPONENT + ")", null, BigDecimal.class);
    }

    static final class BoundedBigDecimal extends NumberDeserializers.BigDecimalDeserializer {
        @Override
        public BigDecimal deserialize(JsonParser p, DeserializationContext ctxt) throws JacksonException {
            BigDecimal value = super.deserialize(p, ctxt);
            if (value != null && !withinBounds(value)) {
                throw outOfRange(p, value);
            }
            return value;
        }
    }

    /** Untyped values (maps, lists, numbers) with the same bound on every decimal inside. */
    static final class BoundedUntyped extends UntypedObjectDeserializer {
        BoundedUntyped(JavaType listType, JavaType mapType) {
            super(listType, mapType);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws JacksonException {
            Object value = super.deserialize(p, ctxt);
            check(p, value, 0);
            return value;
        }

        private static void check(JsonParser p, Object value, int depth) {
            if (value instanceof BigDecimal d) {
                if (!withinBounds(d)) {
                    throw outOfRange(p, d);
                }
            } else if (value instanceof Map<?, ?> map && depth < 1000) {
                map.values().forEach(v -> check(p, v, depth + 1));
            } else if (value instanceof Collection<?> list && depth < 1000) {
                list.forEach(v -> check(p, v, depth + 1));
            } else if (value instanceof Object[] array && depth < 1000) {
                for (Object v : array) {
                    check(p, v, depth + 1);
                }
            }
        }
    }
}
