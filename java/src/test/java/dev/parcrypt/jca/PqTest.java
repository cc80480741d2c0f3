package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.List;
import javax.security.auth.Destroyable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ML-DSA, SLH-DSA and ML-KEM in the provider on any Java (17 included):
 * names, keys and their encodings, signatures with contexts, hostile
 * input, batches on every strategy. Vectors: {@link SlhDsaInteropTest};
 * the JDK 25's providers: {@code Jdk25InteropTest}.
 */
class PqTest {
    static final byte[] MSG = "post-quantum message".getBytes(StandardCharsets.UTF_8);

    static String family(String set) {
        return set.startsWith("ML-DSA") ? "ML-DSA" : set.startsWith("ML-KEM") ? "ML-KEM" : "SLH-DSA";
    }

    static KeyPair generate(String set) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance(family(set), PARCRYPT);
        g.initialize(new NamedParameterSpec(set));
        return g.generateKeyPair();
    }

    static byte[] sign(String alg, PrivateKey key, byte[] msg, ContextParameterSpec spec) throws Exception {
        Signature s = Signature.getInstance(alg, PARCRYPT);
        s.initSign(key);
        s.setParameter(spec);
        s.update(msg);
        return s.sign();
    }

    static boolean verify(String alg, PublicKey key, byte[] msg, byte[] sig, ContextParameterSpec spec)
            throws Exception {
        Signature s = Signature.getInstance(alg, PARCRYPT);
        s.initVerify(key);
        s.setParameter(spec);
        s.update(msg);
        return s.verify(sig);
    }

    @Test
    void servicesAreRegisteredUnderTheJdkNames() {
        for (String type : List.of("KeyPairGenerator", "KeyFactory", "Signature")) {
            for (String name : List.of("ML-DSA", "ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "2.16.840.1.101.3.4.3.18",
                    "OID.2.16.840.1.101.3.4.3.19", "SLH-DSA", "SLH-DSA-SHA2-128S", "SLH-DSA-SHAKE-256F",
                    "SLH-DSA-SHA2-128s", "2.16.840.1.101.3.4.3.20", "2.16.840.1.101.3.4.3.31")) {
                assertNotNull(PARCRYPT.getService(type, name), type + "." + name);
            }
        }
        for (String type : List.of("KeyPairGenerator", "KeyFactory")) {
            for (String name : List.of("ML-KEM", "ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", "2.16.840.1.101.3.4.4.2")) {
                assertNotNull(PARCRYPT.getService(type, name), type + "." + name);
            }
        }
        assertNull(PARCRYPT.getService("Signature", "ML-KEM"));
        // The KEM service exists exactly on Java 21+ (17.0.11+ has a backported KEM API, but the
        // class is compiled for 21).
        boolean kemSpi = Runtime.version().feature() >= 21;
        assertEquals(kemSpi, PARCRYPT.getService("KEM", "ML-KEM") != null);
        assertEquals(kemSpi, PARCRYPT.getService("KEM", "ML-KEM-1024") != null);
    }

    @Test
    void keysLookLikeTheJdks() throws Exception {
        for (PqKeys.Set set : PqKeys.ALL) {
            if (set.kind == PqKeys.Kind.SLH_DSA && !set.name.startsWith("SLH-DSA-SHA2-") || set.name.endsWith("S")
                    || set.name.contains("256")) {
                continue; // slow in a debug build: every set's keys are read in SlhDsaInteropTest
            }
            KeyPair kp = generate(set.name);
            for (java.security.Key k : List.of(kp.getPublic(), kp.getPrivate())) {
                assertEquals(set.kind.name, k.getAlgorithm());
                NamedParameterSpec params = k instanceof PqKeys.Public
                        ? ((PqKeys.Public) k).getParams()
                        : ((PqKeys.Private) k).getParams();
                assertEquals(set.name, params.getName());
            }
            assertEquals("X.509", kp.getPublic().getFormat());
            assertEquals("PKCS#8", kp.getPrivate().getFormat());
            KeyFactory kf = KeyFactory.getInstance(set.name, PARCRYPT);
            PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
            PrivateKey priv = kf.generatePrivate(new PKCS8EncodedKeySpec(kp.getPrivate().getEncoded()));
            assertEquals(kp.getPublic(), pub);
            assertEquals(kp.getPrivate(), priv);
            assertArrayEquals(kp.getPublic().getEncoded(),
                    kf.getKeySpec(pub, X509EncodedKeySpec.class).getEncoded());
            assertArrayEquals(kp.getPrivate().getEncoded(),
                    kf.getKeySpec(priv, PKCS8EncodedKeySpec.class).getEncoded());
            assertEquals(pub, kf.translateKey(pub));
            assertTrue(kp.getPrivate().toString().contains("redacted"));
            // ML-DSA / ML-KEM: written in the seed form (32 / 64 bytes of seed), as OpenSSL 3.5 and pyca write it.
            int seed = set.kind == PqKeys.Kind.ML_DSA ? 32 : set.kind == PqKeys.Kind.ML_KEM ? 64 : -1;
            if (seed > 0) {
                assertEquals(18 + 4 + seed, kp.getPrivate().getEncoded().length, set.name);
            }
        }
    }

    @Test
    void wrongFamilyOrSetIsRefusedAsTheJdkRefusesIt() throws Exception {
        KeyPair k44 = generate("ML-DSA-44");
        KeyFactory kf65 = KeyFactory.getInstance("ML-DSA-65", PARCRYPT);
        assertThrows(InvalidKeySpecException.class,
                () -> kf65.generatePublic(new X509EncodedKeySpec(k44.getPublic().getEncoded())));
        assertThrows(InvalidKeySpecException.class,
                () -> kf65.generatePrivate(new PKCS8EncodedKeySpec(k44.getPrivate().getEncoded())));
        Signature s65 = Signature.getInstance("ML-DSA-65", PARCRYPT);
        assertThrows(InvalidKeyException.class, () -> s65.initVerify(k44.getPublic()));
        assertThrows(InvalidKeyException.class, () -> s65.initSign(k44.getPrivate()));
        Signature slh = Signature.getInstance("SLH-DSA", PARCRYPT);
        assertThrows(InvalidKeyException.class, () -> slh.initVerify(k44.getPublic()));
        KeyPair ec = KeyPairGenerator.getInstance("EC", PARCRYPT).generateKeyPair();
        assertThrows(InvalidKeyException.class, () -> Signature.getInstance("ML-DSA", PARCRYPT).initSign(ec.getPrivate()));
        assertThrows(InvalidKeySpecException.class, () -> KeyFactory.getInstance("ML-DSA", PARCRYPT)
                .generatePublic(new X509EncodedKeySpec(ec.getPublic().getEncoded())));
        KeyPairGenerator g = KeyPairGenerator.getInstance("ML-DSA-44", PARCRYPT);
        assertThrows(InvalidAlgorithmParameterException.class, () -> g.initialize(new NamedParameterSpec("ML-DSA-65")));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> KeyPairGenerator.getInstance("ML-DSA", PARCRYPT).initialize(new NamedParameterSpec("ML-KEM-768")));
        assertThrows(InvalidParameterException.class, () -> KeyPairGenerator.getInstance("ML-DSA", PARCRYPT).initialize(2048));
        assertEquals("ML-DSA-44", ((PqKeys.Public) g.generateKeyPair().getPublic()).getParams().getName());
        assertEquals("ML-DSA-65", ((PqKeys.Public) KeyPairGenerator.getInstance("ML-DSA", PARCRYPT)
                .generateKeyPair().getPublic()).getParams().getName());
        assertEquals("ML-KEM-768", ((PqKeys.Public) KeyPairGenerator.getInstance("ML-KEM", PARCRYPT)
                .generateKeyPair().getPublic()).getParams().getName());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "SLH-DSA-SHA2-128F"})
    void signaturesVerifyWithTheirContextOnly(String set) throws Exception {
        KeyPair kp = generate(set);
        ContextParameterSpec ctx = new ContextParameterSpec("ctx".getBytes(StandardCharsets.UTF_8));
        byte[] sig = sign(family(set), kp.getPrivate(), MSG, ctx);
        assertTrue(verify(family(set), kp.getPublic(), MSG, sig, ctx));
        assertTrue(verify(set, kp.getPublic(), MSG, sig, ctx));
        assertFalse(verify(family(set), kp.getPublic(), MSG, sig, null));
        assertFalse(verify(family(set), kp.getPublic(), MSG, sig, new ContextParameterSpec(new byte[3])));
        byte[] other = MSG.clone();
        other[0] ^= 1;
        assertFalse(verify(family(set), kp.getPublic(), other, sig, ctx));
        // Hostile signatures: a flipped bit is false, a wrong length a SignatureException (as the JDK's ML-DSA).
        for (int i : new int[] {0, sig.length / 2, sig.length - 1}) {
            byte[] bad = sig.clone();
            bad[i] ^= 0x40;
            assertFalse(verify(family(set), kp.getPublic(), MSG, bad, ctx));
        }
        for (byte[] bad : List.of(Arrays.copyOf(sig, sig.length - 1), Arrays.copyOf(sig, sig.length + 1), new byte[0])) {
            assertThrows(SignatureException.class, () -> verify(family(set), kp.getPublic(), MSG, bad, ctx));
        }
        // An empty message and update(byte) work.
        Signature s = Signature.getInstance(family(set), PARCRYPT);
        s.initSign(kp.getPrivate());
        s.update((byte) 7);
        byte[] one = s.sign();
        assertTrue(verify(family(set), kp.getPublic(), new byte[] {7}, one, null));
        assertTrue(verify(family(set), kp.getPublic(), new byte[0], sign(family(set), kp.getPrivate(), new byte[0], null), null));
    }

    @Test
    void contextsOverTheLimitAndDeterministicMlDsaAreRefused() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> new ContextParameterSpec(new byte[256]));
        Signature s = Signature.getInstance("ML-DSA", PARCRYPT);
        s.setParameter(new ContextParameterSpec(new byte[255]));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> s.setParameter(new ContextParameterSpec(new byte[0], true)));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> s.setParameter(new java.security.spec.ECGenParameterSpec("secp256r1")));
    }

    @Test
    void deterministicSlhDsaSignsTheSameBytesTwiceAndHedgedDoesNot() throws Exception {
        KeyPair kp = generate("SLH-DSA-SHA2-128F");
        ContextParameterSpec det = new ContextParameterSpec(new byte[] {1, 2}, true);
        byte[] a = sign("SLH-DSA", kp.getPrivate(), MSG, det);
        assertArrayEquals(a, sign("SLH-DSA-SHA2-128F", kp.getPrivate(), MSG, det));
        ContextParameterSpec hedged = new ContextParameterSpec(new byte[] {1, 2});
        assertFalse(Arrays.equals(sign("SLH-DSA", kp.getPrivate(), MSG, hedged), sign("SLH-DSA", kp.getPrivate(), MSG, hedged)));
        assertTrue(verify("SLH-DSA", kp.getPublic(), MSG, a, hedged));
    }

    @Test
    void hostileKeysAreRefusedWithTheJcaExceptions() throws Exception {
        for (String set : List.of("ML-DSA-65", "SLH-DSA-SHA2-128F", "ML-KEM-768")) {
            KeyPair kp = generate(set);
            KeyFactory kf = KeyFactory.getInstance(family(set), PARCRYPT);
            byte[] spki = kp.getPublic().getEncoded();
            byte[] pkcs8 = kp.getPrivate().getEncoded();
            for (byte[] bad : List.of(Arrays.copyOf(spki, spki.length - 1), Arrays.copyOf(spki, spki.length + 1),
                    Arrays.copyOf(spki, 20), new byte[0], new byte[] {0x30, 0})) {
                assertThrows(InvalidKeySpecException.class, () -> kf.generatePublic(new X509EncodedKeySpec(bad)), set);
            }
            for (byte[] bad : List.of(Arrays.copyOf(pkcs8, pkcs8.length - 1), Arrays.copyOf(pkcs8, pkcs8.length + 1),
                    Arrays.copyOf(pkcs8, 20), new byte[0], spki)) {
                assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new PKCS8EncodedKeySpec(bad)), set);
            }
            assertThrows(InvalidKeySpecException.class, () -> kf.generatePublic(new PKCS8EncodedKeySpec(pkcs8)));
        }
        // Every byte of an SLH-DSA private key counts: a flipped PK.root no longer matches the seeds.
        KeyPair kp = generate("SLH-DSA-SHA2-128F");
        byte[] der = kp.getPrivate().getEncoded();
        der[der.length - 1] ^= 1;
        assertThrows(InvalidKeySpecException.class,
                () -> KeyFactory.getInstance("SLH-DSA", PARCRYPT).generatePrivate(new PKCS8EncodedKeySpec(der)));
    }

    @Test
    void destroyWipesThePrivateKey() throws Exception {
        KeyPair kp = generate("ML-DSA-44");
        PrivateKey key = kp.getPrivate();
        assertTrue(key instanceof Destroyable);
        assertFalse(key.isDestroyed());
        key.destroy();
        assertTrue(key.isDestroyed());
        assertThrows(IllegalStateException.class, key::getEncoded);
        assertThrows(InvalidKeyException.class, () -> Signature.getInstance("ML-DSA", PARCRYPT).initSign(key));
    }

    @Test
    void aGeneratedPublicKeyOutlivesItsDestroyedPrivateKey() throws Exception {
        // The pair's public half shares the native public key (nothing parsed again)
        // and encodes lazily: it must still work, and encode as the KeyFactory
        // reads it, once the private key is gone.
        for (String set : List.of("ML-DSA-65", "ML-KEM-768", "SLH-DSA-SHAKE-128F")) {
            KeyPair kp = generate(set);
            byte[] sig = set.startsWith("ML-KEM") ? null : sign(family(set), kp.getPrivate(), MSG, null);
            byte[] pkcs8 = kp.getPrivate().getEncoded();
            kp.getPrivate().destroy();
            PublicKey pub = kp.getPublic();
            byte[] spki = pub.getEncoded();
            PublicKey read = KeyFactory.getInstance(family(set), PARCRYPT).generatePublic(new X509EncodedKeySpec(spki));
            assertArrayEquals(spki, read.getEncoded(), set);
            assertEquals(read, pub, set);
            assertEquals(read.hashCode(), pub.hashCode(), set);
            PrivateKey again = KeyFactory.getInstance(family(set), PARCRYPT).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            assertArrayEquals(spki, ((PqKeys.Private) again).publicKey().getEncoded(), set);
            if (sig != null) {
                assertTrue(verify(family(set), pub, MSG, sig, null), set);
            }
        }
    }

    @Test
    void expandedFormsRoundTrip() throws Exception {
        for (String set : List.of("ML-DSA-44", "ML-DSA-87", "ML-KEM-512", "ML-KEM-1024")) {
            KeyPair kp = generate(set);
            PKCS8EncodedKeySpec expanded = ParcryptPq.expandedPrivateKey(kp.getPrivate());
            assertTrue(expanded.getEncoded().length > 1000, set);
            PrivateKey back = KeyFactory.getInstance(family(set), PARCRYPT).generatePrivate(expanded);
            // Read without its seed, the key is written back in the expanded form.
            assertArrayEquals(expanded.getEncoded(), back.getEncoded(), set);
            assertArrayEquals(kp.getPublic().getEncoded(), ((PqKeys.Private) back).publicKey().getEncoded(), set);
            if (set.startsWith("ML-DSA")) {
                assertTrue(verify("ML-DSA", kp.getPublic(), MSG, sign("ML-DSA", back, MSG, null), null));
            }
        }
        assertThrows(InvalidKeyException.class,
                () -> ParcryptPq.expandedPrivateKey(generate("SLH-DSA-SHA2-128F").getPrivate()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-65", "SLH-DSA-SHA2-128F"})
    void batchesEqualOneByOneOnEveryStrategy(String set) throws Exception {
        KeyPair a = generate(set);
        KeyPair b = generate(set);
        boolean slh = set.startsWith("SLH");
        int n = slh ? 5 : 9; // SLH-DSA signs slowly in a debug build
        byte[][] messages = new byte[n][];
        for (int i = 0; i < n; i++) {
            messages[i] = TestSupport.pattern(i * 37);
        }
        byte[] ctx = "batch".getBytes(StandardCharsets.UTF_8);
        byte[][] expected = new byte[n][];
        for (int i = 0; slh && i < n; i++) {
            expected[i] = sign("SLH-DSA", a.getPrivate(), messages[i], new ContextParameterSpec(ctx, true));
        }
        for (ParcryptProvider p : TestSupport.ALL_STRATEGIES) {
            byte[][] sigs = ParcryptPq.signBatch(a.getPrivate(), messages, ctx, slh, p.threads(), p.strategy());
            assertEquals(n, sigs.length);
            PublicKey[] keys = new PublicKey[n];
            for (int i = 0; i < n; i++) {
                keys[i] = i == 1 ? b.getPublic() : a.getPublic();
                if (slh) {
                    assertArrayEquals(expected[i], sigs[i]); // deterministic: the very bytes Signature makes
                }
                assertTrue(verify(family(set), a.getPublic(), messages[i], sigs[i], new ContextParameterSpec(ctx)));
            }
            sigs[3] = Arrays.copyOf(sigs[3], 10);
            boolean[] ok = ParcryptPq.verifyBatch(keys, messages, sigs, ctx, p);
            for (int i = 0; i < n; i++) {
                assertEquals(i != 1 && i != 3, ok[i], p.strategy() + " item " + i);
            }
            assertFalse(ParcryptPq.verifyBatch(keys, messages, sigs, new byte[0], p)[0]);
        }
        assertEquals(0, ParcryptPq.verifyBatch(new PublicKey[0], new byte[0][], new byte[0][]).length);
        PublicKey[] mixed = {a.getPublic(), generate(slh ? "ML-DSA-44" : "SLH-DSA-SHA2-128F").getPublic()};
        InvalidKeyException e = assertThrows(InvalidKeyException.class,
                () -> ParcryptPq.verifyBatch(mixed, new byte[2][0], new byte[2][0]));
        assertTrue(e.getMessage().startsWith("keys[1]"), e.getMessage());
        assertThrows(InvalidKeyException.class,
                () -> ParcryptPq.signBatch(generate("ML-KEM-512").getPrivate(), messages));
        assertThrows(IllegalArgumentException.class,
                () -> ParcryptPq.verifyBatch(new PublicKey[] {a.getPublic()}, new byte[2][0], new byte[1][0]));
    }
}
