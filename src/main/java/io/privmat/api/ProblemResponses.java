package io.privmat.api;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import tools.jackson.databind.json.JsonMapper;

/** Writes problem details from servlet filters, which run before the MVC exception handling. */
public final class ProblemResponses {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Request attribute naming the problem type (slug) of the response; counted by the metrics. */
    public static final String TYPE_ATTRIBUTE = "io.privmat.problemType";

    private ProblemResponses() {}

    public static void write(HttpServletRequest request, HttpServletResponse response, ProblemType type, String detail,
            ProblemProperties properties) throws IOException {
        properties = RetryAfter.withDefault(type.status(), properties);
        request.setAttribute(TYPE_ATTRIBUTE, type.slug());
        // On the servlet error page the request's URI is the error path: the client's is kept aside.
        Object original = request.getAttribute(jakarta.servlet.RequestDispatcher.ERROR_REQUEST_URI);
        ProblemProperties body = head(type, detail).with("instance",
                original instanceof String uri ? uri : request.getRequestURI());
        for (String name : properties.names()) {
            body = body.with(name, properties.get(name));
        }
        response.setStatus(type.status());
        response.setContentType("application/problem+json");
        if (properties.get("retryAfterSeconds") instanceof Number seconds) {
            response.setHeader("Retry-After", Long.toString(seconds.longValue()));
        }
        response.getOutputStream().write(JSON.writeValueAsBytes(body.asMap()));
    }

    /** The standard members a problem starts with: type, title, status and detail. */
    static ProblemProperties head(ProblemType type, String detail) {
        return ProblemProperties.of("type", type.uri(), "title", type.title()).with("status", type.status())
                .with("detail", detail);
    }
}
