#!/usr/bin/env bash
# Builds the Java side of bench/xlang (see ../README.md): jjwt 0.12 and its
# Jackson binding, pinned in pom.xml, from Maven Central, into one runnable jar,
# target/xlang-jjwt.jar. Compiled with --release 17: the jar runs on any JDK
# >= 17 (run.sh prefers one >= 21, for virtual threads).
#
# Exit 3 with "missing toolchain: ..." when mvn or a JDK >= 17 is missing;
# exit 1 on any other failure. Quick when nothing changed: Maven runs only
# when pom.xml or a source is newer than the jar.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

missing() {
	echo "missing toolchain: $*" >&2
	exit 3
}

command -v mvn >/dev/null 2>&1 || missing "mvn (Apache Maven 3.6.3 or later)"

# The JDK Maven will compile with (JAVA_HOME, else the java on PATH).
mvn_info=$(mvn -v 2>&1) || missing "a working mvn (mvn -v failed: $(echo "$mvn_info" | head -n 1))"
java_home=$(sed -n 's/.*runtime: \(.*\)$/\1/p' <<<"$mvn_info" | head -n 1)
java_version=$(sed -n 's/^Java version: \([^,]*\),.*/\1/p' <<<"$mvn_info" | head -n 1)
java_feature=${java_version%%[.+-]*}
if [[ ! $java_feature =~ ^[0-9]+$ ]] || ((java_feature < 17)); then
	missing "a JDK >= 17 for Maven (it uses Java ${java_version:-unknown}${java_home:+ at $java_home}; set JAVA_HOME)"
fi
if [[ -n $java_home && ! -x $java_home/bin/javac ]]; then
	missing "javac (Maven's Java $java_version at $java_home is a JRE, not a JDK)"
fi

jar=target/xlang-jjwt.jar
if [[ -f $jar && -z $(find pom.xml src -newer "$jar" -print -quit) ]]; then
	exit 0
fi

if ! mvn -q -B -Dstyle.color=never package; then
	echo "build.sh: mvn package failed" >&2
	exit 1
fi
[[ -f $jar ]] || {
	echo "build.sh: mvn package made no $jar" >&2
	exit 1
}
touch "$jar"
