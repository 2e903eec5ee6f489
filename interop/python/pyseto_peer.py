"""pyseto_peer: the Python pyseto side of signet's interop test (interop/pyseto_test.go).

It reads one JSON request on stdin and writes one JSON response on stdout:

  request  {"verify": [{"version", "purpose", "key", "token", "implicit", "audience"}...],
            "issue":  [{"key", "payload", "footer", "footer_json", "implicit", "exp_seconds"}...],
            "paserk": [{"op", ...}...]}
  response {"pyseto": "<pyseto.__version__>",
            "verified": [{"ok", "error", "payload", "footer"}...],
            "issued":   [{"token", "error"}...],
            "paserk":   [{"paserk", "public", "id", "public_id", "token", "error"}...]}

Each response array matches its request array index for index. A failing case
is reported in its entry ("ok": false / "error"), never by exiting: the process
exits non-zero only when the request itself cannot be read.

verify: pyseto.decode(Key.from_paserk(key), token, implicit_assertion=implicit,
  deserializer=json, aud=audience), which also checks exp and nbf. The key must
  be of the stated version (3 or 4) and purpose ("local" or "public"). The
  payload and the footer (a JSON object when it is one) are returned.
issue: pyseto.encode(Key.from_paserk(key), payload (an object, serialized by
  pyseto with json.dumps), footer (a string, sent as it is, or with
  "footer_json" given to pyseto as the object it encodes), implicit_assertion),
  through Paseto.new(exp=exp_seconds, include_iat=True) when exp_seconds > 0, so
  that pyseto writes exp and iat itself.
paserk, by "op":
  "id"       {"key"}: Key.from_paserk(key).to_paserk_id()
  "encode"   {"key"}: Key.from_paserk(key).to_paserk()
  "wrap"     {"key", "wrapping_key" (a kN.local PASERK) | "password", and for a
              password "memory_kib", "time", "parallelism" (k4) or
              "iterations" (k3), each taking pyseto's default when 0}:
              to_paserk(wrapping_key=raw bytes | password=...)
  "unwrap"   {"paserk", "wrapping_key" | "password"}: Key.from_paserk(paserk,
              wrapping_key=... | password=...).to_paserk()
  "seal"     {"key" (kN.local), "recipient" (kN.public)}: to_paserk(sealing_key=PEM)
  "unseal"   {"paserk", "recipient" (kN.secret)}: Key.from_paserk(paserk,
              unsealing_key=PEM).to_paserk()
  "generate" {"version", "purpose", "payload", "footer"}: a key made here
              (Key.new from random bytes, or from a PEM made by cryptography),
              returned as "paserk" (local or secret), "public" (public halves),
              "id" and "public_id", with a token over payload made with it.

pyseto takes wrapping keys as raw bytes and sealing keys as PEM, where PASERK
names keys by PASERK: the peer converts. k4.seal is defined over the
recipient's Ed25519 key, converted to X25519 (PASERK PKE), but pyseto takes the
X25519 key itself, so the peer converts as libsodium's
crypto_sign_ed25519_{pk,sk}_to_curve25519 do (the private half as pyseto's own
test-vector test does). k3.seal takes P-384 keys as PEM.
"""

import base64
import hashlib
import json
import os
import sys

import pyseto
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from pyseto import Key, Paseto


def describe(err):
    return f"{type(err).__name__}: {err}"


def b64decode(s):
    """Strict unpadded base64url, as PASERK writes it."""
    if "=" in s:
        raise ValueError("padded base64url")
    raw = base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != s:
        raise ValueError("non-canonical base64url")
    return raw


def paserk_data(paserk, header):
    """The raw bytes of a plain PASERK with the given header ("k4.local." …)."""
    if not paserk.startswith(header):
        raise ValueError(f"expected a {header}… PASERK, got {paserk.split('.')[0:2]}")
    return b64decode(paserk[len(header) :])


def version_of(paserk):
    v = paserk.split(".", 1)[0]
    if v not in ("k3", "k4"):
        raise ValueError(f"unsupported PASERK version {v!r}")
    return v


def wrapping_bytes(paserk):
    """A kN.local PASERK as the raw key pyseto's wrapping_key takes."""
    Key.from_paserk(paserk)  # pyseto reads it too
    return paserk_data(paserk, version_of(paserk) + ".local.")


_P25519 = 2**255 - 19


def ed25519_pk_to_x25519(pk):
    """crypto_sign_ed25519_pk_to_curve25519: u = (1 + y) / (1 - y) mod p."""
    y = int.from_bytes(pk, "little") & ((1 << 255) - 1)
    if y >= _P25519 or y == 1:
        raise ValueError("Ed25519 public key is not convertible to X25519")
    u = (1 + y) * pow((1 - y) % _P25519, _P25519 - 2, _P25519) % _P25519
    return u.to_bytes(32, "little")


def ed25519_seed_to_x25519(seed):
    """crypto_sign_ed25519_sk_to_curve25519: the clamped first half of SHA-512(seed)."""
    h = bytearray(hashlib.sha512(seed).digest()[:32])
    h[0] &= 248
    h[31] &= 127
    h[31] |= 64
    return bytes(h)


