package io.privmat.api;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.ProblemType;
import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's error report for requests it refuses before any servlet sees them (an undecodable path,
 * a NUL in the URI, a malformed request line): a problem document instead of Tomcat's HTML page.
 * Everything that reaches the application is rendered by {@link ProblemErrorController}.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        ProblemType type = ProblemErrorController.typeFor(status);
        ProblemProperties body = ProblemResponses.head(type, ProblemErrorController.detailFor(type));
        try {
            response.setStatus(type.status());
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("utf-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JSON.writeValueAsString(body.asMap()));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response was committed: nothing more to say.
        }
    }
}
