package lab.xlang;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The bench's workers: one virtual thread per worker on JDK 21 and later,
 * one platform thread per worker before that.
 *
 * <p>The program is compiled with --release 17, where
 * Executors.newVirtualThreadPerTaskExecutor does not exist, so on a JDK that
 * has it the factory is looked up by its public signature and called through
 * a MethodHandle. XLANG_JAVA_THREADING=platform forces platform threads (to
 * compare the two on one JDK); the output's "threading" field says which ran.
 */
final class Workers {
    final ExecutorService executor;
    final String kind;

    private Workers(ExecutorService executor, String kind) {
        this.executor = executor;
        this.kind = kind;
    }

    static Workers create(int threads) {
        String want = System.getenv("XLANG_JAVA_THREADING");
        if (want != null && !want.isEmpty() && !want.equals("virtual") && !want.equals("platform")) {
            throw new Main.Failure("XLANG_JAVA_THREADING=" + want + " (want virtual or platform)");
        }
        boolean virtual = Runtime.version().feature() >= 21 && !"platform".equals(want);
        if ("virtual".equals(want) && !virtual) {
            throw new Main.Failure("virtual threads need JDK 21 or later, this is " + Runtime.version());
        }
        if (virtual) {
            return new Workers(newVirtualThreadPerTaskExecutor(), "virtual");
        }
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(threads);
        pool.prestartAllCoreThreads(); // thread start-up stays out of the timed run
        return new Workers(pool, "platform");
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor() {
        try {
            MethodHandle factory = MethodHandles.publicLookup().findStatic(
                    Executors.class, "newVirtualThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class));
            return (ExecutorService) factory.invokeExact();
        } catch (Throwable e) {
            throw new IllegalStateException("JDK " + Runtime.version()
                    + " has no Executors.newVirtualThreadPerTaskExecutor", e);
        }
    }
}
