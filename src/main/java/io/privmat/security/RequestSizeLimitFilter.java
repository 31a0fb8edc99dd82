package io.privmat.security;

import io.privmat.json.ProblemProperties;
import io.privmat.problem.PrivmatException;
import io.privmat.api.ProblemResponses;
import io.privmat.problem.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the body of every request except data uploads and stream appends (which have their own,
 * larger limit); workload uploads have {@code privmat.security.max-workload-body}, the rest:
 * 413 when the declared length is over {@code privmat.security.max-json-body}, or when a body
 * without a declared length grows past it.
 */
class RequestSizeLimitFilter extends OncePerRequestFilter {

    private final long jsonLimit;
    private final long workloadLimit;

    RequestSizeLimitFilter(SecuritySettings settings) {
        this.jsonLimit = settings.maxJsonBody().toBytes();
        this.workloadLimit = settings.maxWorkloadBody().toBytes();
    }

    /** A workload upload: a matrix body of up to 4 194 304 values, with its own limit. */
    private static boolean isWorkloadUpload(HttpServletRequest request) {
        return "POST".equals(request.getMethod()) && "/v1/workloads".equals(request.getRequestURI());
    }

    private boolean isUpload(HttpServletRequest request) {
        // Stream appends are uploads too: bounded by the upload limit and privmat.streams.max-append-values.
        return "PUT".equals(request.getMethod()) && request.getRequestURI().endsWith("/data")
                || "POST".equals(request.getMethod()) && request.getRequestURI().startsWith("/v1/datasets/")
                        && request.getRequestURI().endsWith("/rows");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (isUpload(request)) {
            chain.doFilter(request, response);
            return;
        }
        boolean workload = isWorkloadUpload(request);
        long limit = workload ? workloadLimit : jsonLimit;
        String setting = workload ? "privmat.security.max-workload-body" : "privmat.security.max-json-body";
        if (request.getContentLengthLong() > limit) {
            ProblemResponses.write(request, response, ProblemType.PAYLOAD_TOO_LARGE,
                    "Request bodies are limited to " + limit + " bytes (" + setting + ").",
                    ProblemProperties.of("limitBytes", limit));
            return;
        }
        chain.doFilter(new Limited(request, limit, setting), response);
    }

    private static final class Limited extends HttpServletRequestWrapper {
        private final long limit;
        private final String setting;

        Limited(HttpServletRequest request, long limit, String setting) {
            super(request);
            this.limit = limit;
            this.setting = setting;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            ServletInputStream in = super.getInputStream();
            return new ServletInputStream() {
                private long count;

                @Override
                public int read() throws IOException {
                    int b = in.read();
                    if (b >= 0 && ++count > limit) {
                        throw tooLarge();
                    }
                    return b;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    int n = in.read(b, off, len);
                    if (n > 0 && (count += n) > limit) {
                        throw tooLarge();
                    }
                    return n;
                }

                private PrivmatException tooLarge() {
                    return new PrivmatException(ProblemType.PAYLOAD_TOO_LARGE, "Request bodies are limited to "
                            + limit + " bytes (" + setting + ").", ProblemProperties.of("limitBytes", limit));
                }

                @Override
                public boolean isFinished() {
                    return in.isFinished();
                }

                @Override
                public boolean isReady() {
                    return in.isReady();
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    in.setReadListener(listener);
                }
            };
        }
    }
}
