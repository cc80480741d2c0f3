package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import javax.crypto.DecapsulateException;
import javax.crypto.KEM;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ML-DSA and ML-KEM between this provider and the JDK 25's own (SUN,
 * SunJCE), both ways: keys (the JDK writes and reads the expanded PKCS#8
 * form), signatures, encapsulations; and the KEM service. Run by Maven's
 * {@code jdk25} surefire execution on that JDK ({@code -Dparcrypt.jdk25}).
 */
class Jdk25InteropTest {
    static final byte[] MSG = "between providers".getBytes(StandardCharsets.UTF_8);

    @Test
    void runsOnJava25() {
        assertTrue(Runtime.version().feature() >= 25, "this class runs on the JDK 25: " + Runtime.version());
    }

    static boolean verify(Provider p, String alg, PublicKey key, byte[] sig) throws Exception {
        Signature s = Signature.getInstance(alg, p);
        s.initVerify(key);
        s.update(MSG);
        return s.verify(sig);
    }

    static byte[] sign(Provider p, String alg, PrivateKey key) throws Exception {
        Signature s = Signature.getInstance(alg, p);
        s.initSign(key);
        s.update(MSG);
        return s.sign();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"})
    void mlDsaCrossesWithSun(String set) throws Exception {
        Provider sun = TestSupport.jdk("SUN");
        // SUN's keys -> Parcrypt (the expanded PKCS#8 form): both sign, both verify.
        KeyPair jdk = KeyPairGenerator.getInstance(set, sun).generateKeyPair();
        KeyFactory kf = KeyFactory.getInstance("ML-DSA", PARCRYPT);
        PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(jdk.getPublic().getEncoded()));
        PrivateKey priv = kf.generatePrivate(new PKCS8EncodedKeySpec(jdk.getPrivate().getEncoded()));
        assertArrayEquals(jdk.getPublic().getEncoded(), pub.getEncoded());
        assertArrayEquals(jdk.getPrivate().getEncoded(), priv.getEncoded()); // no seed: written back expanded
        assertTrue(verify(PARCRYPT, "ML-DSA", pub, sign(sun, "ML-DSA", jdk.getPrivate())));
        assertTrue(verify(PARCRYPT, set, jdk.getPublic(), sign(sun, set, jdk.getPrivate()))); // SUN's key objects
        assertTrue(verify(sun, "ML-DSA", jdk.getPublic(), sign(PARCRYPT, "ML-DSA", priv)));
        assertTrue(verify(sun, "ML-DSA", jdk.getPublic(), sign(PARCRYPT, "ML-DSA", jdk.getPrivate())));
        // Parcrypt's keys -> SUN: the public key as is, the private key in the expanded form.
        KeyPair ours = KeyPairGenerator.getInstance(set, PARCRYPT).generateKeyPair();
        KeyFactory sunKf = KeyFactory.getInstance("ML-DSA", sun);
        PublicKey inSun = sunKf.generatePublic(new X509EncodedKeySpec(ours.getPublic().getEncoded()));
        PrivateKey privInSun = sunKf.generatePrivate(ParcryptPq.expandedPrivateKey(ours.getPrivate()));
        assertArrayEquals(ours.getPublic().getEncoded(), inSun.getEncoded());
        assertEquals(set, ((NamedParameterSpec) Class.forName("java.security.AsymmetricKey").getMethod("getParams").invoke(inSun)).getName());
        assertTrue(verify(sun, set, inSun, sign(PARCRYPT, set, ours.getPrivate())));
        assertTrue(verify(PARCRYPT, set, ours.getPublic(), sign(sun, set, privInSun)));
        // The JDK's names for the same things as ours.
        assertEquals(inSun.getAlgorithm(), ours.getPublic().getAlgorithm());
        assertEquals(inSun.getFormat(), ours.getPublic().getFormat());
        assertEquals(privInSun.getFormat(), ours.getPrivate().getFormat());
        // A flipped signature bit: false in both.
        byte[] sig = sign(PARCRYPT, set, ours.getPrivate());
        sig[5] ^= 1;
        assertFalse(verify(sun, set, inSun, sig));
        assertFalse(verify(PARCRYPT, set, ours.getPublic(), sig));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"})
    void mlKemCrossesWithSunJce(String set) throws Exception {
        Provider sunJce = TestSupport.jdk("SunJCE");
        KEM theirs = KEM.getInstance("ML-KEM", sunJce);
        KEM ours = KEM.getInstance("ML-KEM", PARCRYPT);
        // SunJCE's key pair: SunJCE encapsulates, Parcrypt decapsulates with the key read from SunJCE's PKCS#8.
        KeyPair jdk = KeyPairGenerator.getInstance(set, sunJce).generateKeyPair();
        PrivateKey priv = KeyFactory.getInstance("ML-KEM", PARCRYPT)
                .generatePrivate(new PKCS8EncodedKeySpec(jdk.getPrivate().getEncoded()));
        KEM.Encapsulated e = theirs.newEncapsulator(jdk.getPublic()).encapsulate();
        assertArrayEquals(e.key().getEncoded(), ours.newDecapsulator(priv).decapsulate(e.encapsulation()).getEncoded());
        // Parcrypt encapsulates to SunJCE's public key object; SunJCE decapsulates.
        KEM.Encapsulated e2 = ours.newEncapsulator(jdk.getPublic()).encapsulate();
        assertEquals("Generic", e2.key().getAlgorithm());
        assertArrayEquals(e2.key().getEncoded(), theirs.newDecapsulator(jdk.getPrivate()).decapsulate(e2.encapsulation()).getEncoded());
        // Parcrypt's key pair -> SunJCE (public as is, private in the expanded form), both ways.
        KeyPair kp = KeyPairGenerator.getInstance(set, PARCRYPT).generateKeyPair();
        KeyFactory sunKf = KeyFactory.getInstance("ML-KEM", sunJce);
        PublicKey pubInSun = sunKf.generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        PrivateKey privInSun = sunKf.generatePrivate(ParcryptPq.expandedPrivateKey(kp.getPrivate()));
        KEM.Encapsulated e3 = theirs.newEncapsulator(pubInSun).encapsulate();
        assertArrayEquals(e3.key().getEncoded(), ours.newDecapsulator(kp.getPrivate()).decapsulate(e3.encapsulation()).getEncoded());
        KEM.Encapsulated e4 = ours.newEncapsulator(kp.getPublic()).encapsulate(0, 16, "AES");
        SecretKey k4 = theirs.newDecapsulator(privInSun).decapsulate(e4.encapsulation(), 0, 16, "AES");
        assertArrayEquals(k4.getEncoded(), e4.key().getEncoded());
        assertEquals("AES", e4.key().getAlgorithm());
        // Sizes as SunJCE reports them.
        KEM.Decapsulator d = ours.newDecapsulator(kp.getPrivate());
        assertEquals(theirs.newDecapsulator(privInSun).encapsulationSize(), d.encapsulationSize());
        assertEquals(32, d.secretSize());
        // Hostile ciphertexts: the wrong length is refused as SunJCE refuses it; a foreign one gives another secret.
        byte[] ct = e4.encapsulation();
        for (byte[] bad : new byte[][] {java.util.Arrays.copyOf(ct, ct.length - 1), java.util.Arrays.copyOf(ct, ct.length + 1), new byte[0]}) {
            assertThrows(DecapsulateException.class, () -> d.decapsulate(bad));
            assertThrows(DecapsulateException.class, () -> theirs.newDecapsulator(privInSun).decapsulate(bad));
        }
        byte[] flipped = ct.clone();
        flipped[0] ^= 1;
        assertNotEquals(TestSupport.hex(d.decapsulate(flipped).getEncoded()), TestSupport.hex(d.decapsulate(ct).getEncoded()));
        assertArrayEquals(theirs.newDecapsulator(privInSun).decapsulate(flipped).getEncoded(), d.decapsulate(flipped).getEncoded());
        assertThrows(IndexOutOfBoundsException.class, () -> d.decapsulate(ct, 0, 33, "AES"));
    }

    @Test
    void kemRefusesWhatSunJceRefuses() throws Exception {
        KEM kem = KEM.getInstance("ML-KEM-768", PARCRYPT);
        KeyPair k512 = KeyPairGenerator.getInstance("ML-KEM-512", PARCRYPT).generateKeyPair();
        assertThrows(InvalidKeyException.class, () -> kem.newEncapsulator(k512.getPublic()));
        assertThrows(InvalidKeyException.class, () -> kem.newDecapsulator(k512.getPrivate()));
        KeyPair dsa = KeyPairGenerator.getInstance("ML-DSA", PARCRYPT).generateKeyPair();
        assertThrows(InvalidKeyException.class, () -> KEM.getInstance("ML-KEM", PARCRYPT).newEncapsulator(dsa.getPublic()));
        KeyPair k768 = KeyPairGenerator.getInstance("ML-KEM-768", PARCRYPT).generateKeyPair();
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> kem.newEncapsulator(k768.getPublic(), new NamedParameterSpec("ML-KEM-768"), null));
    }
}
