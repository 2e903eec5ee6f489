//! Records, at compile time, what the report's `lib_version` and `runtime`
//! fields name: the jsonwebtoken version in Cargo.lock (the build runs with
//! `--locked`, so that is the one compiled) and the rustc that compiles us.

use std::{env, fs, path::Path, process::Command};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=Cargo.lock");

    let manifest_dir = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR is set by cargo");
    let lock_path = Path::new(&manifest_dir).join("Cargo.lock");
    let lock = fs::read_to_string(&lock_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", lock_path.display()));
    let version = locked_version(&lock, "jsonwebtoken")
        .unwrap_or_else(|| panic!("jsonwebtoken is not in {}", lock_path.display()));
    println!("cargo::rustc-env=XLANG_JSONWEBTOKEN_VERSION={version}");

    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(&rustc)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {rustc} --version: {e}"));
    let full = String::from_utf8_lossy(&output.stdout);
    // "rustc 1.95.0 (59807616e 2026-04-14)" -> "rustc 1.95.0"
    let runtime: Vec<&str> = full.split_whitespace().take(2).collect();
    assert!(
        runtime.len() == 2,
        "unexpected `{rustc} --version` output: {full:?}"
    );
    println!("cargo::rustc-env=XLANG_RUSTC_VERSION={}", runtime.join(" "));
}

/// The `version` of the `[[package]]` entry called `name` in a Cargo.lock.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut in_entry = false;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            in_entry = false;
        } else if line == wanted {
            in_entry = true;
        } else if in_entry
            && let Some(v) = line
                .strip_prefix("version = \"")
                .and_then(|r| r.strip_suffix('"'))
        {
            return Some(v.to_owned());
        }
    }
    None
}
