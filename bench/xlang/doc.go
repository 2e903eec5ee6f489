// Package xlang drives the cross-language scenario of bench/xlang (see
// README.md there): the programs each language builds with its own
// toolchain, the seeded address list they read, the runner's records
// (out/xlang/results.json) and the report section drawn from them.
//
// A language is a directory with build.sh, run.sh and libs.txt. Build
// reports a missing toolchain as an error wrapping ErrMissingToolchain, so
// that callers skip the language and say why, never fake it:
//
//	langs, err := xlang.Languages("xlang")
//	for _, l := range langs {
//		if err := l.Build(ctx, os.Stderr); errors.Is(err, xlang.ErrMissingToolchain) {
//			fmt.Println("skipped:", err)
//			continue
//		}
//		out, usage, err := l.Bench(ctx, lib, emailsFile, n, threads, secret)
//		…
//	}
package xlang
