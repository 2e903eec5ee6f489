#!/usr/bin/env bash
# Builds the Rust scenario twice, once per jsonwebtoken crypto backend, each
# into its own target dir so the two feature sets never mix:
#   target/rust_crypto/release/jwt-xlang   (lib jsonwebtoken-rust_crypto)
#   target/aws_lc_rs/release/jwt-xlang     (lib jsonwebtoken-aws_lc_rs)
# Dependencies come from crates.io at the versions in Cargo.lock (--locked).
# Exit 3 with "missing toolchain: ..." when cargo/rustc (>= 1.88) or the C
# compiler aws-lc-sys needs is missing; exit 1 on any other failure.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
min_rustc="1.88.0" # jsonwebtoken 11's rust-version

missing() {
	echo "missing toolchain: $*" >&2
	exit 3
}

command -v cargo >/dev/null 2>&1 || missing "cargo (Rust)"
command -v rustc >/dev/null 2>&1 || missing "rustc (Rust)"
rustc_version="$(rustc --version 2>/dev/null | awk '{print $2}')"
[[ -n "$rustc_version" ]] || missing "rustc (Rust): 'rustc --version' failed"
if [[ "$(printf '%s\n%s\n' "$min_rustc" "${rustc_version%%-*}" | sort -V | head -n1)" != "$min_rustc" ]]; then
	missing "rustc >= $min_rustc (found $rustc_version)"
fi
# aws-lc-sys compiles AWS-LC from C sources.
if [[ -z "${CC:-}" ]] && ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1 && ! command -v clang >/dev/null 2>&1; then
	missing "a C compiler (cc, gcc or clang), needed by aws-lc-sys for the aws_lc_rs backend"
fi

for backend in rust_crypto aws_lc_rs; do
	if ! cargo build --release --locked --quiet \
		--manifest-path "$here/Cargo.toml" \
		--target-dir "$here/target/$backend" \
		--no-default-features --features "$backend"; then
		echo "build.sh: cargo build of the $backend backend failed" >&2
		exit 1
	fi
done
