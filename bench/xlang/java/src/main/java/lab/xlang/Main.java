package lab.xlang;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Properties;

/**
 * The Java side of the cross-language scenario (bench/xlang/README.md): HS256
 * sign, verify and decode of {sub, iat, exp} with jjwt 0.12, and the interop
 * program jjwt answers through.
 *
 * <pre>
 *   xlang-java jjwt bench --emails FILE --n N --threads T
 *   xlang-java jjwt interop &lt; request.json &gt; response.json
 * </pre>
 */
public final class Main {
    static final String LIB = "jjwt";

    private Main() {}

    public static void main(String[] args) {
        int status = 0;
        try {
            run(args);
        } catch (Throwable e) {
            System.out.flush();
            System.err.println("xlang-java: " + describe(e));
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private static void run(String[] args) throws Exception {
        if (args.length < 2) {
            throw new Failure("usage: xlang-java jjwt <bench|interop> [flags]");
        }
        if (!LIB.equals(args[0])) {
            throw new Failure("unknown library \"" + args[0] + "\" (want jjwt)");
        }
        String[] rest = Arrays.copyOfRange(args, 2, args.length);
        switch (args[1]) {
            case "bench":
                Bench.run(rest, System.out);
                break;
            case "interop":
                if (rest.length > 0) {
                    throw new Failure("interop takes no flags");
                }
                Interop.run(System.in, System.out);
                break;
            default:
                throw new Failure("unknown mode \"" + args[1] + "\" (want bench or interop)");
        }
    }

    /** jjwt's version, from the jjwt-api jar's Maven metadata bundled into this program. */
    static String libVersion() {
        String path = "/META-INF/maven/io.jsonwebtoken/jjwt-api/pom.properties";
        try (InputStream in = Main.class.getResourceAsStream(path)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isEmpty()) {
                    return v;
                }
            }
        } catch (IOException ignored) {
            // fall back to the manifest (present when jjwt-api is its own jar)
        }
        String v = io.jsonwebtoken.Jwts.class.getPackage().getImplementationVersion();
        return v != null ? v : "unknown";
    }

    /** For example "java 25.0.1+8-LTS (OpenJDK 64-Bit Server VM)". */
    static String runtime() {
        return "java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")";
    }

    /**
     * An exception as one line: our own failures by their message, anything
     * else as "Class: message", followed by whatever its causes add.
     */
    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String msg = t.getMessage();
            String part = t instanceof Failure ? msg
                    : msg == null ? t.getClass().getSimpleName()
                    : t.getClass().getSimpleName() + ": " + msg;
            if (msg != null && sb.indexOf(msg) >= 0) {
                continue; // a wrapper already quoted its cause
            }
            if (sb.length() > 0) {
                sb.append(": ");
            }
            sb.append(part);
        }
        return sb.toString();
    }

    /** A failure this program reports in its own words. */
    static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }
}
