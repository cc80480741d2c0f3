// The OpenSSL 3.5 peer of `cargo run --release -p parcrypt --example
// slhdsa_bench -- --peer NODE`: one round of SLH-DSA timings through the
// OpenSSL inside a Node.js >= 24, in process, one core.
// Input (argv[1], JSON): {set, op: "keygen"|"sign"|"verify", count, len}.
// Output: one JSON line, {openssl, ms: [count wall-clock times],
// cpu: [their CPU times (user + system)]}, in milliseconds.
const c = require('crypto');
const { set, op, count, len } = JSON.parse(process.argv[1]);
const name = set.toLowerCase();
const msg = Buffer.alloc(len, 0x61);
const { privateKey, publicKey } = c.generateKeyPairSync(name);
const sig = c.sign(null, msg, privateKey);
const ops = {
  keygen: () => c.generateKeyPairSync(name),
  sign: () => c.sign(null, msg, privateKey),
  verify: () => {
    if (!c.verify(null, msg, publicKey, sig)) throw new Error('verify failed');
  },
};
const run = ops[op];
run(); // warm up
const ms = [];
const cpu = [];
for (let i = 0; i < count; i++) {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  run();
  ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  const d = process.cpuUsage(c);
  cpu.push((d.user + d.system) / 1e3);
}
console.log(JSON.stringify({ openssl: process.versions.openssl, ms, cpu }));
