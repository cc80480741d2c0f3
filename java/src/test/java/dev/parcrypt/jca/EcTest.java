package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import org.junit.jupiter.api.Test;

/** ECDSA P-256 keys and signatures against SunEC, both ways, and batch verification. */
class EcTest {
    private static final Provider SUN_EC = TestSupport.jdk("SunEC");

    private static KeyPair sunPair(String curve) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", SUN_EC);
        g.initialize(new ECGenParameterSpec(curve));
        return g.generateKeyPair();
    }

    private static KeyPair ourPair() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", PARCRYPT);
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    @Test
    void p256ParametersEqualSunEcs() throws Exception {
        AlgorithmParameters params = AlgorithmParameters.getInstance("EC", SUN_EC);
        params.init(new ECGenParameterSpec("secp256r1"));
        ECParameterSpec sun = params.getParameterSpec(ECParameterSpec.class);
        assertTrue(EcKeys.isP256(sun));
        assertEquals(sun.getOrder(), EcKeys.P256.getOrder());
        assertEquals(sun.getGenerator(), EcKeys.P256.getGenerator());
        assertEquals(sun.getCurve(), EcKeys.P256.getCurve());
        AlgorithmParameters p384 = AlgorithmParameters.getInstance("EC", SUN_EC);
        p384.init(new ECGenParameterSpec("secp384r1"));
        assertFalse(EcKeys.isP256(p384.getParameterSpec(ECParameterSpec.class)));
    }

    @Test
    void signaturesBothWaysDerAndP1363() throws Exception {
        KeyPair[] pairs = {ourPair(), sunPair("secp256r1")};
        for (String alg : new String[] {"SHA256withECDSA", "SHA256withECDSAinP1363Format"}) {
            for (KeyPair kp : pairs) {
                for (int size : new int[] {0, 1, 100_000}) {
                    byte[] msg = pattern(size);
                    Signature s = Signature.getInstance(alg, PARCRYPT);
                    s.initSign(kp.getPrivate());
                    s.update(msg);
                    byte[] sig = s.sign();
                    if (alg.endsWith("P1363Format")) {
                        assertEquals(64, sig.length);
                    }
                    Signature sun = Signature.getInstance(alg, SUN_EC);
                    sun.initVerify(kp.getPublic());
                    sun.update(msg);
                    assertTrue(sun.verify(sig), alg + " ours verified by SunEC");
                    sun.initSign(kp.getPrivate());
                    sun.update(msg);
                    byte[] sunSig = sun.sign();
                    Signature v = Signature.getInstance(alg, PARCRYPT);
                    v.initVerify(kp.getPublic());
                    v.update(msg);
                    assertTrue(v.verify(sunSig), alg + " SunEC's verified by ours");
                    sunSig[sunSig.length - 1] ^= 1;
                    v.update(msg);
                    assertFalse(v.verify(sunSig), "tampered");
                }
            }
        }
        Signature v = Signature.getInstance("SHA256withECDSA", PARCRYPT);
        v.initVerify(pairs[0].getPublic());
        assertThrows(SignatureException.class, () -> v.verify(new byte[] {0x30, 0x02, 0x05}), "malformed DER");
    }

    @Test
    void wrongCurvesAndKeyTypesAreRefused() throws Exception {
        KeyPair p384 = sunPair("secp384r1");
        Signature s = Signature.getInstance("SHA256withECDSA", PARCRYPT);
        assertThrows(InvalidKeyException.class, () -> s.initSign(p384.getPrivate()));
        assertThrows(InvalidKeyException.class, () -> s.initVerify(p384.getPublic()));
        KeyPair rsa = KeyPairGenerator.getInstance("RSA", TestSupport.jdk("SunRsaSign")).generateKeyPair();
        assertThrows(InvalidKeyException.class, () -> s.initSign(rsa.getPrivate()));
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", PARCRYPT);
        assertThrows(InvalidAlgorithmParameterException.class, () -> g.initialize(new ECGenParameterSpec("secp384r1")));
        assertThrows(java.security.InvalidParameterException.class, () -> g.initialize(384));
        KeyFactory kf = KeyFactory.getInstance("EC", PARCRYPT);
        assertThrows(InvalidKeySpecException.class,
                () -> kf.generatePublic(new X509EncodedKeySpec(p384.getPublic().getEncoded())));
        assertThrows(InvalidKeySpecException.class,
                () -> kf.generatePrivate(new PKCS8EncodedKeySpec(p384.getPrivate().getEncoded())));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new PKCS8EncodedKeySpec(new byte[10])));
    }

    @Test
    void keyFactoryConvertsBothWays() throws Exception {
        KeyFactory kf = KeyFactory.getInstance("EC", PARCRYPT);
        KeyFactory sun = KeyFactory.getInstance("EC", SUN_EC);
        KeyPair theirs = sunPair("secp256r1");
        KeyPair ours = ourPair();
        ECPrivateKey a = (ECPrivateKey) kf.generatePrivate(new PKCS8EncodedKeySpec(theirs.getPrivate().getEncoded()));
        ECPrivateKey b = (ECPrivateKey) kf.generatePrivate(sun.getKeySpec(theirs.getPrivate(), ECPrivateKeySpec.class));
        assertEquals(((ECPrivateKey) theirs.getPrivate()).getS(), a.getS());
        assertEquals(a.getS(), b.getS());
        ECPublicKey p = (ECPublicKey) kf.generatePublic(sun.getKeySpec(theirs.getPublic(), ECPublicKeySpec.class));
        assertArrayEquals(theirs.getPublic().getEncoded(), p.getEncoded());
        ECPrivateKey sunCopy = (ECPrivateKey) sun.generatePrivate(new PKCS8EncodedKeySpec(ours.getPrivate().getEncoded()));
        assertEquals(((ECPrivateKey) ours.getPrivate()).getS(), sunCopy.getS());
        ECPublicKey sunPub = (ECPublicKey) sun.generatePublic(kf.getKeySpec(ours.getPublic(), ECPublicKeySpec.class));
        assertEquals(((ECPublicKey) ours.getPublic()).getW(), sunPub.getW());
        ECPrivateKey fromSpec = (ECPrivateKey) sun.generatePrivate(kf.getKeySpec(ours.getPrivate(), ECPrivateKeySpec.class));
        // Keys made from each other's specs sign what the other verifies.
        Signature s = Signature.getInstance("SHA256withECDSA", SUN_EC);
        s.initSign(fromSpec);
        s.update(new byte[7]);
        Signature v = Signature.getInstance("SHA256withECDSA", PARCRYPT);
        v.initVerify(ours.getPublic());
        v.update(new byte[7]);
        assertTrue(v.verify(s.sign()));
        assertTrue(ours.getPrivate().toString().contains("redacted"));
    }

    @Test
    void verifyBatchMatchesOneByOne() throws Exception {
        int n = 200;
        KeyPair[] signers = {ourPair(), sunPair("secp256r1"), ourPair()};
        PublicKey[] keys = new PublicKey[n];
        byte[][] msgs = new byte[n][];
        byte[][] sigs = new byte[n][];
        boolean[] expected = new boolean[n];
        for (int i = 0; i < n; i++) {
            KeyPair kp = signers[i % 3];
            keys[i] = kp.getPublic();
            msgs[i] = pattern(i * 7);
            Signature s = Signature.getInstance("SHA256withECDSA", SUN_EC);
            s.initSign(kp.getPrivate());
            s.update(msgs[i]);
            sigs[i] = s.sign();
            expected[i] = i % 5 != 3;
            if (i % 5 == 3) {
                if (i % 2 == 0) {
                    sigs[i][sigs[i].length - 2] ^= 4;
                } else {
                    sigs[i] = new byte[] {1, 2, 3}; // malformed: false, not an exception
                }
            }
        }
        for (ParcryptProvider p : TestSupport.ALL_STRATEGIES) {
            assertArrayEquals(expected, ParcryptEcdsa.verifyBatch(keys, msgs, sigs, false, p), p.toString());
        }
        assertArrayEquals(expected, ParcryptEcdsa.verifyBatch(keys, msgs, sigs));
        assertArrayEquals(new boolean[0], ParcryptEcdsa.verifyBatch(new PublicKey[0], new byte[0][], new byte[0][]));
        keys[17] = sunPair("secp384r1").getPublic();
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> ParcryptEcdsa.verifyBatch(keys, msgs, sigs));
        assertTrue(e.getMessage().contains("keys[17]"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ParcryptEcdsa.verifyBatch(new PublicKey[1], new byte[2][], new byte[2][]));
    }
}