def sealing_pem(public_paserk):
    """The recipient's public key as the PEM pyseto's sealing_key takes."""
    Key.from_paserk(public_paserk)
    v = version_of(public_paserk)
    raw = paserk_data(public_paserk, v + ".public.")
    if v == "k4":
        pub = X25519PublicKey.from_public_bytes(ed25519_pk_to_x25519(raw))
    else:
        pub = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP384R1(), raw)
    return pub.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def unsealing_pem(secret_paserk):
    """The recipient's private key as the PEM pyseto's unsealing_key takes."""
    Key.from_paserk(secret_paserk)
    v = version_of(secret_paserk)
    raw = paserk_data(secret_paserk, v + ".secret.")
    if v == "k4":
        priv = X25519PrivateKey.from_private_bytes(ed25519_seed_to_x25519(raw[:32]))
    else:
        priv = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP384R1())
    return priv.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def text(b):
    return b.decode("utf-8") if isinstance(b, bytes) else b


def verify_one(case):
    try:
        key = Key.from_paserk(case["key"])
        if key.version != case["version"] or key.purpose != case["purpose"]:
            raise ValueError(
                f"key is v{key.version}.{key.purpose}, want v{case['version']}.{case['purpose']}"
            )
        t = pyseto.decode(
            key,
            case["token"],
            implicit_assertion=case.get("implicit", ""),
            deserializer=json,
            aud=case.get("audience", ""),
        )
        return {"ok": True, "payload": t.payload, "footer": text(t.footer)}
    except Exception as err:  # report every failure in the case's entry
        return {"ok": False, "error": describe(err)}


def issue_one(case):
    try:
        key = Key.from_paserk(case["key"])
        exp = case.get("exp_seconds", 0)
        paseto = Paseto.new(exp=exp, include_iat=True) if exp > 0 else pyseto
        footer = case.get("footer", "")
        if case.get("footer_json"):
            footer = json.loads(footer)  # pyseto serializes it, with json.dumps
        token = paseto.encode(
            key,
            case["payload"],
            footer=footer,
            implicit_assertion=case.get("implicit", ""),
            serializer=json,
        )
        return {"token": text(token)}
    except Exception as err:
        return {"token": "", "error": describe(err)}


def password_options(case, version):
    """pyseto's to_paserk cost keywords for a password wrap; 0 keeps pyseto's default."""
    opts = {}
    if version == "k4":
        for field, kw in (("memory_kib", "memory_cost"), ("time", "time_cost"), ("parallelism", "parallelism")):
            if case.get(field, 0):
                opts[kw] = case[field]
    elif case.get("iterations", 0):
        opts["iteration"] = case["iterations"]
    return opts


def generate(case):
    version, purpose = case["version"], case["purpose"]
    if purpose == "local":
        key = Key.new(version, "local", os.urandom(32))
        return key, None
    if version == 4:
        priv = Ed25519PrivateKey.generate()
    else:
        priv = ec.generate_private_key(ec.SECP384R1())
    pem = priv.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    pub_pem = priv.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return Key.new(version, "public", pem), Key.new(version, "public", pub_pem)


def paserk_one(case):
    try:
        op = case["op"]
        if op == "id":
            return {"paserk": Key.from_paserk(case["key"]).to_paserk_id()}
        if op == "encode":
            return {"paserk": Key.from_paserk(case["key"]).to_paserk()}
        if op == "wrap":
            key = Key.from_paserk(case["key"])
            if case.get("password"):
                opts = password_options(case, version_of(case["key"]))
                return {"paserk": key.to_paserk(password=case["password"], **opts)}
            return {"paserk": key.to_paserk(wrapping_key=wrapping_bytes(case["wrapping_key"]))}
        if op == "unwrap":
            if case.get("password"):
                key = Key.from_paserk(case["paserk"], password=case["password"])
            else:
                key = Key.from_paserk(case["paserk"], wrapping_key=wrapping_bytes(case["wrapping_key"]))
            return {"paserk": key.to_paserk()}
        if op == "seal":
            key = Key.from_paserk(case["key"])
            return {"paserk": key.to_paserk(sealing_key=sealing_pem(case["recipient"]))}
        if op == "unseal":
            key = Key.from_paserk(case["paserk"], unsealing_key=unsealing_pem(case["recipient"]))
            return {"paserk": key.to_paserk()}
        if op == "generate":
            key, pub = generate(case)
            token = pyseto.encode(key, case["payload"], footer=case.get("footer", ""), serializer=json)
            out = {"paserk": key.to_paserk(), "id": key.to_paserk_id(), "token": text(token)}
            if pub is not None:
                out["public"] = pub.to_paserk()
                out["public_id"] = pub.to_paserk_id()
                out["peer_id"] = key.to_peer_paserk_id()
            return out
        raise ValueError(f"unknown op {op!r}")
    except Exception as err:
        return {"paserk": "", "error": describe(err)}


def main():
    try:
        request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    except ValueError as err:  # invalid UTF-8 or JSON
        sys.stderr.write(f"pyseto_peer: cannot read the request: {describe(err)}\n")
        sys.exit(2)
    response = {
        "pyseto": pyseto.__version__,
        "verified": [verify_one(c) for c in request.get("verify") or []],
        "issued": [issue_one(c) for c in request.get("issue") or []],
        "paserk": [paserk_one(c) for c in request.get("paserk") or []],
    }
    sys.stdout.write(json.dumps(response) + "\n")


if __name__ == "__main__":
    main()
