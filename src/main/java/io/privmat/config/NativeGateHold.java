package io.privmat.config;

import io.privmat.mechanism.linalg.NativeGate;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Holds the native-call gate open while the application context runs, and releases it when the
 * context stops — in the last lifecycle phase, after the worker pool's graceful stop — so that jobs
 * finishing in their shutdown grace still compute, and the gate then closes before the process exits
 * (io.privmat.mechanism.linalg.NativeGate says why: OpenBLAS's exit handler and a running call deadlock).
 */
@Component
class NativeGateHold implements SmartLifecycle {

    private volatile boolean running;

    @Override
    public void start() {
        NativeGate.hold();
        running = true;
    }

    @Override
    public void stop() {
        if (running) {
            running = false;
            NativeGate.release();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stopped last: lifecycle beans stop from the highest phase down. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE;
    }
}
