package io.privmat.api;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;

/**
 * What Spring Security's request firewall refuses, as a problem that says why, with the request's
 * own path as its instance (through the servlet error page it would be a generic "malformed" with
 * instance /error). The most common case is an empty path variable — {@code /v1/datasets//data}
 * from a shell variable that was never set — and is named as such. Rejections of a header or
 * parameter are not echoed: the detail says only which part of the request was refused.
 */
final class FirewallRejections implements RequestRejectedHandler {

    /** Longest firewall message passed on (it quotes the offending fragment of the URL). */
    static final int MAX_DETAIL = 300;

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        ProblemResponses.write(request, response, ProblemType.MALFORMED_REQUEST,
                detail(request.getRequestURI(), rejected.getMessage()), ProblemProperties.none());
    }

    static String detail(String path, String message) {
        String why = message == null ? "" : message;
        if (path != null && path.contains("//")) {
            return "The path has an empty segment ('//'): a path variable, such as a dataset, job or release "
                    + "id, is probably empty (a shell variable that was never set?).";
        }
        String lower = why.toLowerCase(Locale.ROOT);
        if (lower.contains("header") || lower.contains("parameter")) {
            return "The request was refused by the request firewall: a header or parameter name or value has "
                    + "characters it does not accept.";
        }
        String shown = why.length() > MAX_DETAIL ? why.substring(0, MAX_DETAIL) + "…" : why;
        return "The request was refused by the request firewall: " + shown;
    }
}
