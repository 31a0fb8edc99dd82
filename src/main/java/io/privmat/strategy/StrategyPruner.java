package io.privmat.strategy;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes stored strategies nobody uses (issue 36: a free quote on each distinct small workload
 * stored one, never pruned). Every {@code privmat.strategies.prune-interval}: strategies no plan has
 * read for {@code retention}, then, least recently used first, those beyond {@code max-stored-bytes};
 * never one that a stored estimate release names (its free queries need it). A job may hold a
 * strategy (from its replica's memory) that a pass deletes: the job's release stores it again in
 * the release's own transaction ({@link StrategyService#keep}), and a pass locks the rows it deletes
 * and re-checks the releases after the locks, so a release never names a deleted strategy. Any other
 * plan that needs a deleted strategy computes the same bytes again (the bytes are a deterministic
 * function of the public workload and options). Every replica runs it; the deletes are idempotent.
 */
@Component
class StrategyPruner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StrategyPruner.class);

    private final StrategyRepository repository;
    private final StrategyService strategies;
    private final StrategySettings settings;
    private final Clock clock;
    private final TransactionTemplate transactions;
    private volatile boolean running;
    private ScheduledExecutorService scheduler;

    StrategyPruner(StrategyRepository repository, StrategyService strategies, StrategySettings settings, Clock clock,
            PlatformTransactionManager transactions) {
        this.transactions = new TransactionTemplate(transactions);
        this.repository = repository;
        this.strategies = strategies;
        this.settings = settings;
        this.clock = clock;
    }

    /** One pass; the ids deleted. */
    List<String> prune() {
        Instant before = clock.instant().minus(settings.retention());
        List<String> deleted = new ArrayList<>(transactions.execute(
                s -> repository.deleteLocked(repository.unusedSince(before), before)));
        deleted.addAll(pruneBeyond(settings.maxStoredBytes().toBytes()));
        strategies.forget(deleted);
        if (!deleted.isEmpty()) {
            log.info("pruned {} unused strategies", deleted.size());
        }
        return deleted;
    }

    /** Deletes, least recently used first, what no release names beyond {@code keepBytes}; the ids deleted. */
    List<String> pruneBeyond(long keepBytes) {
        return transactions.execute(s -> repository.deleteLocked(repository.beyond(keepBytes), null));
    }

    private void tick() {
        try {
            prune();
        } catch (RuntimeException e) {
            log.warn("strategy pruning failed: {}", e.getClass().getSimpleName());
        }
    }

    @Override
    public void start() {
        running = true;
        long every = settings.pruneInterval().toMillis();
        if (every <= 0) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "privmat-strategy-pruner");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        running = false;
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
