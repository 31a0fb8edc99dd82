package io.privmat.api;

import io.privmat.json.ProblemProperties;
import io.privmat.privacy.PrivacyArgumentException;
import io.privmat.problem.DatabaseFailures;
import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Maps every error to {@code application/problem+json} (RFC 9457) with a type from
 * {@link ProblemType}. Unexpected exceptions become a generic 500 whose detail says nothing about
 * the cause (it may be data-dependent); the cause is logged without its message.
 */
@RestControllerAdvice
public class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

    @ExceptionHandler(PrivmatException.class)
    ResponseEntity<Object> handlePrivmat(PrivmatException e, WebRequest request) {
        return problem(e.type(), e.getMessage(), e.properties(), request);
    }

    @ExceptionHandler(PrivacyArgumentException.class)
    ResponseEntity<Object> handlePrivacyArgument(PrivacyArgumentException e, WebRequest request) {
        return problem(ProblemType.INVALID_PARAMETER, e.getMessage(),
                ProblemProperties.of("parameter", e.parameter(), "allowedRange", e.allowedRange()), request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Object> handleTypeMismatch(MethodArgumentTypeMismatchException e, WebRequest request) {
        String expected = e.getRequiredType() == null ? "value" : e.getRequiredType().getSimpleName();
        return problem(ProblemType.INVALID_PARAMETER,
                "parameter '" + e.getName() + "' must be a valid " + expected,
                ProblemProperties.of("parameter", e.getName()), request);
    }

    /**
     * Tomcat refuses query parameters that are not valid percent-encoded UTF-8 (e.g. {@code %FF}) when
     * they are first read, strictly, never replacing a byte: a 400 here, not a 500 (issue 36, item 5).
     */
    @ExceptionHandler(org.apache.tomcat.util.http.InvalidParameterException.class)
    ResponseEntity<Object> handleInvalidParameters(org.apache.tomcat.util.http.InvalidParameterException e,
            WebRequest request) {
        return problem(ProblemType.MALFORMED_REQUEST, "The query string is not valid: parameters must be "
                + "percent-encoded UTF-8.", ProblemProperties.none(), request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> handleUnexpected(Exception e, WebRequest request) {
        if (DatabaseFailures.isUnavailable(e)) {
            log.warn("database unavailable: {}", e.getClass().getName());
            PrivmatException unavailable = DatabaseFailures.unavailable(e);
            return problem(unavailable.type(), unavailable.getMessage(), unavailable.properties(), request);
        }
        // Log the type and where, never the message: it could carry data values.
        log.error("unexpected {} at {}", e.getClass().getName(),
                e.getStackTrace().length > 0 ? e.getStackTrace()[0] : "?");
        return problem(ProblemType.INTERNAL_ERROR, "The request could not be completed.", ProblemProperties.none(), request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return malformed(ex, request);
    }

    /**
     * A 400 for a body that is not JSON of the expected shape. When Jackson knows where, the
     * problem names the field ({@code parameter}, a JSON path such as {@code budget.epsilon}) and
     * what is wrong with it; Jackson's own message is never echoed (it may quote the value).
     */
    static ResponseEntity<Object> malformed(Throwable ex, WebRequest request) {
        Throwable cause = ex;
        while (cause != null && !(cause instanceof JacksonException) && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        if (!(cause instanceof JacksonException jackson)) {
            return problem(ProblemType.MALFORMED_REQUEST,
                    "The request body is not valid JSON of the expected shape (check field names and types).",
                    ProblemProperties.none(), request);
        }
        String path = path(jackson);
        String reason;
        if (jackson instanceof UnrecognizedPropertyException unknown) {
            path = path.isEmpty() ? bounded(unknown.getPropertyName()) : path;
            reason = "is not a known field";
        } else if (jackson instanceof StreamConstraintsException) {
            reason = "exceeds a size limit of the JSON parser (number, string or nesting length)";
        } else if (jackson instanceof InvalidFormatException || jackson instanceof MismatchedInputException) {
            reason = jackson.getOriginalMessage() != null && jackson.getOriginalMessage().startsWith("number outside")
                    ? "is a number outside the accepted range (decimal exponent beyond ±" + JsonNumberBounds.MAX_EXPONENT + ")"
                    : "has the wrong type or format";
        } else if (jackson instanceof StreamReadException) {
            reason = "is not valid JSON";
            path = "";
        } else {
            reason = "has the wrong type or format";
        }
        if (path.isEmpty()) {
            return problem(ProblemType.MALFORMED_REQUEST, "The request body " + reason + ".", ProblemProperties.none(), request);
        }
        return problem(ProblemType.MALFORMED_REQUEST, "Field '" + path + "' " + reason + ".",
                ProblemProperties.of("parameter", path), request);
    }

    /** The JSON path of a databind error ({@code budget.epsilon}, {@code vectors[2]}), bounded in length. */
    private static String path(JacksonException e) {
        StringBuilder out = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            }
        }
        return bounded(out.toString());
    }

    /** At most 100 printable characters of a client-supplied name. */
    static String bounded(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        s.codePoints().limit(100).forEach(c -> out.appendCodePoint(Character.isISOControl(c)
                || Character.getType(c) == Character.SURROGATE ? '?' : c));
        return s.codePointCount(0, s.length()) > 100 ? out + "…" : out.toString();
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        var error = ex.getBindingResult().getFieldError();
        String parameter = error == null ? "body" : error.getField();
        String detail = error == null ? "invalid request" : parameter + " " + error.getDefaultMessage();
        return problem(ProblemType.INVALID_PARAMETER, detail, ProblemProperties.of("parameter", parameter), request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        ProblemType type = switch (statusCode.value()) {
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            default -> statusCode.is4xxClientError() ? ProblemType.MALFORMED_REQUEST : ProblemType.INTERNAL_ERROR;
        };
        String detail;
        if (ex instanceof NoResourceFoundException) {
            detail = "No resource at this path.";
        } else if (ex instanceof HttpRequestMethodNotSupportedException m) {
            detail = "Method " + m.getMethod() + " is not supported here.";
        } else if (ex instanceof HttpMediaTypeNotSupportedException m) {
            detail = "Content-Type not supported here; supported: " + MediaType.toString(m.getSupportedMediaTypes());
        } else if (ex instanceof HttpMediaTypeNotAcceptableException) {
            detail = "None of the requested media types can be produced.";
        } else if (body instanceof ProblemDetail pd && pd.getDetail() != null) {
            detail = pd.getDetail();
        } else {
            detail = type.title();
        }
        ResponseEntity<Object> response = problem(type, detail, ProblemProperties.none(), request);
        HttpHeaders merged = new HttpHeaders();
        merged.addAll(headers);
        merged.addAll(response.getHeaders());
        return new ResponseEntity<>(response.getBody(), merged, response.getStatusCode());
    }

    /** Longest detail a problem carries; anything longer is cut (details never need more). */
    static final int MAX_DETAIL_LENGTH = 1000;

    static String boundedDetail(String detail) {
        return detail != null && detail.length() > MAX_DETAIL_LENGTH
                ? detail.substring(0, MAX_DETAIL_LENGTH) + "…" : detail;
    }

    static ResponseEntity<Object> problem(ProblemType type, String detail, ProblemProperties properties,
            WebRequest request) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(type.status()),
                boundedDetail(detail));
        body.setType(URI.create(type.uri()));
        body.setTitle(type.title());
        if (request instanceof ServletWebRequest servlet) {
            body.setInstance(URI.create(servlet.getRequest().getRequestURI()));
        }
        request.setAttribute(ProblemResponses.TYPE_ATTRIBUTE, type.slug(),
                org.springframework.web.context.request.RequestAttributes.SCOPE_REQUEST);
        properties = RetryAfter.withDefault(type.status(), properties);
        properties.forEach(body::setProperty);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(type.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (properties.get("retryAfterSeconds") instanceof Number seconds) {
            response.header(HttpHeaders.RETRY_AFTER, Long.toString(seconds.longValue()));
        }
        return response.body(body);
    }
}
