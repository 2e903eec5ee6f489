//! Mode `interop`: one JSON request of sign/verify cases on stdin, one JSON
//! response with a result per case, in order, on stdout.

use std::io::{self, Read};

use base64::{
    Engine, alphabet,
    engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig},
};
use jsonwebtoken::{
    Algorithm, AlgorithmFamily, DecodingKey, EncodingKey, Header, Validation, decode, encode,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// base64url for `secret_b64url`: no padding expected, but tolerated.
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

#[derive(Deserialize)]
struct Request {
    cases: Vec<Value>,
}

#[derive(Deserialize)]
struct Case {
    op: String,
    alg: String,
    #[serde(default)]
    key: Key,
    claims: Option<Value>,
    token: Option<String>,
}

#[derive(Default, Deserialize)]
struct Key {
    secret_b64url: Option<String>,
    private_pkcs8_pem: Option<String>,
    public_spki_pem: Option<String>,
}

#[derive(Serialize)]
struct Response {
    results: Vec<Outcome>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Outcome {
    Signed { id: String, token: String },
    Verified { id: String, ok: bool, claims: Value },
    Failed { id: String, ok: bool, error: String },
}

pub fn run() -> Result<(), String> {
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("reading stdin: {e}"))?;
    let request: Request = serde_json::from_str(&input)
        .map_err(|e| format!("the request is not {{\"cases\": [...]}}: {e}"))?;
    let response = Response {
        results: request.cases.iter().map(answer).collect(),
    };
    println!(
        "{}",
        serde_json::to_string(&response).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// One case's result; every failure, a malformed case included, stays in its entry.
fn answer(case: &Value) -> Outcome {
    let id = case
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let result = Case::deserialize(case)
        .map_err(|e| format!("malformed case: {e}"))
        .and_then(|case| match case.op.as_str() {
            "sign" => sign(&case).map(|token| Outcome::Signed {
                id: id.clone(),
                token,
            }),
            "verify" => verify(&case).map(|claims| Outcome::Verified {
                id: id.clone(),
                ok: true,
                claims,
            }),
            other => Err(format!("unsupported: op {other:?}")),
        });
    result.unwrap_or_else(|error| Outcome::Failed {
        id,
        ok: false,
        error,
    })
}

fn sign(case: &Case) -> Result<String, String> {
    let alg = algorithm(&case.alg)?;
    let claims = case.claims.as_ref().ok_or("a sign case needs claims")?;
    let key = encoding_key(alg, &case.key)?;
    encode(&Header::new(alg), claims, &key).map_err(|e| format!("sign: {e}"))
}

fn verify(case: &Case) -> Result<Value, String> {
    let alg = algorithm(&case.alg)?;
    let token = case.token.as_deref().ok_or("a verify case needs a token")?;
    let key = decoding_key(alg, &case.key)?;
    // Only `alg` is allowed; `exp` is required and checked (the crate's defaults).
    // The contract checks signature, algorithm and exp; an aud claim is
    // compared by the caller, so no audience is configured here (with
    // validate_aud on and none set, jsonwebtoken refuses every token with aud).
    let mut validation = Validation::new(alg);
    validation.validate_aud = false;
    decode::<Value>(token, &key, &validation)
        .map(|data| data.claims)
        .map_err(|e| format!("verify: {e}"))
}

fn algorithm(name: &str) -> Result<Algorithm, String> {
    name.parse()
        .map_err(|_| format!("unsupported: algorithm {name:?}"))
}

fn encoding_key(alg: Algorithm, key: &Key) -> Result<EncodingKey, String> {
    let result = match alg.family() {
        AlgorithmFamily::Hmac => return secret(key).map(|bytes| EncodingKey::from_secret(&bytes)),
        AlgorithmFamily::Rsa => EncodingKey::from_rsa_pem(private_pem(key)?),
        AlgorithmFamily::Ec => EncodingKey::from_ec_pem(private_pem(key)?),
        AlgorithmFamily::Ed => EncodingKey::from_ed_pem(private_pem(key)?),
        #[allow(unreachable_patterns)]
        _ => return Err(format!("unsupported: algorithm {alg:?}")),
    };
    result.map_err(|e| format!("private key: {e}"))
}

fn decoding_key(alg: Algorithm, key: &Key) -> Result<DecodingKey, String> {
    let result = match alg.family() {
        AlgorithmFamily::Hmac => return secret(key).map(|bytes| DecodingKey::from_secret(&bytes)),
        AlgorithmFamily::Rsa => DecodingKey::from_rsa_pem(public_pem(key)?),
        AlgorithmFamily::Ec => DecodingKey::from_ec_pem(public_pem(key)?),
        AlgorithmFamily::Ed => DecodingKey::from_ed_pem(public_pem(key)?),
        #[allow(unreachable_patterns)]
        _ => return Err(format!("unsupported: algorithm {alg:?}")),
    };
    result.map_err(|e| format!("public key: {e}"))
}

fn secret(key: &Key) -> Result<Vec<u8>, String> {
    let text = key
        .secret_b64url
        .as_deref()
        .ok_or("key.secret_b64url is missing")?;
    BASE64URL
        .decode(text)
        .map_err(|e| format!("key.secret_b64url: {e}"))
}

fn private_pem(key: &Key) -> Result<&[u8], String> {
    key.private_pkcs8_pem
        .as_deref()
        .map(str::as_bytes)
        .ok_or_else(|| "key.private_pkcs8_pem is missing".to_owned())
}

fn public_pem(key: &Key) -> Result<&[u8], String> {
    key.public_spki_pem
        .as_deref()
        .map(str::as_bytes)
        .ok_or_else(|| "key.public_spki_pem is missing".to_owned())
}
