package io.privmat.stream;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Closes TIME blocks at their public end times — the only thing that does: every
 * {@code privmat.streams.tick} it closes the blocks whose end has passed on every TIME stream (empty
 * blocks too). Every replica may run one; a stream's row lock keeps two closers apart (free streams
 * first, then a bounded wait for the held ones: {@link StreamService#closeDueBlocks}), and a block
 * closes once because its counter moves in the same transaction as its releases. What analysts see
 * of a release does not depend on when it was computed (docs/adr/0008-streams.md, "Time blocks").
 */
@Component
class StreamScheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StreamScheduler.class);

    private final StreamService streams;
    private final StreamSettings settings;
    private final Clock clock;
    private volatile boolean running;
    private ScheduledExecutorService scheduler;

    StreamScheduler(StreamService streams, StreamSettings settings, Clock clock) {
        this.streams = streams;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void start() {
        running = true;
        if (!settings.schedulerEnabled()) {
            log.info("stream block scheduler disabled in this replica (privmat.streams.scheduler-enabled=false)");
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "privmat-stream-scheduler");
            t.setDaemon(true);
            return t;
        });
        long tick = Math.max(1, settings.tick().toMillis());
        scheduler.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            streams.closeDueBlocks(clock.instant());
        } catch (RuntimeException e) {
            log.error("stream scheduler tick failed: {}", e.getClass().getSimpleName());
        }
    }

    @Override
    public void stop() {
        running = false;
        if (scheduler != null) {
            scheduler.shutdownNow();
            try {
                scheduler.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
