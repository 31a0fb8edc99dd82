package io.privmat.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * An upload over a raw socket whose body the test sends piece by piece (a slow or stalled client);
 * whatever the server answers is collected in the background.
 */
public final class RawUpload implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final Thread reader;

    public RawUpload(int port, String key, UUID dataset, long contentLength) throws IOException {
        socket = new Socket("localhost", port);
        out = socket.getOutputStream();
        out.write(("PUT /v1/datasets/" + dataset + "/data HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\n"
                + "Authorization: Bearer " + key + "\r\nContent-Length: " + contentLength + "\r\n"
                + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        reader = new Thread(() -> {
            byte[] buffer = new byte[4096];
            try {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    synchronized (received) {
                        received.write(buffer, 0, n);
                    }
                }
            } catch (IOException e) {
                // connection closed
            }
        }, "raw-upload-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Sends more of the body; false if the server has closed the connection. */
    public boolean send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public boolean send(String text) {
        return send(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** What the server answered so far. */
    public String response() {
        synchronized (received) {
            return received.toString(StandardCharsets.UTF_8);
        }
    }

    /** The HTTP status answered so far, or 0. */
    public int status() {
        String r = response();
        return r.startsWith("HTTP/1.1 ") && r.length() >= 12 ? Integer.parseInt(r.substring(9, 12)) : 0;
    }

    /** Waits up to {@code millis} for a status. */
    public int awaitStatus(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (status() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return status();
    }

    /** The response body once complete (the server closes the connection). */
    public String body(long millis) throws InterruptedException {
        reader.join(millis);
        String r = response();
        int split = r.indexOf("\r\n\r\n");
        return split < 0 ? "" : r.substring(split + 4);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
