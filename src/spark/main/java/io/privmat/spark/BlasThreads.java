package io.privmat.spark;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import io.privmat.mechanism.linalg.LinearAlgebra;
import org.jspecify.annotations.Nullable;

/**
 * One OpenBLAS thread per call while any exact-kernel task runs in this JVM.
 *
 * <p>OpenBLAS threads every dsyrk over all the machine's cores by default (its thread count is one
 * number per process). Two Spark tasks that each call it — embedded {@code local[2]}, or an executor
 * with two cores — then run four BLAS threads on two cores, and OpenBLAS's threads wait for each other:
 * measured on the 2-core benchmark machine, the exact kernel (dsyrk of 512 quantised rows plus the
 * conversion to {@code long}s) took 0.88 CPU seconds per 32 768 rows with OpenBLAS's default of 2
 * threads against 0.51 with one, and two concurrent callers gained nothing from the second thread
 * (docs/scale-out.md, "Where a pass's time goes"). A task alone does not get the threads back either:
 * in a pass of many tasks one runs alone for a moment between each task's end and the next one's
 * start, and every multi-threaded call then leaves OpenBLAS's other threads spinning for the core the
 * next task needs (a profile of a 10⁷-row pass found them at about a tenth of the machine's CPU time;
 * docs/scale-out.md, "A pass in the steady state"). So while any exact-kernel task runs in this JVM,
 * OpenBLAS runs one thread per call — each task one core's work, as Spark schedules it — and its own
 * count comes back when none runs.
 *
 * <p>Counted tasks: the exact Gram and column sums ({@code PartitionStatistics.exactSums}), Hardt–Roth's
 * exact weighted sums ({@code RowSketches.WeightedSums}) and the floating Gram-times-V pass
 * ({@code PartitionStatistics.GramTimes}). Inside a counted task every BLAS call runs on one thread,
 * so its result does not depend on what else runs in the JVM: the exact kernels' partial sums are
 * exact integers whatever the thread count, and GramTimes' floating dgemm always sees one thread (a
 * retried task recomputes the same bits).
 *
 * <p>The count is the process's, so while it is lowered any other BLAS call in this JVM (an in-process
 * job of the service, in embedded mode) is single-threaded too: the cores are busy with the tasks
 * anyway. Lowering the count only changes a number OpenBLAS reads at the start of each call (the
 * threads it started stay). The count follows which tasks are running — a matter of timing, and how
 * long a task runs is not claimed independent of its rows (docs/accounting.md §8, timing) — so the
 * last bits of such an uncounted in-process floating BLAS result (a product or an eigensolver's
 * inner dsymv) may differ with it, as they may with any concurrent load; those results are
 * post-processing of noisy releases or carry order-independent error bounds, and no sensitivity
 * relies on their bits. A lone task (a one-partition pass, a pass's last task) runs on one thread
 * too: on a machine of many cores an executor should be given as many task slots as cores. With
 * another BLAS than OpenBLAS, or when the native call cannot be made, nothing changes.
 */
final class BlasThreads {

    private static final Object LOCK = new Object();
    private static final int RTLD_LAZY = 1;
    /** False: leave OpenBLAS's count alone (SparkGramBenchmark's comparison; nothing else sets it). */
    static volatile boolean enabled = true;
    private static int running;
    private static int saved;
    private static boolean resolved;
    private static @Nullable Calls calls;

    /** OpenBLAS's two thread-count functions; a failing call is −1 or false, never an exception. */
    private record Calls(Function get, Function set) {
        int count() {
            try {
                return get.invokeInt(new Object[0]);
            } catch (RuntimeException e) {
                return -1;
            }
        }

        boolean count(int threads) {
            try {
                set.invokeVoid(new Object[] {threads});
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }
    }

    private BlasThreads() {}

    /** A counted task starts (pair with {@link #taskEnded()} in a finally block). */
    static void taskStarted() {
        synchronized (LOCK) {
            // Counted only once the native calls returned: if one throws (a JNA Error), the caller never
            // reaches its finally block, and a task counted for ever would keep OpenBLAS at one thread for
            // the JVM's life. The own count is kept before it is lowered, so a later task gives it back.
            Calls c = running == 0 && enabled ? resolve() : null;
            if (c != null) {
                int own = c.count();
                if (own > 1) {
                    saved = own;
                    c.count(1);
                }
            }
            running++;
        }
    }

    static void taskEnded() {
        synchronized (LOCK) {
            Calls c = --running == 0 && saved > 1 ? resolve() : null;
            if (c != null) {
                c.count(saved);
                saved = 0;
            }
        }
    }

    /** How many exact-kernel tasks run in this JVM now (for tests: 0 between passes). */
    static int running() {
        synchronized (LOCK) {
            return running;
        }
    }

    /** OpenBLAS's thread count now, or −1 when it cannot be read (another BLAS). */
    static int current() {
        synchronized (LOCK) {
            Calls c = resolve();
            return c == null ? -1 : c.count();
        }
    }

    /** OpenBLAS's thread-count functions in the library netlib loaded, looked up once; null when there are none. */
    private static @Nullable Calls resolve() {
        if (!resolved) {
            resolved = true;
            try {
                if (LinearAlgebra.isNative()) {
                    // The library netlib already loaded (dlopen returns its handle); RTLD_LAZY only, so its
                    // symbols do not become global for libraries loaded later.
                    NativeLibrary blas = NativeLibrary.getInstance(
                            System.getProperty("dev.ludovic.netlib.blas.nativeLibPath", "libblas.so.3"),
                            java.util.Map.of(com.sun.jna.Library.OPTION_OPEN_FLAGS, RTLD_LAZY));
                    calls = new Calls(blas.getFunction("openblas_get_num_threads"),
                            blas.getFunction("openblas_set_num_threads"));
                }
            } catch (LinkageError | RuntimeException e) { // not OpenBLAS, or no native access: leave the BLAS be
                calls = null;
            }
        }
        return calls;
    }
}
