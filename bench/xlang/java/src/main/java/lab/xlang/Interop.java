package lab.xlang;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jsonwebtoken.Claims;
import io.jsonwebtoken.Jws;
import io.jsonwebtoken.JwtBuilder;
import io.jsonwebtoken.JwtParserBuilder;
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.security.Keys;
import io.jsonwebtoken.security.MacAlgorithm;
import io.jsonwebtoken.security.SecureDigestAlgorithm;
import io.jsonwebtoken.security.SignatureAlgorithm;
import java.io.InputStream;
import java.io.PrintStream;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.SecretKey;

/**
 * Mode interop: one JSON request of sign and verify cases on stdin, one JSON
 * response on stdout, a case's failure reported in its own entry.
 */
final class Interop {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Interop() {}

    static void run(InputStream in, PrintStream out) throws Exception {
        JsonNode request = JSON.readTree(in);
        if (request == null || !request.isObject() || !request.path("cases").isArray()) {
            throw new Main.Failure("interop request: want a JSON object with a \"cases\" array");
        }
        ObjectNode response = JSON.createObjectNode();
        ArrayNode results = response.putArray("results");
        for (JsonNode c : request.get("cases")) {
            results.add(answer(c));
        }
        out.println(JSON.writeValueAsString(response));
    }

    private static ObjectNode answer(JsonNode c) {
        ObjectNode r = JSON.createObjectNode();
        r.set("id", c.has("id") ? c.get("id") : NullNode.getInstance());
        try {
            String op = text(c, "op");
            Alg alg = Alg.of(text(c, "alg"));
            JsonNode key = c.path("key");
            if (!key.isObject()) {
                throw new Main.Failure("case has no \"key\" object");
            }
            switch (op) {
                case "sign":
                    r.put("token", sign(alg, key, c.get("claims")));
                    break;
                case "verify":
                    ObjectNode claims = verify(alg, key, text(c, "token"));
                    r.put("ok", true);
                    r.set("claims", claims);
                    break;
                default:
                    throw new Main.Failure("unknown op \"" + op + "\" (want sign or verify)");
            }
        } catch (Exception e) {
            r.remove("token");
            r.put("ok", false);
            r.put("error", Main.describe(e));
        }
        return r;
    }

    private static String sign(Alg alg, JsonNode key, JsonNode claims) {
        if (claims == null || !claims.isObject()) {
            throw new Main.Failure("sign case has no \"claims\" object");
        }
        Map<String, Object> map = JSON.convertValue(claims, new TypeReference<LinkedHashMap<String, Object>>() {});
        JwtBuilder b = Jwts.builder().header().type("JWT").and().claims(map);
        if (alg.mac != null) {
            b.signWith(secretKey(key), alg.mac);
        } else {
            b.signWith(privateKey(key, alg.keyFactory), alg.sig);
        }
        return b.compact();
    }

    private static ObjectNode verify(Alg alg, JsonNode key, String token) {
        JwtParserBuilder pb = Jwts.parser();
        if (alg.mac != null) {
            pb.verifyWith(secretKey(key));
        } else {
            pb.verifyWith(publicKey(key, alg.keyFactory));
        }
        // exactly the case's algorithm
        pb.sig().clear().add(alg.algorithm()).and();
        Jws<Claims> jws = pb.build().parseSignedClaims(token);
        String headerAlg = jws.getHeader().getAlgorithm();
        if (!alg.id.equals(headerAlg)) {
            throw new Main.Failure("token alg " + headerAlg + " is not the case's " + alg.id);
        }
        Claims claims = jws.getPayload();
        if (claims.getExpiration() == null) {
            throw new Main.Failure("token has no exp (required)");
        }
        ObjectNode out = JSON.createObjectNode();
        for (Map.Entry<String, Object> e : claims.entrySet()) {
            out.set(e.getKey(), toJson(e.getValue()));
        }
        return out;
    }

    /** A decoded claim as JSON: jjwt's Dates back to NumericDate seconds, collections to arrays. */
    private static JsonNode toJson(Object v) {
        if (v instanceof Date) {
            long ms = ((Date) v).getTime();
            return ms % 1000 == 0 ? JSON.getNodeFactory().numberNode(ms / 1000)
                    : JSON.getNodeFactory().numberNode(ms / 1000.0);
        }
        if (v instanceof Collection) {
            ArrayNode a = JSON.createArrayNode();
            for (Object o : (Collection<?>) v) {
                a.add(toJson(o));
            }
            return a;
        }
        if (v instanceof Map) {
            ObjectNode o = JSON.createObjectNode();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                o.set(String.valueOf(e.getKey()), toJson(e.getValue()));
            }
            return o;
        }
        return JSON.valueToTree(v);
    }

    private static String text(JsonNode c, String field) {
        JsonNode v = c.get(field);
        if (v == null || !v.isTextual()) {
            throw new Main.Failure("case has no \"" + field + "\" string");
        }
        return v.asText();
    }

    private static SecretKey secretKey(JsonNode key) {
        byte[] secret = Base64.getUrlDecoder().decode(text(key, "secret_b64url"));
        return Keys.hmacShaKeyFor(secret);
    }

    private static PrivateKey privateKey(JsonNode key, String keyFactory) {
        byte[] der = pem(text(key, "private_pkcs8_pem"), "PRIVATE KEY");
        try {
            return KeyFactory.getInstance(keyFactory).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (java.security.GeneralSecurityException e) {
            throw new Main.Failure("private_pkcs8_pem: not a PKCS#8 " + keyFactory + " key: " + Main.describe(e));
        }
    }

    private static PublicKey publicKey(JsonNode key, String keyFactory) {
        byte[] der = pem(text(key, "public_spki_pem"), "PUBLIC KEY");
        try {
            return KeyFactory.getInstance(keyFactory).generatePublic(new X509EncodedKeySpec(der));
        } catch (java.security.GeneralSecurityException e) {
            throw new Main.Failure("public_spki_pem: not an SPKI " + keyFactory + " key: " + Main.describe(e));
        }
    }

    /** The DER inside one PEM block with the given label. */
    private static byte[] pem(String text, String label) {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int b = text.indexOf(begin);
        int e = text.indexOf(end);
        if (b < 0 || e < b) {
            throw new Main.Failure("want a PEM \"" + label + "\" block");
        }
        return Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e).trim());
    }

    /** The four algorithms of the contract, as jjwt names them. */
    private static final class Alg {
        final String id;
        final MacAlgorithm mac;        // HS256
        final SignatureAlgorithm sig;  // RS256, ES256, EdDSA
        final String keyFactory;       // JCA KeyFactory algorithm for sig

        private Alg(String id, MacAlgorithm mac, SignatureAlgorithm sig, String keyFactory) {
            this.id = id;
            this.mac = mac;
            this.sig = sig;
            this.keyFactory = keyFactory;
        }

        SecureDigestAlgorithm<?, ?> algorithm() {
            return mac != null ? mac : sig;
        }

        static Alg of(String id) {
            switch (id) {
                case "HS256":
                    return new Alg(id, Jwts.SIG.HS256, null, null);
                case "RS256":
                    return new Alg(id, null, Jwts.SIG.RS256, "RSA");
                case "ES256":
                    return new Alg(id, null, Jwts.SIG.ES256, "EC");
                case "EdDSA":
                    return new Alg(id, null, Jwts.SIG.EdDSA, "Ed25519");
                default:
                    throw new Main.Failure("unsupported: alg " + id);
            }
        }
    }
}
