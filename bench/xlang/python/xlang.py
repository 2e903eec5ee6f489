"""The cross-language JWT scenario with PyJWT; the contract is bench/xlang/README.md.

    python xlang.py pyjwt bench --emails FILE --n N --threads T   (JWT_SECRET in the environment)
    python xlang.py pyjwt interop < request.json

bench: T worker processes (multiprocessing with the 'fork' start method: the
GIL rules out threads for CPU-bound work), each doing its share of the N
iterations (sign HS256, verify with HS256 as the only algorithm and exp
required, compare sub). T = 1 also runs in one worker process, so that every
worker count measures the same code path. The parent reads the addresses
before forking (the children inherit them), waits until every worker has
reported ready, then times from setting the start event to the last worker's
result. CPython has no JIT, so there is no warm-up.

interop: PEM keys are loaded with cryptography (load_pem_private_key,
load_pem_public_key) and handed to PyJWT; HS256 uses the raw secret bytes.
"""

from __future__ import annotations

import base64
import json
import multiprocessing
import os
import platform
import sys
import time
from multiprocessing.connection import wait

import jwt
from cryptography.hazmat.primitives.serialization import (
    load_pem_private_key,
    load_pem_public_key,
)

LIB = "pyjwt"
LIFETIME = 7200  # exp = iat + 2 h


class Failure(Exception):
    """A failure to report on stderr with exit status 1."""


def iteration(address: str, secret: str) -> None:
    """One iteration of the scenario, written as an application would."""
    iat = int(time.time())
    token = jwt.encode(
        {"sub": address, "iat": iat, "exp": iat + LIFETIME}, secret, algorithm="HS256"
    )
    claims = jwt.decode(token, secret, algorithms=["HS256"], options={"require": ["exp"]})
    if claims["sub"] != address:
        raise Failure(f"decoded sub {claims['sub']!r}, want {address!r}")


def walk(emails: list[str], start: int, count: int, secret: str) -> None:
    """Runs count iterations over emails from index start, walking forward and wrapping."""
    i = start
    n = len(emails)
    for _ in range(count):
        iteration(emails[i], secret)
        i += 1
        if i == n:
            i = 0


# ---- bench ----


def worker(emails, secret, start, count, conn, go) -> None:
    """A worker process: reports ready, waits for the start event, runs its share."""
    try:
        conn.send(("ready", None))
        go.wait()
        try:
            walk(emails, start, count, secret)
        except Exception as exc:  # noqa: BLE001 - every failure is reported
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            return
        conn.send(("done", peak_rss_kib()))
    finally:
        conn.close()


