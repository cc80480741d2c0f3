#!/usr/bin/env python3
"""Turns the JMH JSON files run.sh wrote (OUT/jmh-*.json) into OUT/results.md
(the issue's comparisons and the JCE paper's Tables 3-5) and OUT/results.json
(one record per benchmark: median, p90, mean, unit).

    python3 report.py OUT_DIR [MODE]
"""
import json
import os
import platform
import subprocess
import sys

out, mode = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "?")

rows = []
for name in sorted(os.listdir(out)):
    if not (name.startswith("jmh-") and name.endswith(".json")):
        continue
    group = name[4:-5]
    with open(os.path.join(out, name)) as f:
        text = f.read().strip()
    for r in json.loads(text) if text else []:
        m = r["primaryMetric"]
        pct = m.get("scorePercentiles", {})
        rows.append({
            "group": group,
            "benchmark": r["benchmark"].rsplit(".", 2)[-2] + "." + r["benchmark"].rsplit(".", 1)[-1],
            "mode": r["mode"],
            "params": r.get("params", {}),
            "unit": m["scoreUnit"],
            "mean": m["score"],
            "median": pct.get("50.0", m["score"]),
            "p90": pct.get("90.0", m["score"]),
            "samples": sum(len(x) for x in m.get("rawData", [])) or None,
        })

with open(os.path.join(out, "results.json"), "w") as f:
    json.dump(rows, f, indent=1)


def find(group, bench, **params):
    for r in rows:
        if r["group"] == group and r["benchmark"] == bench and all(
            r["params"].get(k) == str(v) for k, v in params.items()
        ):
            return r
    return None


def to_ms(r, key):
    scale = {"ms/op": 1.0, "us/op": 1e-3, "s/op": 1e3, "ns/op": 1e-6}[r["unit"]]
    return r[key] * scale


def t(ms):
    if ms is None:
        return "—"
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 1:
        return f"{ms:.1f} ms"
    return f"{ms * 1000:.1f} µs"


def cell(r, p90=True, key="median"):
    if r is None:
        return "— (no result)"
    s = t(to_ms(r, key))
    return s + (f" (p90 {t(to_ms(r, 'p90'))})" if p90 else "")


def ratio(a, b, key="median"):
    if a is None or b is None:
        return None
    return to_ms(a, key) / to_ms(b, key)


def verdict(x, op, target):
    if x is None:
        return "not measured"
    ok = x <= target if op == "<=" else x >= target
    return ("met" if ok else "NOT met") + f" ({x:.2f}× vs {op} {target}×)"


PROVIDERS = ["Parcrypt", "ACCP", "JDK", "BC"]
lines = []
w = lines.append
cpu = "?"
try:
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        if line.startswith("Model name"):
            cpu = line.split(":", 1)[1].strip()
except OSError:
    pass
java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
w(f"# Parcrypt JCA provider benchmarks ({mode} mode)")
w("")
w(f"Machine: {cpu}, {os.cpu_count()} CPUs visible, {platform.system()} {platform.release()}; "
  f"{java[0] if java else 'java ?'}. JMH 1.37, one fork per trial. "
  "JDK = SunJCE (AES), SunRsaSign (RSA), SunEC (EC); BC = BouncyCastle; ACCP = Amazon Corretto Crypto Provider. "
  "Parcrypt = every core, work stealing. A shared or busy machine makes these numbers noisy: compare within one run.")
w("")

w("## RSA key generation (one key per shot; median, p90)")
w("")
w("| bits | " + " | ".join(PROVIDERS) + " | Parcrypt / ACCP median | Parcrypt / ACCP p90 | target ≤ 0.55× |")
w("|---|" + "---|" * (len(PROVIDERS) + 3))
for bits in (2048, 3072):
    rs = {p: find("keygen", "RsaKeyGenBench.generate", bits=bits, provider=p) for p in PROVIDERS}
    rm, rp = ratio(rs["Parcrypt"], rs["ACCP"]), ratio(rs["Parcrypt"], rs["ACCP"], "p90")
    ok = "—" if rm is None else ("met" if rm <= 0.55 and rp <= 0.55 else "NOT met")
    w(f"| {bits} | " + " | ".join(cell(rs[p]) for p in PROVIDERS)
      + f" | {'—' if rm is None else f'{rm:.2f}×'} | {'—' if rp is None else f'{rp:.2f}×'} | {ok} |")
w("")

w("## AES-256-GCM, one message (init with a fresh nonce + doFinal; mean time per message)")
w("")
w("| size | op | " + " | ".join(PROVIDERS) + " | Parcrypt vs ACCP | Parcrypt vs JDK | target |")
w("|---|---|" + "---|" * (len(PROVIDERS) + 3))
for size, label in ((67108864, "64 MiB"), (1024, "1 KiB")):
    for op in ("encrypt", "decrypt"):
        rs = {p: find("aes", "AesGcmBench." + op, size=size, provider=p) for p in PROVIDERS}

        def tp(r):
            if r is None:
                return "— (no result)"
            ms = to_ms(r, "mean")
            return f"{t(ms)} ({size / 2**20 / (ms / 1000):,.0f} MiB/s)"
        sa = ratio(rs["ACCP"], rs["Parcrypt"], "mean")
        sj = ratio(rs["JDK"], rs["Parcrypt"], "mean")
        if size == 1024:
            target = verdict(None if sa is None else 1 / sa, "<=", 1.3) + " (time / ACCP's)"
        else:
            target = verdict(sa, ">=", 1.8) + " vs ACCP; " + verdict(sj, ">=", 10) + " vs JDK"
        w(f"| {label} | {op} | " + " | ".join(tp(rs[p]) for p in PROVIDERS)
          + f" | {'—' if sa is None else f'{sa:.2f}× faster'} | {'—' if sj is None else f'{sj:.2f}× faster'} | {target} |")
