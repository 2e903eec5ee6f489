"""The Python side of the token service's interop test (server/interop).

Real OAuth and JWT libraries, written by others, talk to a running signet
token service as any client would:

  * Authlib's requests OAuth2Session fetches access tokens with the client
    credentials grant, authenticating with client_secret_basic,
    client_secret_post and private_key_jwt (Authlib's PrivateKeyJWT);
  * PyJWT's PyJWKClient fetches the published JWKS (found through RFC 8414
    discovery) and verifies each access token: algorithm, signature,
    issuer, audience and expiry, plus the RFC 9068 header typ "at+jwt";
  * Authlib's introspect_token and revoke_token call RFC 7662 and RFC 7009.

Usage: python oauth_peer.py CONFIG.json
CONFIG names the issuer, the algorithm the service signs with and the
clients with their credentials (see the Go test). The script prints one JSON
object on stdout; the Go test asserts it. It exits non-zero only when it
cannot run at all (bad arguments, discovery failed).
"""

import json
import sys

import authlib
import jwt
import requests
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7523 import PrivateKeyJWT
from joserfc.jwk import ECKey, OKPKey

TIMEOUT = 10  # seconds, for every HTTP request
KEY_TYPES = {"EC": ECKey, "OKP": OKPKey}


def load_key(spec):
    """The client's private key, read from the PEM file the Go test wrote."""
    with open(spec["key_file"], "rb") as f:
        return KEY_TYPES[spec["key_type"]].import_key(f.read())


def assertion_auth(spec, token_endpoint, claims=None):
    """A PrivateKeyJWT as Authlib makes it by default: its assertion lives an
    hour (exp = iat + 3600), which the service accepts
    (oauth.MaxAssertionLifetime).

    Without claims, Authlib draws a new jti for every assertion. Given a
    claims dict, it stores the jti it draws in that dict, so an object made
    with one sends the same jti again (see replay).
    """
    headers = {"kid": spec["kid"]} if spec.get("kid") else None
    return PrivateKeyJWT(token_endpoint, claims=claims, headers=headers, alg=spec["alg"])


def session_for(spec):
    """An Authlib OAuth2Session for one client, with its auth method."""
    method = spec["method"]
    if method == "private_key_jwt":
        s = OAuth2Session(
            spec["client_id"],
            load_key(spec),
            token_endpoint_auth_method=method,
            revocation_endpoint_auth_method=method,
            scope=spec.get("scope"),
        )
    else:
        s = OAuth2Session(
            spec["client_id"],
            spec["client_secret"],
            token_endpoint_auth_method=method,
            revocation_endpoint_auth_method=method,
            scope=spec.get("scope"),
        )
    return s


def auth_for(s, spec, meta):
    """The client authentication for one request (a fresh assertion)."""
    if spec["method"] == "private_key_jwt":
        return s.client_auth(assertion_auth(spec, meta["token_endpoint"]))
    return s.client_auth(spec["method"])


def fetch(s, spec, meta, auth=None):
    """fetch_token with the client credentials grant; (token, error)."""
    kwargs = {"grant_type": "client_credentials", "timeout": TIMEOUT}
    if spec.get("resource"):
        kwargs["resource"] = spec["resource"]
    if auth is None:
        auth = auth_for(s, spec, meta)
    try:
        return dict(s.fetch_token(meta["token_endpoint"], auth=auth, **kwargs)), None
    except OAuthError as e:
        return None, {"error": e.error, "error_description": e.description}


def verify(jwks, token, cfg, audience):
    """PyJWT's verdict on an access token; (header, claims, error)."""
    header = jwt.get_unverified_header(token)
    try:
        key = jwks.get_signing_key_from_jwt(token)
        claims = jwt.decode(
            token,
            key.key,
            algorithms=[cfg["alg"]],
            audience=audience,
            issuer=cfg["issuer"],
            options={"require": ["exp", "iat", "iss", "aud", "sub", "jti"]},
        )
    except jwt.PyJWTError as e:
        return header, None, "%s: %s" % (type(e).__name__, e)
    if header.get("typ") != "at+jwt":
        return header, claims, "header typ %r, want at+jwt" % header.get("typ")
    return header, claims, None


