#!/usr/bin/env python3
"""Cuts acvp.json.gz, the SLH-DSA vectors the tests run, out of NIST's ACVP
vectors for FIPS 205 (ACVP-Server v1.1.0.38, gen-val/json-files/SLH-DSA-*-FIPS205,
as github.com/cloudflare/circl v1.6.5 vendors them gzipped under
sign/slhdsa/testdata/).

    cd /tmp && mkdir circl && cd circl && go mod init x
    go mod download -json github.com/cloudflare/circl@v1.6.5   # prints "Dir"
    python3 subset.py DIR/sign/slhdsa/testdata

The whole set is 38 MB compressed (every sigVer case carries a signature of
up to 49,856 bytes); the subset keeps every group of every file (12
parameter sets x internal/external x pure/prehash x deterministic/hedged),
a few cases of each, and every prehash hash in every external group
pairing:

- keyGen: every case (seeds and expected keys are small).
- sigGen: the two shortest-message cases of each pure and internal group,
  three of each prehash group (rotating, so every hash is signed by every
  parameter set family); the expected signature is stored as its SHA-256
  (`signatureSha256`): the full signatures are 18 MB compressed.
- sigVer: in each group the shortest-message passing case and the
  shortest-message failing case (with its signature: verification needs it).

Each case keeps NIST's field names and hex, joined with its expected result,
and its tgId/tcId.
"""
import gzip, hashlib, json, sys, os

src = sys.argv[1]
def load(name):
    with gzip.open(os.path.join(src, name + ".json.gz")) as f:
        return json.load(f)

def results(name):
    return {(g["tgId"], t["tcId"]): t for g in load(name)["testGroups"] for t in g["tests"]}

out = {"source": "NIST ACVP-Server v1.1.0.38 FIPS 205 vectors via github.com/cloudflare/circl@v1.6.5 sign/slhdsa/testdata (subset.py)"}

kg = results("keyGen_results")
out["keyGen"] = [
    dict(tgId=g["tgId"], tcId=t["tcId"], parameterSet=g["parameterSet"], skSeed=t["skSeed"], skPrf=t["skPrf"],
         pkSeed=t["pkSeed"], sk=kg[(g["tgId"], t["tcId"])]["sk"], pk=kg[(g["tgId"], t["tcId"])]["pk"])
    for g in load("keyGen_prompt")["testGroups"] for t in g["tests"]]

sg = results("sigGen_results")
cases = []
rot = 0
for g in load("sigGen_prompt")["testGroups"]:
    tests = sorted(g["tests"], key=lambda t: (len(t["message"]), t["tcId"]))
    if g.get("preHash") == "preHash":
        by_tc = sorted(g["tests"], key=lambda t: t["tcId"])
        pick = [by_tc[(rot + i) % len(by_tc)] for i in range(3)]
        rot += 3
    else:
        pick = tests[:2]
    for t in sorted(pick, key=lambda t: t["tcId"]):
        sig = bytes.fromhex(sg[(g["tgId"], t["tcId"])]["signature"])
        case = dict(tgId=g["tgId"], tcId=t["tcId"], parameterSet=g["parameterSet"],
                    signatureInterface=g["signatureInterface"], preHash=g.get("preHash"),
                    deterministic=g["deterministic"], sk=t["sk"], message=t["message"])
        for k in ("context", "hashAlg", "additionalRandomness"):
            if k in t:
                case[k] = t[k]
        case["signatureSha256"] = hashlib.sha256(sig).hexdigest()
        cases.append(case)
out["sigGen"] = cases

vr = results("verify_results")
cases = []
for g in load("verify_prompt")["testGroups"]:
    tests = sorted(g["tests"], key=lambda t: (len(t["message"]), t["tcId"]))
    for want in (True, False):
        t = next(t for t in tests if vr[(g["tgId"], t["tcId"])]["testPassed"] == want)
        case = dict(tgId=g["tgId"], tcId=t["tcId"], parameterSet=g["parameterSet"],
                    signatureInterface=g["signatureInterface"], preHash=g.get("preHash"),
                    pk=t["pk"], message=t["message"], signature=t["signature"], testPassed=want)
        for k in ("context", "hashAlg"):
            if k in t:
                case[k] = t[k]
        cases.append(case)
out["sigVer"] = cases

with gzip.GzipFile("acvp.json.gz", "wb", mtime=0, compresslevel=9) as f:
    f.write(json.dumps(out, indent=0).encode())
print({k: len(v) for k, v in out.items() if isinstance(v, list)}, os.path.getsize("acvp.json.gz"), "bytes")
