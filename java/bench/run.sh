#!/usr/bin/env bash
# JMH benchmarks of the Parcrypt provider against SunJCE/SunRsaSign/SunEC,
# BouncyCastle and ACCP, in one run, plus the JCE paper's Tables 3-5 from Java.
#
#   java/bench/run.sh [--quick|--full|--smoke] [OUT_DIR]
#
# --quick (default): few iterations, about 3 minutes on 2 cores; --full: the
# numbers for the docs (about 15 minutes on 2 cores); --smoke: builds
# everything and runs one tiny iteration of one benchmark (for CI).
# Writes OUT_DIR/results.md (the tables), OUT_DIR/results.json (every
# benchmark's median, p90 and mean) and OUT_DIR/jmh-*.json (JMH's own output).
# OUT_DIR defaults to java/bench/target/results. Needs Java 17+, Maven, cargo
# (the provider is built first if java/target/parcrypt-jca.jar is missing)
# and python3 for the tables.
set -euo pipefail

mode=quick
out=
for arg in "$@"; do
  case "$arg" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --smoke) mode=smoke ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $arg" >&2; echo "hint: --quick, --full or --smoke" >&2; exit 2 ;;
    *) out=$arg ;;
  esac
done

bench_dir=$(cd "$(dirname "$0")" && pwd)
java_dir=$(dirname "$bench_dir")
out=${out:-$bench_dir/target/results}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ ! -f "$java_dir/target/parcrypt-jca.jar" ]; then
  echo "run.sh: building the provider (mvn package in java/)" >&2
  (cd "$java_dir" && mvn -q -B package -DskipTests)
fi
(cd "$bench_dir" && mvn -q -B package)
# A copy of the provider, so that a rebuild of java/ during the run cannot
# change the jar under the forked JVMs.
cp "$java_dir/target/parcrypt-jca.jar" "$bench_dir/target/parcrypt-jca.jar"
cp="$bench_dir/target/classes:$(cat "$bench_dir/target/classpath.txt"):$bench_dir/target/parcrypt-jca.jar"

case "$mode" in
  smoke)
    # One shot of the cheapest benchmark: proves the module builds, the
    # providers load and JMH's generated code runs.
    java -cp "$cp" org.openjdk.jmh.Main 'AesGcmBench.encrypt' -p size=1024 -p provider=Parcrypt,ACCP \
      -f 1 -wi 0 -i 1 -r 200ms -foe true -rf json -rff "$out/jmh-smoke.json"
    exit 0 ;;
  quick)
    shots=(-wi 2 -i 10)                           # key generation: shots per trial
    timed=(-wi 1 -w 500ms -i 2 -r 500ms) ;;       # everything else
  full)
    shots=(-wi 5 -i 60)
    timed=(-wi 2 -w 2s -i 5 -r 2s) ;;
esac

jmh() { # name, JMH arguments...
  local name=$1
  shift
  echo "== $name" >&2
  java -cp "$cp" org.openjdk.jmh.Main "$@" -f 1 -rf json -rff "$out/jmh-$name.json"
}

all=Parcrypt,ACCP,JDK,BC
paper=Parcrypt-seq,Parcrypt-static2,Parcrypt-steal2,JDK
# The issue's comparisons.
jmh keygen 'RsaKeyGenBench' -p bits=2048,3072 -p provider=$all "${shots[@]}"
jmh aes 'AesGcmBench' -p size=1024,67108864 -p provider=$all "${timed[@]}"
jmh ecdsa 'EcdsaBench\.(sign|verify|verifyLoop)$' -p provider=$all "${timed[@]}"
jmh ecdsa-batch 'EcdsaBench\.verifyBatch$' -p provider=Parcrypt "${timed[@]}"
jmh rsa-sign 'RsaSignBench' -p bits=2048 -p provider=$all "${timed[@]}"
# The JCE paper's Tables 3-5: the provider at 1 thread (its sequential
# baseline) and at 2 threads (the paper's cores), and the JDK's providers.
jmh paper-keygen 'RsaKeyGenBench' -p bits=1024 -p provider=$paper "${shots[@]}"
jmh paper-sign 'RsaSignBench' -p bits=2048 -p provider=$paper "${timed[@]}"
jmh paper-verify 'EcdsaBench\.(verify|verifyBatch)$' -p provider=Parcrypt-seq,Parcrypt-static2,Parcrypt-steal2 "${timed[@]}"

python3 "$bench_dir/report.py" "$out" "$mode"
echo "run.sh: wrote $out/results.md and $out/results.json" >&2
