#!/usr/bin/env bash
# Runs the Java side of bench/xlang (see ../README.md), built by build.sh:
#   run.sh jjwt bench --emails FILE --n N --threads T
#   run.sh jjwt interop < request.json > response.json
#
# The JDK: XLANG_JAVA_HOME if set; else the first JDK >= 21 found at
# JAVA_HOME, then among /usr/lib/jvm/* (the newest there); else the first
# JDK >= 17 in that order, then the java on PATH. The program uses virtual
# threads on JDK >= 21 and platform threads before that, and says which in
# its output ("threading").
#
# JVM flags: none; the JVM's defaults (G1 on this machine's 2 cores and
# 24 GiB) are what a jjwt service would start with, and the scenario
# allocates little enough that heap sizing does not matter.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/target/xlang-jjwt.jar"
if [[ ! -f $jar ]]; then
	echo "run.sh: $jar is not built: run bench/xlang/java/build.sh" >&2
	exit 1
fi

# java_feature JAVA: the feature release (17, 21, 25, ...) of a java
# binary, from its JDK's release file when there is one (no JVM start),
# else from `java -version`; empty when it cannot tell.
java_feature() {
	local java=$1 home v
	home=$(dirname "$(dirname "$(readlink -f "$java")")")
	if [[ -f $home/release ]]; then
		v=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$home/release")
	fi
	if [[ -z ${v:-} ]]; then
		v=$("$java" -version 2>&1 | sed -n 's/.* version "\([^"]*\)".*/\1/p' | head -n 1)
	fi
	v=${v#1.} # 1.8.0_x -> 8
	v=${v%%[.+_-]*}
	[[ $v =~ ^[0-9]+$ ]] && echo "$v"
}

pick_java() {
	if [[ -n ${XLANG_JAVA_HOME:-} ]]; then
		echo "$XLANG_JAVA_HOME/bin/java"
		return
	fi
	local candidates=() c f best="" best_f=0 seen=" "
	[[ -n ${JAVA_HOME:-} ]] && candidates+=("$JAVA_HOME/bin/java")
	for c in /usr/lib/jvm/*/bin/java; do
		candidates+=("$c")
	done
	c=$(command -v java 2>/dev/null) && candidates+=("$c")
	# first choice: JAVA_HOME if >= 21, else the newest >= 21 under /usr/lib/jvm
	for c in "${candidates[@]}"; do
		[[ -x $c ]] || continue
		real=$(readlink -f "$c")
		[[ $seen == *" $real "* ]] && continue
		seen+="$real "
		f=$(java_feature "$c") || continue
		if [[ $c == "${JAVA_HOME:-/nonexistent}/bin/java" && $f -ge 21 ]]; then
			echo "$c"
			return
		fi
		if ((f >= 21 && f > best_f)); then
			best=$c best_f=$f
		fi
	done
	if [[ -n $best ]]; then
		echo "$best"
		return
	fi
	# else any JDK >= 17, in the same order
	for c in "${candidates[@]}"; do
		[[ -x $c ]] || continue
		f=$(java_feature "$c") || continue
		if ((f >= 17)); then
			echo "$c"
			return
		fi
	done
}

java=$(pick_java)
if [[ -z $java || ! -x $java ]]; then
	echo "missing toolchain: a Java runtime >= 17 (JAVA_HOME, /usr/lib/jvm/*, or java on PATH)" >&2
	exit 3
fi
exec "$java" -jar "$jar" "$@"
