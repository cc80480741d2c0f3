#!/usr/bin/env bash
# One ML-DSA-44/65/87 keygen / sign / verify and one ML-KEM-512/768/1024
# keygen / encapsulate / decapsulate through the Parcrypt provider against
# the JDK 25's SUN / SunJCE, paired in one JVM (PqVsJdk.java says how).
#
#   java/bench/pq/run.sh [ROUNDS [CALLS]]      # defaults 31 rounds x 40 calls, under a minute
#
# Builds the provider first (mvn package in java/: the release native
# library, the KEM service compiled with the JDK 25), then prints the
# machine (lscpu's model, cores, load average) and the table. The JDK 25
# is $PARCRYPT_JDK25, else the first JDK 25 under /usr/lib/jvm (as .ci/run
# finds it). PARCRYPT_PQ_NO_BUILD=1 skips the build and uses
# java/target/parcrypt-jca.jar as it is.
set -euo pipefail

pq_dir=$(cd "$(dirname "$0")" && pwd)
java_dir=$(cd "$pq_dir/../.." && pwd)

case "${1:-}" in
  -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
  -*) echo "run.sh: unknown option $1" >&2; echo "hint: run.sh [ROUNDS [CALLS]]" >&2; exit 2 ;;
esac

jdk25=${PARCRYPT_JDK25:-}
if [ -z "$jdk25" ]; then
  for d in /usr/lib/jvm/*25*; do
    if [ -x "$d/bin/javac" ] && "$d/bin/java" -version 2>&1 | grep -q 'version "25'; then jdk25=$d; break; fi
  done
fi
if [ -z "$jdk25" ]; then
  echo "run.sh: no JDK 25 found: set PARCRYPT_JDK25 to one (its SUN / SunJCE are the peers)" >&2
  exit 2
fi

if [ "${PARCRYPT_PQ_NO_BUILD:-0}" != 1 ]; then
  echo "run.sh: building the provider (mvn package in java/, release native library)" >&2
  (cd "$java_dir" && mvn -q -B -Dparcrypt.jdk25="$jdk25" package -DskipTests)
fi
jar=$java_dir/target/parcrypt-jca.jar
[ -f "$jar" ] || { echo "run.sh: $jar is missing (run without PARCRYPT_PQ_NO_BUILD)" >&2; exit 2; }

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); commit: $(git -C "$java_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)"
cpu() { lscpu 2>/dev/null | sed -n "s/^$1: *//p" | head -1; }
simd=$(grep -m1 -o -w -E 'avx2|avx512f|avx512ifma' /proc/cpuinfo 2>/dev/null | sort -u | tr '\n' ' ' | sed 's/ $//')
echo "lscpu: $(cpu 'Model name'), family $(cpu 'CPU family') model $(cpu 'Model'); ${simd:-no AVX2/AVX-512 flags}; $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$jdk25/bin/java" --enable-native-access=ALL-UNNAMED -cp "$jar" "$pq_dir/PqVsJdk.java" "$@"