def peak_rss_kib() -> int:
    """This process's peak resident set (VmHWM of /proc/self/status), 0 where there is none."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def collect(workers, want: str) -> None:
    """Waits for message want from every worker; raises Failure on an error or an early exit."""
    pending = {w["conn"]: w for w in workers}
    alive = {w["proc"].sentinel: w for w in workers}
    while pending:
        for ready in wait(list(pending) + list(alive)):
            w = pending.get(ready)
            if w is not None:
                try:
                    kind, detail = ready.recv()
                except EOFError:
                    w["proc"].join(1)
                    raise Failure(
                        f"worker {w['index']} exited (code {w['proc'].exitcode}) before {want}"
                    ) from None
                if kind == "error":
                    raise Failure(f"worker {w['index']}: {detail}")
                if kind != want:
                    raise Failure(f"worker {w['index']} sent {kind!r}, want {want!r}")
                if kind == "done":
                    w["peak_rss_kib"] = detail or 0
                del pending[ready]
                continue
            w = alive.get(ready)
            if w is None:
                continue
            del alive[ready]
            # It exited; a message it sent before exiting may still be unread.
            if w["conn"] in pending and not w["conn"].poll():
                w["proc"].join(1)
                raise Failure(
                    f"worker {w['index']} exited (code {w['proc'].exitcode}) before {want}"
                )
        # A worker that is done exits: stop watching its sentinel once its
        # message is in, but keep waiting for the others.
        alive = {s: w for s, w in alive.items() if w["conn"] in pending}


def parse_flags(args: list[str]) -> dict[str, str]:
    flags = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--"):
            raise Failure(f"unexpected argument {arg!r}")
        name, eq, value = arg[2:].partition("=")
        if not eq:
            if i + 1 >= len(args):
                raise Failure(f"flag {arg} needs a value")
            i += 1
            value = args[i]
        flags[name] = value
        i += 1
    return flags


def whole(flags: dict[str, str], name: str, minimum: int) -> int:
    text = flags.get(name)
    if text is None:
        raise Failure(f"missing --{name}")
    if not text.isdigit():
        raise Failure(f"--{name} {text!r} is not a whole number")
    value = int(text)
    if value < minimum:
        raise Failure(f"--{name} must be at least {minimum}, got {value}")
    return value


def bench(args: list[str]) -> None:
    flags = parse_flags(args)
    path = flags.get("emails")
    if not path:
        raise Failure("missing --emails")
    n = whole(flags, "n", 1)
    threads = whole(flags, "threads", 1)
    secret = os.environ.get("JWT_SECRET")
    if not secret:
        raise Failure("JWT_SECRET is not set")
    try:
        with open(path, encoding="utf-8") as f:
            emails = json.load(f)
    except (OSError, ValueError) as exc:
        raise Failure(f"cannot read {path}: {exc}") from None
    if not isinstance(emails, list) or not emails or not all(isinstance(e, str) for e in emails):
        raise Failure(f"{path} is not a non-empty JSON array of strings")

    ctx = multiprocessing.get_context("fork")
    go = ctx.Event()
    workers = []
    try:
        for w in range(threads):
            start = w * len(emails) // threads
            count = (w + 1) * n // threads - w * n // threads
            recv_end, send_end = ctx.Pipe(duplex=False)
            proc = ctx.Process(
                target=worker,
                args=(emails, secret, start, count, send_end, go),
                name=f"xlang-worker-{w}",
                daemon=True,
            )
            proc.start()
            send_end.close()
            workers.append({"index": w, "proc": proc, "conn": recv_end})
        collect(workers, "ready")

        t0 = time.perf_counter_ns()
        go.set()
        collect(workers, "done")
        elapsed = time.perf_counter_ns() - t0
    except BaseException:
        for w in workers:
            if w["proc"].is_alive():
                w["proc"].terminate()
        raise
    for w in workers:
        w["proc"].join()

    line = {
        "lang": "python",
        "lib": LIB,
        "lib_version": jwt.__version__,
        "runtime": f"{platform.python_implementation()} {platform.python_version()}",
        "threads": threads,
        "n": n,
        "elapsed_ns": elapsed,
        # The processes' peaks added up: the parent's and each worker's.
        "peak_rss_kib": peak_rss_kib() + sum(w.get("peak_rss_kib", 0) for w in workers),
    }
    sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")


# ---- interop ----

SUPPORTED = ("HS256", "RS256", "ES256", "EdDSA")


def secret_from(key) -> bytes:
    text = key.get("secret_b64url") if isinstance(key, dict) else None
    if not isinstance(text, str):
        raise ValueError("key has no secret_b64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def pem_from(key, field: str) -> bytes:
    text = key.get(field) if isinstance(key, dict) else None
    if not isinstance(text, str):
        raise ValueError(f"key has no {field}")
    return text.encode("ascii")


def signing_key(alg: str, key):
    if alg == "HS256":
        return secret_from(key)
    return load_pem_private_key(pem_from(key, "private_pkcs8_pem"), password=None)


def verification_key(alg: str, key):
    if alg == "HS256":
        return secret_from(key)
    return load_pem_public_key(pem_from(key, "public_spki_pem"))


def interop_case(case) -> dict:
    if not isinstance(case, dict):
        return {"id": None, "ok": False, "error": "case is not an object"}
    cid, op, alg = case.get("id"), case.get("op"), case.get("alg")
    if alg not in SUPPORTED:
        return {
            "id": cid,
            "ok": False,
            "error": f"unsupported: alg {alg!r} (this program handles {', '.join(SUPPORTED)})",
        }
    try:
        if op == "sign":
            # PyJWT's header for these algorithms is {"alg": alg, "typ": "JWT"}.
            token = jwt.encode(case.get("claims"), signing_key(alg, case.get("key")), algorithm=alg)
            return {"id": cid, "token": token}
        if op == "verify":
            # verify_aud is off: the request names no audience, and PyJWT by
            # default refuses every token that carries "aud" when the caller
            # gives none. Signature, alg, exp (required), nbf and iat are
            # checked as usual.
            claims = jwt.decode(
                case.get("token"),
                verification_key(alg, case.get("key")),
                algorithms=[alg],
                options={"require": ["exp"], "verify_aud": False},
            )
            return {"id": cid, "ok": True, "claims": claims}
        return {"id": cid, "ok": False, "error": f"unknown op {op!r}"}
    except Exception as exc:  # noqa: BLE001 - every refusal is reported in its entry
        return {"id": cid, "ok": False, "error": f"{type(exc).__name__}: {exc}"}


def interop() -> None:
    try:
        request = json.load(sys.stdin)
        cases = request["cases"]
        if not isinstance(cases, list):
            raise TypeError('"cases" is not an array')
    except Exception as exc:  # noqa: BLE001
        raise Failure(f"cannot read the interop request: {type(exc).__name__}: {exc}") from None
    results = [interop_case(c) for c in cases]
    sys.stdout.write(json.dumps({"results": results}, separators=(",", ":")) + "\n")


def main(argv: list[str]) -> int:
    try:
        if len(argv) < 2 or argv[0] != LIB:
            raise Failure(f"unknown lib {argv[0] if argv else None!r} (this program offers: {LIB})")
        mode = argv[1]
        if mode == "bench":
            bench(argv[2:])
        elif mode == "interop":
            interop()
        else:
            raise Failure(f"unknown mode {mode!r} (want bench or interop)")
    except Failure as exc:
        sys.stderr.write(f"xlang python: {exc}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
