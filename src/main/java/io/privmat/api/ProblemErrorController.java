package io.privmat.api;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.DatabaseFailures;
import io.privmat.problem.ProblemType;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * Renders whatever reaches the servlet container's error page ({@code sendError} from a filter)
 * as problem details, instead of Spring Boot's default error body. The status is kept; the detail is
 * generic; the instance is the request's own path. (The request firewall's refusals are answered
 * before, with their reason: {@link FirewallRejections}.)
 */
@Hidden
@Controller
class ProblemErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : response.getStatus();
        Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        if (exception instanceof Throwable t && (status >= 500 || status < 400)) {
            ProblemFilter.write(request, response, t);
            return;
        }
        ProblemType type = typeFor(status);
        ProblemProperties properties = type == ProblemType.SERVICE_UNAVAILABLE
                ? ProblemProperties.of("retryAfterSeconds", DatabaseFailures.RETRY_AFTER_SECONDS) : ProblemProperties.none();
        response.resetBuffer();
        ProblemResponses.write(request, response, type, detailFor(type), properties);
    }

    /** The problem type of an error status (other 4xx: malformed request; other 5xx: internal error). */
    static ProblemType typeFor(int status) {
        return switch (status) {
            case 401 -> ProblemType.UNAUTHENTICATED;
            case 403 -> ProblemType.FORBIDDEN;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 408 -> ProblemType.REQUEST_TIMEOUT;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            case 429 -> ProblemType.RATE_LIMITED;
            case 503 -> ProblemType.SERVICE_UNAVAILABLE;
            default -> status >= 400 && status < 500 ? ProblemType.MALFORMED_REQUEST : ProblemType.INTERNAL_ERROR;
        };
    }

    /** A generic detail: what reaches the error page says nothing about its cause. */
    static String detailFor(ProblemType type) {
        return type == ProblemType.MALFORMED_REQUEST ? "The request was refused as malformed."
                : type == ProblemType.INTERNAL_ERROR ? "The request could not be completed." : type.title() + ".";
    }
}
