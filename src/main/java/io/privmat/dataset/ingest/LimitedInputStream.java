package io.privmat.dataset.ingest;

import io.privmat.problem.PrivmatException;
import io.privmat.problem.ProblemType;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/** Counts bytes read and fails with 413 once more than the limit has arrived. */
final class LimitedInputStream extends FilterInputStream {

    private final long limit;
    private long count;

    LimitedInputStream(InputStream in, long limit) {
        super(in);
        this.limit = limit;
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            add(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            add(n);
        }
        return n;
    }

    private void add(long n) {
        count += n;
        if (count > limit) {
            throw tooLarge(limit);
        }
    }

    static PrivmatException tooLarge(long limit) {
        return new PrivmatException(ProblemType.PAYLOAD_TOO_LARGE,
                "The upload exceeds the limit of " + limit + " bytes (privmat.ingest.max-upload-size).",
                Map.of("limitBytes", limit));
    }
}
