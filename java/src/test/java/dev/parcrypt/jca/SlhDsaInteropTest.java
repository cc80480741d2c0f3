package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jcajce.spec.SLHDSAParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SLH-DSA against what others write and check: NIST's ACVP vectors (the
 * library's tests/data), OpenSSL 3.5's keys and signature (files under the
 * library's tests/data, and live through Node.js 26's OpenSSL 3.5.8 when
 * {@code PARCRYPT_NODE_OPENSSL35} names it), and Bouncy Castle 1.87, both ways.
 */
class SlhDsaInteropTest {
    static final BouncyCastleProvider BC = new BouncyCastleProvider();
    static final byte[] MSG = "signed by parcrypt and bc".getBytes(StandardCharsets.UTF_8);
    static final byte[] CTX = "interop".getBytes(StandardCharsets.UTF_8);

    static Path data() {
        return TestSupport.repo().resolve("crates/parcrypt/tests/data/slhdsa");
    }

    static JsonNode acvp() throws Exception {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(data().resolve("acvp.json.gz")))) {
            return new ObjectMapper().readTree(in);
        }
    }

    static PqKeys.Set set(String name) {
        return PqKeys.byName(name);
    }

    /** RFC 9909 SPKI of a raw public key. */
    static byte[] spki(PqKeys.Set set, byte[] raw) {
        byte[] bits = new byte[raw.length + 1];
        System.arraycopy(raw, 0, bits, 1, raw.length);
        byte[] alg = TestSupport.concat(new byte[] {0x30, 0x0b, 0x06, 0x09}, set.oidBytes);
        byte[] bitString = TestSupport.concat(header(0x03, bits.length), bits);
        byte[] body = TestSupport.concat(alg, bitString);
        return TestSupport.concat(header(0x30, body.length), body);
    }

    /** RFC 9909 PKCS#8 of a raw private key (the OCTET STRING holds it directly). */
    static byte[] pkcs8(PqKeys.Set set, byte[] raw) {
        return Der.pkcs8(set.oidBytes, raw);
    }

    static byte[] header(int tag, int len) {
        if (len < 0x80) {
            return new byte[] {(byte) tag, (byte) len};
        }
        return len < 0x100 ? new byte[] {(byte) tag, (byte) 0x81, (byte) len}
                : new byte[] {(byte) tag, (byte) 0x82, (byte) (len >> 8), (byte) len};
    }

    @Test
    void deterministicSignaturesEqualNistsVectors() throws Exception {
        int checked = 0;
        for (JsonNode t : acvp().get("sigGen")) {
            String name = t.get("parameterSet").asText();
            // External (pure) interface, deterministic; two fast sets (the library's tests check all of
            // them; the others sign for seconds to minutes in a debug build).
            if (!t.get("deterministic").asBoolean() || !"external".equals(t.get("signatureInterface").asText())
                    || !"pure".equals(t.get("preHash").asText()) || !List.of("SLH-DSA-SHA2-128f", "SLH-DSA-SHA2-192f").contains(name)) {
                continue;
            }
            PqKeys.Set set = set(name);
            PrivateKey key = KeyFactory.getInstance("SLH-DSA", PARCRYPT)
                    .generatePrivate(new PKCS8EncodedKeySpec(pkcs8(set, TestSupport.unhex(t.get("sk").asText()))));
            Signature s = Signature.getInstance(set.name, PARCRYPT);
            s.initSign(key);
            s.setParameter(new dev.parcrypt.jca.ContextParameterSpec(TestSupport.unhex(t.get("context").asText()), true));
            s.update(TestSupport.unhex(t.get("message").asText()));
            byte[] sig = s.sign();
            assertEquals(t.get("signatureSha256").asText(),
                    TestSupport.hex(MessageDigest.getInstance("SHA-256").digest(sig)), name + " tcId " + t.get("tcId"));
            checked++;
        }
        assertEquals(4, checked);
    }

    @Test
    void verificationAgreesWithNistsVectorsOnEverySet() throws Exception {
        int checked = 0;
        List<String> sets = new ArrayList<>();
        for (JsonNode t : acvp().get("sigVer")) {
            if (!"external".equals(t.get("signatureInterface").asText()) || !"pure".equals(t.get("preHash").asText())) {
                continue;
            }
            PqKeys.Set set = set(t.get("parameterSet").asText());
            PublicKey key = KeyFactory.getInstance("SLH-DSA", PARCRYPT)
                    .generatePublic(new X509EncodedKeySpec(spki(set, TestSupport.unhex(t.get("pk").asText()))));
            Signature s = Signature.getInstance("SLH-DSA", PARCRYPT);
            s.initVerify(key);
            s.setParameter(new dev.parcrypt.jca.ContextParameterSpec(TestSupport.unhex(t.get("context").asText())));
            s.update(TestSupport.unhex(t.get("message").asText()));
            boolean ok;
            try {
                ok = s.verify(TestSupport.unhex(t.get("signature").asText()));
            } catch (SignatureException e) {
                ok = false; // a signature of the wrong length
            }
            assertEquals(t.get("testPassed").asBoolean(), ok, set.name + " tcId " + t.get("tcId"));
            if (!sets.contains(set.name)) {
                sets.add(set.name);
            }
            checked++;
        }
        assertEquals(12, sets.size(), sets.toString());
        assertTrue(checked >= 24);
    }

    /** PEM blocks of a file: the DER of each "-----BEGIN label-----" in order. */
    static List<byte[]> pem(String text) {
        List<byte[]> out = new ArrayList<>();
        for (String block : text.split("-----BEGIN [A-Z ]+-----")) {
            int end = block.indexOf("-----END");
            if (end > 0) {
                out.add(Base64.getMimeDecoder().decode(block.substring(0, end)));
            }
        }
        return out;
    }

    @Test
    void openSsl35KeysOfEverySetAreReadAndWrittenBackByteForByte() throws Exception {
        int sets = 0;
        for (PqKeys.Set set : PqKeys.ALL) {
            if (set.kind != PqKeys.Kind.SLH_DSA) {
                continue;
            }
            // The files are named as OpenSSL spells the sets (SLH-DSA-SHA2-128s).
            String file = set.name.substring(0, set.name.length() - 1) + set.name.substring(set.name.length() - 1).toLowerCase();
            List<byte[]> blocks = pem(Files.readString(data().resolve("openssl35").resolve(file + ".pem")));
            KeyFactory kf = KeyFactory.getInstance(set.name, PARCRYPT);
            PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(blocks.get(1)));
            assertArrayEquals(blocks.get(1), pub.getEncoded(), set.name);
            // Reading a private key rebuilds its top tree (to check PK.root): the SHA2 f sets only, quick
            // in a debug build (the library's tests read all twelve).
            if (set.name.startsWith("SLH-DSA-SHA2") && set.name.endsWith("F")) {
                PrivateKey priv = kf.generatePrivate(new PKCS8EncodedKeySpec(blocks.get(0)));
                assertArrayEquals(blocks.get(0), priv.getEncoded(), set.name);
                assertArrayEquals(blocks.get(1), ((PqKeys.Private) priv).publicKey().getEncoded(), set.name);
            }
            sets++;
        }
        assertEquals(12, sets);
        // OpenSSL's hedged signature with the context "parcrypt".
        List<byte[]> blocks = pem(Files.readString(data().resolve("openssl35/SLH-DSA-SHA2-128s.pem")));
        PublicKey pub = KeyFactory.getInstance("SLH-DSA", PARCRYPT).generatePublic(new X509EncodedKeySpec(blocks.get(1)));
        Signature s = Signature.getInstance("SLH-DSA-SHA2-128S", PARCRYPT);
        s.initVerify(pub);
        s.setParameter(new dev.parcrypt.jca.ContextParameterSpec("parcrypt".getBytes(StandardCharsets.UTF_8)));
        s.update("signed by OpenSSL 3.5.8".getBytes(StandardCharsets.UTF_8));
        assertTrue(s.verify(Files.readAllBytes(data().resolve("openssl35/SLH-DSA-SHA2-128s.sig"))));
    }

    /** The names of this JVM's parcrypt pool workers ({@code parcrypt-N-i}: N helpers), from /proc. */
    static List<String> poolWorkers() throws Exception {
        List<String> names = new ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    if (comm.startsWith("parcrypt-")) {
                        names.add(comm);
                    }
                } catch (java.io.IOException gone) {
                    // A thread that ended meanwhile.
                }
            }
        }
        return names;
    }

    /**
     * A private key read by the KeyFactory (or given to initSign from another provider) has its top tree
     * rebuilt on the provider's threads: the same key on 1 thread or on 11; with 11 the read starts the
     * pool of 10 helpers ({@code parcrypt-10-i}), and initSign on a 13-thread provider given Bouncy
     * Castle's key the pool of 12 (on Linux, where /proc names them).
     */
    @Test
    void privateKeysAreReadOnTheProvidersThreads() throws Exception {
        List<byte[]> blocks = pem(Files.readString(data().resolve("openssl35/SLH-DSA-SHA2-128s.pem")));
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(blocks.get(0));
        PrivateKey one = KeyFactory.getInstance("SLH-DSA", new ParcryptProvider(1, "steal")).generatePrivate(spec);
        PrivateKey eleven = KeyFactory.getInstance("SLH-DSA", new ParcryptProvider(11, "steal")).generatePrivate(spec);
        assertArrayEquals(one.getEncoded(), eleven.getEncoded());
        assertArrayEquals(blocks.get(1), ((PqKeys.Private) one).publicKey().getEncoded());
        assertArrayEquals(blocks.get(1), ((PqKeys.Private) eleven).publicKey().getEncoded());
        PrivateKey foreign = KeyFactory.getInstance("SLH-DSA", BC).generatePrivate(spec);
        Signature s = Signature.getInstance("SLH-DSA", new ParcryptProvider(13, "steal"));
        s.initSign(foreign);
        if (Files.isDirectory(Path.of("/proc/self/task"))) {
            List<String> workers = poolWorkers();
            assertTrue(workers.stream().anyMatch(w -> w.startsWith("parcrypt-10-")), workers.toString());
            assertTrue(workers.stream().anyMatch(w -> w.startsWith("parcrypt-12-")), workers.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"SLH-DSA-SHA2-128F", "SLH-DSA-SHA2-192F"})
    void bouncyCastleKeysAndSignaturesCrossBothWays(String name) throws Exception {
        // Bouncy Castle's key, signature and context spec -> Parcrypt.
        KeyPairGenerator bcGen = KeyPairGenerator.getInstance("SLH-DSA", BC);
        bcGen.initialize(SLHDSAParameterSpec.fromName(name));
        KeyPair bc = bcGen.generateKeyPair();
        KeyFactory kf = KeyFactory.getInstance("SLH-DSA", PARCRYPT);
        PublicKey bcPub = kf.generatePublic(new X509EncodedKeySpec(bc.getPublic().getEncoded()));
        PrivateKey bcPriv = kf.generatePrivate(new PKCS8EncodedKeySpec(bc.getPrivate().getEncoded()));
        assertEquals(name, ((PqKeys.Public) bcPub).getParams().getName());
        Signature bcSig = Signature.getInstance("SLH-DSA", BC);
        bcSig.initSign(bc.getPrivate());
        bcSig.setParameter(new ContextParameterSpec(CTX));
        bcSig.update(MSG);
        byte[] sigByBc = bcSig.sign();
        Signature ours = Signature.getInstance("SLH-DSA", PARCRYPT);
        ours.initVerify(bc.getPublic()); // BC's key object itself
        ours.setParameter(new ContextParameterSpec(CTX)); // BC's spec, taken too
        ours.update(MSG);
        assertTrue(ours.verify(sigByBc));
        // Parcrypt signs with the key read from BC's PKCS#8 -> BC verifies; a wrong context fails there.
        Signature mine = Signature.getInstance(name, PARCRYPT);
        mine.initSign(bcPriv);
        mine.setParameter(new dev.parcrypt.jca.ContextParameterSpec(CTX));
        mine.update(MSG);
        byte[] sigByUs = mine.sign();
        bcSig.initVerify(bc.getPublic());
        bcSig.setParameter(new ContextParameterSpec(CTX));
        bcSig.update(MSG);
        assertTrue(bcSig.verify(sigByUs));
        bcSig.initVerify(bc.getPublic());
        bcSig.setParameter(new ContextParameterSpec(new byte[0]));
        bcSig.update(MSG);
        assertFalse(bcSig.verify(sigByUs));
        // Parcrypt's keys -> Bouncy Castle's KeyFactory, signature checked there.
        KeyPairGenerator g = KeyPairGenerator.getInstance("SLH-DSA", PARCRYPT);
        g.initialize(new NamedParameterSpec(name));
        KeyPair kp = g.generateKeyPair();
        KeyFactory bcKf = KeyFactory.getInstance("SLH-DSA", BC);
        PublicKey inBc = bcKf.generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        PrivateKey privInBc = bcKf.generatePrivate(new PKCS8EncodedKeySpec(kp.getPrivate().getEncoded()));
        assertArrayEquals(kp.getPrivate().getEncoded(), privInBc.getEncoded());
        mine.initSign(kp.getPrivate());
        mine.setParameter(null);
        mine.update(MSG);
        byte[] sig = mine.sign();
        bcSig.initVerify(inBc);
        bcSig.setParameter(new ContextParameterSpec(new byte[0]));
        bcSig.update(MSG);
        assertTrue(bcSig.verify(sig));
        // BC's parameter spec for our generator.
        KeyPairGenerator g2 = KeyPairGenerator.getInstance("SLH-DSA", PARCRYPT);
        g2.initialize(SLHDSAParameterSpec.fromName(name));
        assertEquals(name, ((PqKeys.Public) g2.generateKeyPair().getPublic()).getParams().getName());
    }

    /** The Node.js 26 whose OpenSSL 3.5.8 signs SLH-DSA; null (a skip) unless the tools are required. */
    static Path node() {
        String p = System.getenv("PARCRYPT_NODE_OPENSSL35");
        if (p != null && Files.isExecutable(Path.of(p))) {
            return Path.of(p);
        }
        if (TestSupport.requireTools()) {
            throw new AssertionError("PARCRYPT_NODE_OPENSSL35 must name a Node.js with OpenSSL 3.5 (PARCRYPT_REQUIRE_TOOLS=1)");
        }
        return null;
    }

    static String run(Path node, Path dir, String script) throws Exception {
        Process p = new ProcessBuilder(node.toString(), "-e", script).directory(dir.toFile())
                .redirectError(dir.resolve("err").toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), () -> {
            try {
                return Files.readString(dir.resolve("err"));
            } catch (java.io.IOException e) {
                return e.toString();
            }
        });
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void liveOpenSsl35KeysAndSignaturesCrossBothWays() throws Exception {
        Path node = node();
        org.junit.jupiter.api.Assumptions.assumeTrue(node != null, "PARCRYPT_NODE_OPENSSL35 is not set");
        Path dir = Files.createTempDirectory("parcrypt-slh-node");
        // OpenSSL makes a key and signs with a context -> Parcrypt reads and verifies.
        run(node, dir, "const c = require('crypto'), fs = require('fs');"
                + "const { privateKey, publicKey } = c.generateKeyPairSync('slh-dsa-shake-128f');"
                + "fs.writeFileSync('k.der', privateKey.export({ type: 'pkcs8', format: 'der' }));"
                + "fs.writeFileSync('p.der', publicKey.export({ type: 'spki', format: 'der' }));"
                + "fs.writeFileSync('s', c.sign(null, Buffer.from('from openssl'), { key: privateKey, context: Buffer.from('ctx') }));");
        KeyFactory kf = KeyFactory.getInstance("SLH-DSA", PARCRYPT);
        PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(Files.readAllBytes(dir.resolve("p.der"))));
        PrivateKey priv = kf.generatePrivate(new PKCS8EncodedKeySpec(Files.readAllBytes(dir.resolve("k.der"))));
        assertArrayEquals(Files.readAllBytes(dir.resolve("k.der")), priv.getEncoded());
        Signature s = Signature.getInstance("SLH-DSA-SHAKE-128F", PARCRYPT);
        s.initVerify(pub);
        s.setParameter(new dev.parcrypt.jca.ContextParameterSpec("ctx".getBytes(StandardCharsets.UTF_8)));
        s.update("from openssl".getBytes(StandardCharsets.UTF_8));
        assertTrue(s.verify(Files.readAllBytes(dir.resolve("s"))));
        // Parcrypt makes a key and signs -> OpenSSL reads both keys and verifies (and refuses another context).
        KeyPair kp = KeyPairGenerator.getInstance("SLH-DSA-SHA2-128F", PARCRYPT).generateKeyPair();
        s = Signature.getInstance("SLH-DSA", PARCRYPT);
        s.initSign(kp.getPrivate());
        s.setParameter(new dev.parcrypt.jca.ContextParameterSpec("ctx".getBytes(StandardCharsets.UTF_8)));
        s.update("from parcrypt".getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("s2"), s.sign());
        Files.write(dir.resolve("k2.der"), kp.getPrivate().getEncoded());
        Files.write(dir.resolve("p2.der"), kp.getPublic().getEncoded());
        String verdict = run(node, dir, "const c = require('crypto'), fs = require('fs');"
                + "const pub = c.createPublicKey({ key: fs.readFileSync('p2.der'), format: 'der', type: 'spki' });"
                + "const priv = c.createPrivateKey({ key: fs.readFileSync('k2.der'), format: 'der', type: 'pkcs8' });"
                + "const same = c.createPublicKey(priv).export({ type: 'spki', format: 'der' }).equals(fs.readFileSync('p2.der'));"
                + "const m = Buffer.from('from parcrypt'), sig = fs.readFileSync('s2');"
                + "console.log(same, c.verify(null, m, { key: pub, context: Buffer.from('ctx') }, sig),"
                + " c.verify(null, m, { key: pub, context: Buffer.from('other') }, sig));");
        assertEquals("true true false", verdict.trim());
        for (String f : new String[] {"k.der", "p.der", "s", "s2", "k2.der", "p2.der", "err"}) {
            Files.deleteIfExists(dir.resolve(f));
        }
        Files.delete(dir);
    }

    @Test
    void aSignatureOfAnotherSetIsRefused() throws Exception {
        KeyPair a = PqTest.generate("SLH-DSA-SHA2-128F");
        byte[] sig = PqTest.sign("SLH-DSA", a.getPrivate(), MSG, null);
        // Same length, another set (SHAKE-128f): false.
        PublicKey shake = KeyFactory.getInstance("SLH-DSA", PARCRYPT).generatePublic(new X509EncodedKeySpec(
                pem(Files.readString(data().resolve("openssl35/SLH-DSA-SHAKE-128f.pem"))).get(1)));
        assertFalse(PqTest.verify("SLH-DSA", shake, MSG, sig, null));
        assertTrue(PqTest.verify("SLH-DSA", a.getPublic(), MSG, sig, null));
        PublicKey c = KeyFactory.getInstance("SLH-DSA", PARCRYPT).generatePublic(new X509EncodedKeySpec(
                pem(Files.readString(data().resolve("openssl35/SLH-DSA-SHA2-192f.pem"))).get(1)));
        assertThrows(SignatureException.class, () -> PqTest.verify("SLH-DSA", c, MSG, sig, null));
    }
}
