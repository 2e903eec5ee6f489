//! Mode `bench`: N sign-verify-decode iterations of HS256 tokens over T OS threads.

use std::{env, fs, thread, time::Instant};

use jsonwebtoken::{
    Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode, get_current_timestamp,
};
use serde::{Deserialize, Serialize};

use crate::{LIB, LIB_VERSION, RUNTIME};

/// Two hours, the tokens' lifetime.
const LIFETIME_SECS: u64 = 2 * 60 * 60;

/// The scenario's claims.
#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    iat: u64,
    exp: u64,
}

/// The one line printed on stdout.
#[derive(Serialize)]
struct Report {
    lang: &'static str,
    lib: &'static str,
    lib_version: &'static str,
    runtime: &'static str,
    threads: usize,
    n: u64,
    elapsed_ns: u64,
    peak_rss_kib: u64,
}

struct Options {
    emails: String,
    n: u64,
    threads: usize,
}

/// What every worker shares: the keys, header and validation rules are made
/// once, as a service would, and only read by the workers.
struct Signer {
    header: Header,
    encoding_key: EncodingKey,
    decoding_key: DecodingKey,
    validation: Validation,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let options = parse_options(args)?;
    let secret = env::var("JWT_SECRET").map_err(|_| "JWT_SECRET is not set".to_owned())?;
    if secret.is_empty() {
        return Err("JWT_SECRET is empty".to_owned());
    }
    let text = fs::read(&options.emails).map_err(|e| format!("reading {}: {e}", options.emails))?;
    let emails: Vec<String> = serde_json::from_slice(&text)
        .map_err(|e| format!("{}: not a JSON array of strings: {e}", options.emails))?;
    if emails.is_empty() {
        return Err(format!("{}: no addresses", options.emails));
    }

    let signer = Signer {
        header: Header::default(),
        encoding_key: EncodingKey::from_secret(secret.as_bytes()),
        decoding_key: DecodingKey::from_secret(secret.as_bytes()),
        validation: Validation::new(Algorithm::HS256), // `exp` required and checked
    };

    let threads = options.threads;
    let n = options.n;
    let start = Instant::now();
    let outcomes: Vec<Result<(), String>> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                let first = w * emails.len() / threads;
                let count = n / threads as u64 + u64::from((w as u64) < n % threads as u64);
                let (emails, signer) = (&emails, &signer);
                scope.spawn(move || work(emails, first, count, signer))
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|_| Err("a worker panicked".to_owned()))
            })
            .collect()
    });
    let elapsed = start.elapsed();
    outcomes.into_iter().collect::<Result<(), String>>()?;

    let report = Report {
        lang: "rust",
        lib: LIB,
        lib_version: LIB_VERSION,
        runtime: RUNTIME,
        threads,
        n,
        elapsed_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
        peak_rss_kib: peak_rss_kib(),
    };
    println!(
        "{}",
        serde_json::to_string(&report).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// One worker's share: `count` iterations from address `first` on, wrapping.
fn work(emails: &[String], first: usize, count: u64, signer: &Signer) -> Result<(), String> {
    let mut addresses = emails.iter().cycle().skip(first);
    for _ in 0..count {
        let address = addresses
            .next()
            .expect("a cycle over a non-empty list never ends");
        let iat = get_current_timestamp();
        let claims = Claims {
            sub: address.clone(),
            iat,
            exp: iat + LIFETIME_SECS,
        };
        let token = encode(&signer.header, &claims, &signer.encoding_key)
            .map_err(|e| format!("signing for {address}: {e}"))?;
        let decoded = decode::<Claims>(&token, &signer.decoding_key, &signer.validation)
            .map_err(|e| format!("verifying the token for {address}: {e}"))?;
        if decoded.claims.sub != *address {
            return Err(format!(
                "decoded sub {:?}, want {address:?}",
                decoded.claims.sub
            ));
        }
    }
    Ok(())
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let (mut emails, mut n, mut threads) = (None, None, None);
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let (name, inline) = match flag.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (flag.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next().cloned())
                .ok_or(format!("{name} needs a value"))
        };
        match name {
            "--emails" => emails = Some(value()?),
            "--n" => n = Some(parse_number::<u64>(name, &value()?)?),
            "--threads" => threads = Some(parse_number::<usize>(name, &value()?)?),
            _ => {
                return Err(format!(
                    "unknown flag {flag}; want --emails FILE --n N --threads T"
                ));
            }
        }
    }
    let threads = threads.unwrap_or(1);
    if threads == 0 {
        return Err("--threads must be at least 1".to_owned());
    }
    let n = n.ok_or("--n N is required")?;
    if n == 0 {
        return Err("--n must be at least 1".to_owned());
    }
    Ok(Options {
        emails: emails.ok_or("--emails FILE is required")?,
        n,
        threads,
    })
}

fn parse_number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag}: {text:?} is not a non-negative integer"))
}

/// The process's peak resident set (VmHWM of /proc/self/status), 0 where
/// there is none.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
