#!/usr/bin/env bash
# Prints benchstat tables of signet against each peer of the lab:
# the lab's benchmarks (bench/, names as in docs/design.md) run COUNT times, then
# for each peer the rows it shares with signet, compared with benchstat
# (time, B/op, allocs/op, with confidence intervals).
#
#   make bench-compare                      # quick algorithms, COUNT=5
#   COUNT=10 BENCH='JWT/HS256' LAB_QUICK= make bench-compare
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
count=${COUNT:-5}
bench=${BENCH:-.}
out=$root/out/bench
mkdir -p "$out"

# benchstat, pinned: golang.org/x/perf at an exact version, installed from
# the module proxy into bin/ (its own module, not the lab's).
perf=v0.0.0-20260908200009-22c9c6c9d4da
benchstat=$root/bin/benchstat
if [ ! -x "$benchstat" ] || [ "$(cat "$root/bin/.benchstat-version" 2>/dev/null)" != "$perf" ]; then
	echo "== installing benchstat (golang.org/x/perf $perf) into bin/"
	GOBIN=$root/bin GOFLAGS=-mod=mod go install "golang.org/x/perf/cmd/benchstat@$perf"
	echo "$perf" >"$root/bin/.benchstat-version"
fi

echo "== go test -bench '$bench' -count $count (bench/, LAB_QUICK=${LAB_QUICK-1})"
(cd bench && LAB_QUICK=${LAB_QUICK-1} go test -run '^$' -bench "$bench" -benchmem -count "$count" -timeout 60m .) | tee "$out/all.txt" | grep -c '^Benchmark' | xargs -I{} echo "   {} result lines in out/bench/all.txt"

# pick LIB: the header lines, and the benchmark lines of LIB with the
# library's name taken out of the benchmark name, so that benchstat pairs
# signet's rows with the peer's.
pick() {
	awk -v lib="$1" '
		/^Benchmark/ {
			name = $1; suffix = ""
			if (match(name, /-[0-9]+$/)) { suffix = substr(name, RSTART); name = substr(name, 1, RSTART - 1) }
			n = split(name, parts, "/")
			if (parts[n] != lib) next
			sub("/" lib "$", "", name)
			$1 = name suffix
			print; next
		}
		/^(goos|goarch|pkg|cpu):/ { print }
	' "$out/all.txt"
}

pick signet >"$out/signet.txt"
for peer in golang-jwt jwx go-jose cristalhq kataras go-paseto o1egl yaronf remitly common-fate floor; do
	pick "$peer" >"$out/$peer.txt"
	if ! grep -q '^Benchmark' "$out/$peer.txt"; then
		continue
	fi
	echo
	echo "=================== signet vs $peer ==================="
	"$benchstat" signet="$out/signet.txt" "$peer"="$out/$peer.txt"
done