w("")

w("## ECDSA P-256 (SHA256withECDSA)")
w("")
batch = find("ecdsa-batch", "EcdsaBench.verifyBatch", provider="Parcrypt")
w("| provider | sign (median, p90) | verify (median, p90) | 1,024 verifications: a loop of `Signature.verify` (mean) |")
w("|---|---|---|---|")
for p in PROVIDERS:
    w(f"| {p} | {cell(find('ecdsa', 'EcdsaBench.sign', provider=p))} | {cell(find('ecdsa', 'EcdsaBench.verify', provider=p))} "
      f"| {cell(find('ecdsa', 'EcdsaBench.verifyLoop', provider=p), p90=False, key='mean')} |")
w(f"| Parcrypt `verifyBatch` (1,024, every core) | | | {cell(batch, p90=False, key='mean')} |")
w("")
loop_accp = find("ecdsa", "EcdsaBench.verifyLoop", provider="ACCP")
w("- verifyBatch vs a loop of ACCP verifications: " + verdict(ratio(loop_accp, batch, "mean"), ">=", 1.8))
w("- single sign latency, Parcrypt / ACCP: "
  + verdict(ratio(find("ecdsa", "EcdsaBench.sign", provider="Parcrypt"), find("ecdsa", "EcdsaBench.sign", provider="ACCP")), "<=", 1.1))
w("- single verify latency, Parcrypt / ACCP: "
  + verdict(ratio(find("ecdsa", "EcdsaBench.verify", provider="Parcrypt"), find("ecdsa", "EcdsaBench.verify", provider="ACCP")), "<=", 1.1))
w("")

w("## RSA-2048 signature latency (SHA256withRSA)")
w("")
rs = {p: find("rsa-sign", "RsaSignBench.sign", bits=2048, provider=p) for p in PROVIDERS}
w("| " + " | ".join(PROVIDERS) + " | Parcrypt / ACCP | target ≤ 1.05× |")
w("|" + "---|" * (len(PROVIDERS) + 2))
r = ratio(rs["Parcrypt"], rs["ACCP"])
w("| " + " | ".join(cell(rs[p]) for p in PROVIDERS) + f" | {'—' if r is None else f'{r:.2f}×'} | {verdict(r, '<=', 1.05)} |")
w("")

w("## The JCE paper's Tables 3-5, from Java")
w("")
w("Sequential baseline = the provider at 1 thread (`new ParcryptProvider(1, \"seq\")`); ×2 = two threads "
  "(`static`: the paper's split, `steal`: work stealing). Speed-up = baseline median / median. "
  "The paper's speed-ups (two tasks on 2-core machines, IAIK JCE: P I Executors / P II ForkJoin) were "
  "1.35-1.41 (Table 3), 1.49-1.74 (Table 4), 1.67-1.78 (Table 5).")
w("")
w("| table | workload | seq ×1 | static ×2 | speed-up | steal ×2 | speed-up | JDK | paper P I / P II |")
w("|---|---|---|---|---|---|---|---|---|")


def paper_row(table, label, group, bench, jdk, paper, key="median", per=1, **params):
    seq = find(group, bench, provider="Parcrypt-seq", **params)
    st = find(group, bench, provider="Parcrypt-static2", **params)
    sl = find(group, bench, provider="Parcrypt-steal2", **params)

    def c(r):
        if r is None:
            return "—"
        s = t(to_ms(r, key) / per)
        return s + (f" (p90 {t(to_ms(r, 'p90') / per)})" if key == "median" else "")

    def s(r):
        x = ratio(seq, r, key)
        return "—" if x is None else f"{x:.2f}×"
    w(f"| {table} | {label} | {c(seq)} | {c(st)} | {s(st)} | {c(sl)} | {s(sl)} | {jdk} | {paper} |")


jdk_kg = find("paper-keygen", "RsaKeyGenBench.generate", bits=1024, provider="JDK")
paper_row("Table 3", "RSA-1024 key generation", "paper-keygen", "RsaKeyGenBench.generate",
          cell(jdk_kg), "1.39/1.35, 1.41/1.38, 1.40/1.37", bits=1024)
jdk_sg = find("paper-sign", "RsaSignBench.sign", bits=2048, provider="JDK")
paper_row("Table 4", "RSA-2048 private operation (SHA256withRSA sign)", "paper-sign", "RsaSignBench.sign",
          cell(jdk_sg), "1.65/1.65, 1.74/1.74, 1.49/1.62", bits=2048)
jdk_loop = find("ecdsa", "EcdsaBench.verifyLoop", provider="JDK")
jdk_per = "—" if jdk_loop is None else t(to_ms(jdk_loop, "mean") / 1024) + " (loop of 1,024)"
paper_row("Table 5", "ECDSA P-256 verification, per signature in a batch of 1,024 (`verifyBatch`)",
          "paper-verify", "EcdsaBench.verifyBatch", jdk_per, "1.67/1.67, 1.73/1.72, 1.76/1.78", key="mean", per=1024)
paper_row("Table 5", "ECDSA P-256 verification, one `Signature.verify` (always one thread)",
          "paper-verify", "EcdsaBench.verify", cell(find("ecdsa", "EcdsaBench.verify", provider="JDK")), "(as above)")
w("")
w("Each number is one trial of one run. Mean times (AES, batches) are JMH's average over its measurement "
  "iterations; medians and p90 come from JMH's samples (SampleTime) or shots (SingleShotTime).")

with open(os.path.join(out, "results.md"), "w") as f:
    f.write("\n".join(lines) + "\n")