def refused_for(jwks, token, cfg, audience):
    """Whether PyJWT refuses the token for another audience (it must)."""
    try:
        key = jwks.get_signing_key_from_jwt(token)
        jwt.decode(token, key.key, algorithms=[cfg["alg"]], audience=audience, issuer=cfg["issuer"])
    except jwt.InvalidAudienceError:
        return True
    return False


def introspect(s, spec, meta, token):
    r = s.introspect_token(
        meta["introspection_endpoint"], token=token, auth=auth_for(s, spec, meta), timeout=TIMEOUT
    )
    return {"status": r.status_code, "body": r.json()}


def revoke(s, spec, meta, token):
    r = s.revoke_token(
        meta["revocation_endpoint"], token=token, auth=auth_for(s, spec, meta), timeout=TIMEOUT
    )
    return {"status": r.status_code}


def run_case(spec, cfg, meta, jwks):
    out = {"name": spec["name"], "client_id": spec["client_id"], "method": spec["method"]}
    s = session_for(spec)
    tok, err = fetch(s, spec, meta)
    if err:
        out["fetch_error"] = err
        return out
    out["token_response"] = {k: tok.get(k) for k in ("token_type", "expires_in", "scope")}
    out["token_response"]["has_refresh_token"] = "refresh_token" in tok
    token = tok["access_token"]
    out["access_token"] = token
    header, claims, verr = verify(jwks, token, cfg, spec["audience"])
    out["header"], out["claims"], out["verify_error"] = header, claims, verr
    out["other_audience_refused"] = refused_for(jwks, token, cfg, "https://not-this-api.example")
    out["introspect"] = introspect(s, spec, meta, token)
    out["revoke"] = revoke(s, spec, meta, token)
    out["introspect_after_revoke"] = introspect(s, spec, meta, token)
    return out


def replay(spec, meta):
    """One PrivateKeyJWT with a claims dict used twice: Authlib sends the same
    jti again (see assertion_auth), and the service must refuse the second."""
    s = session_for(spec)
    auth = s.client_auth(assertion_auth(spec, meta["token_endpoint"], claims={}))
    first, err1 = fetch(s, spec, meta, auth=auth)
    second, err2 = fetch(s, spec, meta, auth=auth)
    return {"first_ok": first is not None, "first_error": err1, "second_ok": second is not None, "second_error": err2}


def probe(spec, meta):
    """A token request whose outcome is reported, not required."""
    s = session_for(spec)
    tok, err = fetch(s, spec, meta)
    return {"name": spec["name"], "ok": tok is not None, "error": err}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: oauth_peer.py CONFIG.json")
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    r = requests.get(cfg["issuer"] + "/.well-known/oauth-authorization-server", timeout=TIMEOUT)
    r.raise_for_status()
    meta = r.json()
    jwks = jwt.PyJWKClient(meta["jwks_uri"], timeout=TIMEOUT)
    result = {
        "versions": {
            "python": sys.version.split()[0],
            "authlib": authlib.__version__,
            "pyjwt": jwt.__version__,
            "requests": requests.__version__,
        },
        "metadata": meta,
        "jwks_keys": [{"kid": k.key_id, "alg": k.algorithm_name} for k in jwks.get_signing_keys()],
        "cases": [run_case(spec, cfg, meta, jwks) for spec in cfg["clients"]],
    }
    result["probes"] = [probe(spec, meta) for spec in cfg.get("probes", [])]
    jwt_specs = [c for c in cfg["clients"] if c["method"] == "private_key_jwt"]
    if jwt_specs:
        result["replay"] = replay(jwt_specs[0], meta)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
