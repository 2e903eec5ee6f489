//! bench/xlang, Rust: the cross-language JWT scenario (`bench`) and the interop
//! program (`interop`) written with the `jsonwebtoken` crate. The contract is
//! bench/xlang/README.md. One binary per crypto backend: the package is built
//! once with the `rust_crypto` feature and once with `aws_lc_rs`.

use std::process::ExitCode;

mod bench;
mod interop;

#[cfg(all(feature = "rust_crypto", feature = "aws_lc_rs"))]
compile_error!("build with exactly one of the features `rust_crypto` and `aws_lc_rs`, not both");
#[cfg(not(any(feature = "rust_crypto", feature = "aws_lc_rs")))]
compile_error!("build with one of the features `rust_crypto` or `aws_lc_rs`");

/// The `<lib>` name of this build, as listed in libs.txt.
pub const LIB: &str = if cfg!(feature = "rust_crypto") {
    "jsonwebtoken-rust_crypto"
} else {
    "jsonwebtoken-aws_lc_rs"
};
/// The jsonwebtoken version in Cargo.lock (set by build.rs).
pub const LIB_VERSION: &str = env!("XLANG_JSONWEBTOKEN_VERSION");
/// The compiler this binary was built with (set by build.rs).
pub const RUNTIME: &str = env!("XLANG_RUSTC_VERSION");

const USAGE: &str = "usage: jwt-xlang bench --emails FILE --n N --threads T\n       jwt-xlang interop < request.json";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bench") => bench::run(&args[1..]),
        Some("interop") => interop::run(),
        Some("--version") => {
            println!("{LIB} {LIB_VERSION} ({RUNTIME})");
            Ok(())
        }
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{LIB}: {message}");
            ExitCode::FAILURE
        }
    }
}
