package io.privmat.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privmat.security.jdbc.AuditRepository;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

/** Group commit of audit events: each caller returns after its own event's batch, in arrival order. */
class AuditAppenderTest {

    /** Records each batch; an insert takes a little time, so that callers queue behind it. */
    private static final class Recording extends AuditRepository {
        final List<List<Entry>> batches = Collections.synchronizedList(new ArrayList<>());
        final Set<Entry> committed = ConcurrentHashMap.newKeySet();
        volatile boolean fail;

        Recording() {
            super(null, null);
        }

        @Override
        public void insertAll(List<Entry> entries) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (fail) {
                throw new DataAccessResourceFailureException("database unavailable");
            }
            batches.add(List.copyOf(entries));
            committed.addAll(entries);
        }
    }

    private static AuditRepository.Entry entry(int thread, int i) {
        return new AuditRepository.Entry(Instant.EPOCH, "s" + thread, "OWNER", null, "POST", "/v1/x", null,
                thread + ":" + i, 202);
    }

    @Test
    void everyEventIsWrittenOnceBeforeItsCallerReturnsAndConcurrentOnesShareACommit() throws Exception {
        Recording repository = new Recording();
        AuditAppender appender = new AuditAppender(repository);
        int threads = 16;
        int each = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < each; i++) {
                    AuditRepository.Entry e = entry(thread, i);
                    appender.append(e);
                    assertThat(repository.committed).contains(e);
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(1, TimeUnit.MINUTES);
        }
        pool.shutdown();
        List<AuditRepository.Entry> all = repository.batches.stream().flatMap(List::stream).toList();
        assertThat(all).hasSize(threads * each).doesNotHaveDuplicates();
        // One thread's events in its own order (each waited for the previous one).
        for (int t = 0; t < threads; t++) {
            String subject = "s" + t;
            assertThat(all.stream().filter(e -> e.subject().equals(subject)).map(AuditRepository.Entry::targetId))
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, each).mapToObj(i -> subject.substring(1)
                            + ":" + i).toList());
        }
        assertThat(repository.batches.size()).as("batches for %d events", all.size()).isLessThan(all.size());
        assertThat(repository.batches).allSatisfy(b -> assertThat(b.size()).isLessThanOrEqualTo(AuditAppender.MAX_BATCH));
    }

    @Test
    void aFailedBatchReachesEachOfItsCallersAndTheNextBatchIsWrittenAgain() {
        Recording repository = new Recording();
        AuditAppender appender = new AuditAppender(repository);
        repository.fail = true;
        assertThatThrownBy(() -> appender.append(entry(0, 0))).isInstanceOf(DataAccessResourceFailureException.class);
        repository.fail = false;
        appender.append(entry(0, 1));
        assertThat(repository.committed).containsExactly(entry(0, 1));
    }

    @Test
    void anInterruptedCallerStillWaitsForItsOutcomeAndKeepsTheInterrupt() throws Exception {
        Recording repository = new Recording();
        AuditAppender appender = new AuditAppender(repository);
        Thread.currentThread().interrupt();
        appender.append(entry(1, 0));
        assertThat(Thread.interrupted()).isTrue();
        assertThat(repository.committed).containsExactly(entry(1, 0));
    }
}
