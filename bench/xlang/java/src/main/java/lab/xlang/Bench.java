package lab.xlang;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jsonwebtoken.Claims;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.security.Keys;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import javax.crypto.SecretKey;

/** Mode bench: N iterations of the scenario over T workers, timed. */
final class Bench {
    /** Java's warm-up: this many iterations (or N if smaller), untimed, before the timed run. */
    static final int WARMUP = 200_000;

    private Bench() {}

    static void run(String[] args, PrintStream out) throws Exception {
        String emailsPath = null;
        long n = 1_000_000;
        int threads = 1;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String value = null;
            int eq = flag.indexOf('=');
            if (flag.startsWith("--") && eq > 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            }
            if (value == null) {
                throw new Main.Failure("flag " + flag + " needs a value");
            }
            switch (flag) {
                case "--emails":
                    emailsPath = value;
                    break;
                case "--n":
                    n = parsePositive(flag, value);
                    break;
                case "--threads":
                    threads = Math.toIntExact(parsePositive(flag, value));
                    break;
                default:
                    throw new Main.Failure("unknown flag " + flag + " (want --emails, --n, --threads)");
            }
        }
        if (emailsPath == null) {
            throw new Main.Failure("--emails FILE is required");
        }
        String secret = System.getenv("JWT_SECRET");
        if (secret == null || secret.isEmpty()) {
            throw new Main.Failure("JWT_SECRET is not set");
        }
        String[] emails = new ObjectMapper().readValue(new File(emailsPath), String[].class);
        if (emails == null || emails.length == 0) {
            throw new Main.Failure(emailsPath + ": want a non-empty JSON array of strings");
        }
        for (String e : emails) {
            if (e == null) {
                throw new Main.Failure(emailsPath + ": want a JSON array of strings, found null");
            }
        }

        Scenario sc = new Scenario(secret.getBytes(StandardCharsets.UTF_8));

        // Warm-up: single-threaded, untimed, through the same loop the workers
        // run, so the timed run meets compiled code.
        sc.loop(emails, 0, Math.min(n, WARMUP));

        Workers workers = Workers.create(threads);
        List<Future<?>> futures = new ArrayList<>(threads);
        long start;
        long elapsed;
        ExecutorService exec = workers.executor;
        try {
            start = System.nanoTime();
            for (int w = 0; w < threads; w++) {
                long share = n / threads + (w < n % threads ? 1 : 0);
                int first = (int) ((long) w * emails.length / threads);
                futures.add(exec.submit(() -> {
                    sc.loop(emails, first, share);
                    return null;
                }));
            }
            Throwable failure = null;
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                    }
                }
            }
            elapsed = System.nanoTime() - start;
            if (failure != null) {
                throw new Main.Failure(Main.describe(failure));
            }
        } finally {
            exec.shutdownNow();
        }

        ObjectNode line = new ObjectMapper().createObjectNode();
        line.put("lang", "java");
        line.put("lib", Main.LIB);
        line.put("lib_version", Main.libVersion());
        line.put("runtime", Main.runtime());
        line.put("threads", threads);
        line.put("n", n);
        line.put("elapsed_ns", elapsed);
        line.put("threading", workers.kind);
        line.put("peak_rss_kib", peakRssKib());
        out.println(line.toString());
    }

    private static long parsePositive(String flag, String value) {
        long v;
        try {
            v = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new Main.Failure(flag + " wants a positive integer, got \"" + value + "\"");
        }
        if (v < 1) {
            throw new Main.Failure(flag + " wants a positive integer, got " + v);
        }
        return v;
    }

    static long nowSeconds() {
        return System.currentTimeMillis() / 1000;
    }

    /** One iteration of the scenario, written the way jjwt 0.12 is meant to be used. */
    static final class Scenario {
        private final SecretKey key;
        private final JwtParser parser;

        Scenario(byte[] secret) {
            key = Keys.hmacShaKeyFor(secret);
            // HS256 is the only algorithm the parser accepts; it is immutable and
            // safe to share between the workers.
            parser = Jwts.parser()
                    .verifyWith(key)
                    .sig().clear().add(Jwts.SIG.HS256).and()
                    .build();
        }

        /** share iterations, starting at address index first and walking forward, wrapping. */
        void loop(String[] emails, int first, long share) {
            int idx = first;
            for (long i = 0; i < share; i++) {
                once(emails[idx], nowSeconds());
                if (++idx == emails.length) {
                    idx = 0;
                }
            }
        }

        void once(String sub, long iat) {
            String token = Jwts.builder()
                    .header().type("JWT").and()
                    .subject(sub)
                    .issuedAt(new Date(iat * 1000))
                    .expiration(new Date((iat + 7200) * 1000))
                    .signWith(key, Jwts.SIG.HS256)
                    .compact();
            // parseSignedClaims checks the signature and, when present, exp (and nbf).
            Claims claims = parser.parseSignedClaims(token).getPayload();
            if (claims.getExpiration() == null) {
                throw new Main.Failure("decoded token has no exp");
            }
            if (!sub.equals(claims.getSubject())) {
                throw new Main.Failure("decoded sub " + claims.getSubject() + " != " + sub);
            }
        }
    }

    /** The process's peak resident set (VmHWM of /proc/self/status), 0 where there is none. */
    static long peakRssKib() {
        try {
            for (String l : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.substring(6).trim().split("\\s+")[0]);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux: no figure
        }
        return 0;
    }
}
