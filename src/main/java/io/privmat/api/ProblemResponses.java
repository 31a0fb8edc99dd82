package io.privmat.api;

import io.privmat.problem.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** Writes problem details from servlet filters, which run before the MVC exception handling. */
public final class ProblemResponses {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Request attribute naming the problem type (slug) of the response; counted by the metrics. */
    public static final String TYPE_ATTRIBUTE = "io.privmat.problemType";

    private ProblemResponses() {}

    public static void write(HttpServletRequest request, HttpServletResponse response, ProblemType type, String detail,
            Map<String, ?> properties) throws IOException {
        properties = RetryAfter.withDefault(type.status(), properties);
        request.setAttribute(TYPE_ATTRIBUTE, type.slug());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.uri());
        body.put("title", type.title());
        body.put("status", type.status());
        body.put("detail", detail);
        // On the servlet error page the request's URI is the error path: the client's is kept aside.
        Object original = request.getAttribute(jakarta.servlet.RequestDispatcher.ERROR_REQUEST_URI);
        body.put("instance", original instanceof String uri ? uri : request.getRequestURI());
        body.putAll(properties);
        response.setStatus(type.status());
        response.setContentType("application/problem+json");
        if (properties.get("retryAfterSeconds") instanceof Number seconds) {
            response.setHeader("Retry-After", Long.toString(seconds.longValue()));
        }
        response.getOutputStream().write(JSON.writeValueAsBytes(body));
    }
}
