package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.RSAPrivateKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** RSA keys, signatures and OAEP against SunRsaSign / SunJCE, both ways. */
class RsaTest {
    private static final Provider SUN_RSA = TestSupport.jdk("SunRsaSign");
    private static final Provider SUN_JCE = TestSupport.jdk("SunJCE");
    private static KeyPair ours;
    private static KeyPair theirs;

    @BeforeAll
    static void keys() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", PARCRYPT);
        g.initialize(2048);
        ours = g.generateKeyPair();
        KeyPairGenerator s = KeyPairGenerator.getInstance("RSA", SUN_RSA);
        s.initialize(2048);
        theirs = s.generateKeyPair();
    }

    @Test
    void generatedKeysAreSoundAndReadableBySunRsaSign() throws Exception {
        RSAPrivateCrtKey k = (RSAPrivateCrtKey) ours.getPrivate();
        assertEquals(2048, k.getModulus().bitLength());
        assertEquals(RSAKeyGenParameterSpec.F4, k.getPublicExponent());
        assertEquals(k.getModulus(), k.getPrimeP().multiply(k.getPrimeQ()));
        BigInteger phi = k.getPrimeP().subtract(BigInteger.ONE).multiply(k.getPrimeQ().subtract(BigInteger.ONE));
        assertEquals(BigInteger.ONE, k.getPublicExponent().multiply(k.getPrivateExponent()).mod(
                phi.divide(k.getPrimeP().subtract(BigInteger.ONE).gcd(k.getPrimeQ().subtract(BigInteger.ONE)))));
        KeyFactory sun = KeyFactory.getInstance("RSA", SUN_RSA);
        RSAPrivateCrtKey back = (RSAPrivateCrtKey) sun.generatePrivate(new PKCS8EncodedKeySpec(k.getEncoded()));
        assertEquals(k.getCrtCoefficient(), back.getCrtCoefficient());
        RSAPublicKey pub = (RSAPublicKey) sun.generatePublic(new X509EncodedKeySpec(ours.getPublic().getEncoded()));
        assertEquals(k.getModulus(), pub.getModulus());
        assertTrue(ours.getPrivate().toString().contains("redacted"));
        assertFalse(ours.getPrivate().toString().contains(k.getPrivateExponent().toString(16).substring(0, 16)));
    }

    @Test
    void keyGenParameterSpecIsHonouredAndBadSizesRefused() throws Exception {
        for (ParcryptProvider p : TestSupport.ALL_STRATEGIES) {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", p);
            g.initialize(new RSAKeyGenParameterSpec(1152, RSAKeyGenParameterSpec.F4));
            assertEquals(1152, ((RSAPublicKey) g.generateKeyPair().getPublic()).getModulus().bitLength(), p.toString());
        }
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", PARCRYPT);
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> g.initialize(new RSAKeyGenParameterSpec(2048, BigInteger.valueOf(3))));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> g.initialize(new RSAKeyGenParameterSpec(512, RSAKeyGenParameterSpec.F4)));
        assertThrows(InvalidParameterException.class, () -> g.initialize(2000));
        assertThrows(InvalidParameterException.class, () -> g.initialize(32768));
    }

    @Test
    void pkcs1SignaturesBothWays() throws Exception {
        for (String alg : new String[] {"SHA256withRSA", "SHA384withRSA", "SHA512withRSA"}) {
            for (KeyPair kp : new KeyPair[] {ours, theirs}) {
                byte[] msg = pattern(1000);
                Signature s = Signature.getInstance(alg, PARCRYPT);
                s.initSign(kp.getPrivate());
                s.update(msg, 0, 10);
                s.update(msg, 10, 990);
                byte[] sig = s.sign();
                Signature sun = Signature.getInstance(alg, SUN_RSA);
                sun.initSign(kp.getPrivate());
                sun.update(msg);
                assertArrayEquals(sun.sign(), sig, alg + ": PKCS#1 v1.5 is deterministic");
                sun.initVerify(kp.getPublic());
                sun.update(msg);
                assertTrue(sun.verify(sig));
                Signature v = Signature.getInstance(alg, PARCRYPT);
                v.initVerify(kp.getPublic());
                v.update(msg);
                assertTrue(v.verify(sig));
                sig[5] ^= 1;
                v.update(msg);
                assertFalse(v.verify(sig), "tampered signature");
                v.update(pattern(999));
                sig[5] ^= 1;
                assertFalse(v.verify(sig), "other message");
            }
        }
    }

    private static PSSParameterSpec pss(String hash, int salt) {
        return new PSSParameterSpec(hash, "MGF1", new MGF1ParameterSpec(hash), salt, 1);
    }

    @Test
    void pssSignaturesBothWays() throws Exception {
        byte[] msg = pattern(5000);
        for (String[] h : new String[][] {{"SHA-256", "32"}, {"SHA-384", "48"}, {"SHA-512", "64"}}) {
            PSSParameterSpec spec = pss(h[0], Integer.parseInt(h[1]));
            Signature s = Signature.getInstance("RSASSA-PSS", PARCRYPT);
            s.setParameter(spec);
            s.initSign(theirs.getPrivate());
            s.update(msg);
            byte[] sig = s.sign();
            Signature sun = Signature.getInstance("RSASSA-PSS", SUN_RSA);
            sun.setParameter(spec);
            sun.initVerify(theirs.getPublic());
            sun.update(msg);
            assertTrue(sun.verify(sig), h[0]);
            sun.initSign(ours.getPrivate());
            sun.update(msg);
            byte[] sunSig = sun.sign();
            Signature v = Signature.getInstance("RSASSA-PSS", PARCRYPT);
            v.setParameter(spec);
            v.initVerify(ours.getPublic());
            v.update(msg);
            assertTrue(v.verify(sunSig), h[0]);
            sunSig[0] ^= 1;
            v.update(msg);
            assertFalse(v.verify(sunSig));
        }
        // Verification honours other salt lengths (here SunRsaSign's 20 with SHA-256) and checks them.
        Signature sun = Signature.getInstance("RSASSA-PSS", SUN_RSA);
        sun.setParameter(pss("SHA-256", 20));
        sun.initSign(theirs.getPrivate());
        sun.update(msg);
        byte[] salt20 = sun.sign();
        Signature v = Signature.getInstance("RSASSA-PSS", PARCRYPT);
        v.setParameter(pss("SHA-256", 20));
        v.initVerify(theirs.getPublic());
        v.update(msg);
        assertTrue(v.verify(salt20));
        v.setParameter(pss("SHA-256", 32));
        v.update(msg);
        assertFalse(v.verify(salt20), "the salt length is checked");
    }

    @Test
    void pssMisuseIsRefused() throws Exception {
        Signature s = Signature.getInstance("RSASSA-PSS", PARCRYPT);
        s.initSign(ours.getPrivate());
        assertThrows(java.security.SignatureException.class, () -> s.update(new byte[1]), "no parameters set");
        assertThrows(InvalidAlgorithmParameterException.class, () -> s.setParameter(pss("SHA-256", 20)),
                "signing salt must be the digest length");
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> s.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA1, 32, 1)));
        assertThrows(InvalidAlgorithmParameterException.class, () -> s.setParameter(null));
        Signature p = Signature.getInstance("SHA256withRSA", PARCRYPT);
        KeyPair ec = KeyPairGenerator.getInstance("EC", TestSupport.jdk("SunEC")).generateKeyPair();
        assertThrows(InvalidKeyException.class, () -> p.initSign(ec.getPrivate()));
        assertThrows(InvalidKeyException.class, () -> p.initVerify(ec.getPublic()));
    }

    @Test
    void keyFactoryConvertsBothWays() throws Exception {
        KeyFactory kf = KeyFactory.getInstance("RSA", PARCRYPT);
        KeyFactory sun = KeyFactory.getInstance("RSA", SUN_RSA);
        RSAPrivateCrtKey theirPriv = (RSAPrivateCrtKey) theirs.getPrivate();
        RSAPrivateCrtKeySpec spec = sun.getKeySpec(theirPriv, RSAPrivateCrtKeySpec.class);
        RSAPrivateCrtKey fromSpec = (RSAPrivateCrtKey) kf.generatePrivate(spec);
        RSAPrivateCrtKey fromDer = (RSAPrivateCrtKey) kf.generatePrivate(new PKCS8EncodedKeySpec(theirPriv.getEncoded()));
        for (RSAPrivateCrtKey k : new RSAPrivateCrtKey[] {fromSpec, fromDer}) {
            assertEquals(theirPriv.getModulus(), k.getModulus());
            assertEquals(theirPriv.getPrivateExponent(), k.getPrivateExponent());
            assertEquals(theirPriv.getPrimeExponentQ(), k.getPrimeExponentQ());
        }
        RSAPublicKey pub = (RSAPublicKey) kf.generatePublic(sun.getKeySpec(theirs.getPublic(), RSAPublicKeySpec.class));
        assertArrayEquals(theirs.getPublic().getEncoded(), pub.getEncoded());
        RSAPrivateCrtKeySpec ourSpec = kf.getKeySpec(ours.getPrivate(), RSAPrivateCrtKeySpec.class);
        RSAPrivateCrtKey sunKey = (RSAPrivateCrtKey) sun.generatePrivate(ourSpec);
        assertEquals(((RSAPrivateCrtKey) ours.getPrivate()).getPrimeP(), sunKey.getPrimeP());
        assertArrayEquals(ours.getPublic().getEncoded(),
                sun.generatePublic(kf.getKeySpec(ours.getPublic(), X509EncodedKeySpec.class)).getEncoded());
        // A key the other provider made from our spec signs what we verify.
        Signature s = Signature.getInstance("SHA256withRSA", SUN_RSA);
        s.initSign(sunKey);
        s.update(new byte[3]);
        Signature v = Signature.getInstance("SHA256withRSA", PARCRYPT);
        v.initVerify((java.security.PublicKey) kf.translateKey(ours.getPublic()));
        v.update(new byte[3]);
        assertTrue(v.verify(s.sign()));
        // Bad input: the JCA's exceptions.
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new PKCS8EncodedKeySpec(new byte[] {1, 2, 3})));
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePublic(new X509EncodedKeySpec(new byte[40])));
        assertThrows(InvalidKeySpecException.class,
                () -> kf.generatePrivate(new RSAPrivateKeySpec(theirPriv.getModulus(), theirPriv.getPrivateExponent())));
        byte[] ecDer = KeyPairGenerator.getInstance("EC", TestSupport.jdk("SunEC")).generateKeyPair().getPrivate().getEncoded();
        assertThrows(InvalidKeySpecException.class, () -> kf.generatePrivate(new PKCS8EncodedKeySpec(ecDer)));
    }

    private static final OAEPParameterSpec SHA256 =
            new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);

    @Test
    void oaepBothWays() throws Exception {
        byte[] msg = pattern(190);
        Cipher enc = Cipher.getInstance("RSA/ECB/OAEPPadding", PARCRYPT);
        enc.init(Cipher.ENCRYPT_MODE, theirs.getPublic(), SHA256);
        byte[] ct = enc.doFinal(msg);
        assertEquals(256, ct.length);
        Cipher sunDec = Cipher.getInstance("RSA/ECB/OAEPPadding", SUN_JCE);
        sunDec.init(Cipher.DECRYPT_MODE, theirs.getPrivate(), SHA256);
        assertArrayEquals(msg, sunDec.doFinal(ct));
        OAEPParameterSpec[] specs = {SHA256, OAEPParameterSpec.DEFAULT,
            new OAEPParameterSpec("SHA-384", "MGF1", MGF1ParameterSpec.SHA256, new PSource.PSpecified(new byte[] {1, 2, 3})),
            new OAEPParameterSpec("SHA-512", "MGF1", MGF1ParameterSpec.SHA512, PSource.PSpecified.DEFAULT)};
        for (OAEPParameterSpec spec : specs) {
            Cipher sunEnc = Cipher.getInstance("RSA/ECB/OAEPPadding", SUN_JCE);
            sunEnc.init(Cipher.ENCRYPT_MODE, ours.getPublic(), spec);
            byte[] c = sunEnc.doFinal(pattern(50));
            for (ParcryptProvider p : TestSupport.ALL_STRATEGIES) {
                Cipher dec = Cipher.getInstance("RSA/ECB/OAEPPadding", p);
                dec.init(Cipher.DECRYPT_MODE, ours.getPrivate(), spec);
                assertArrayEquals(pattern(50), dec.doFinal(c), spec.getDigestAlgorithm());
            }
            // The wrong label or hash, or a flipped bit: one opaque BadPaddingException.
            Cipher dec = Cipher.getInstance("RSA/ECB/OAEPPadding", PARCRYPT);
            dec.init(Cipher.DECRYPT_MODE, ours.getPrivate(), spec == SHA256 ? OAEPParameterSpec.DEFAULT : SHA256);
            assertThrows(BadPaddingException.class, () -> dec.doFinal(c));
            c[7] ^= 1;
            dec.init(Cipher.DECRYPT_MODE, ours.getPrivate(), spec);
            assertThrows(BadPaddingException.class, () -> dec.doFinal(c));
        }
        // Default parameters (SHA-1) decrypt, as the JCA defines (oaepDefaultsAndNamesAsSunJce does the rest).
        Cipher sunEnc = Cipher.getInstance("RSA/ECB/OAEPPadding", SUN_JCE);
        sunEnc.init(Cipher.ENCRYPT_MODE, ours.getPublic());
        byte[] c = sunEnc.doFinal(msg);
        Cipher dec = Cipher.getInstance("RSA/ECB/OAEPPadding", PARCRYPT);
        dec.init(Cipher.DECRYPT_MODE, ours.getPrivate());
        assertArrayEquals(msg, dec.doFinal(c));
        enc.init(Cipher.ENCRYPT_MODE, ours.getPublic(), SHA256);
        assertThrows(IllegalBlockSizeException.class, () -> enc.doFinal(new byte[191]));
        assertThrows(InvalidKeyException.class, () -> enc.init(Cipher.ENCRYPT_MODE, ours.getPrivate(), SHA256));
        assertThrows(BadPaddingException.class, () -> dec.doFinal(new byte[256]));
    }

    @Test
    void oaepWrapsKeysBothWays() throws Exception {
        javax.crypto.SecretKey aes = new javax.crypto.spec.SecretKeySpec(pattern(32), "AES");
        Cipher w = Cipher.getInstance("RSA/ECB/OAEPPadding", PARCRYPT);
        w.init(Cipher.WRAP_MODE, theirs.getPublic(), SHA256);
        byte[] wrapped = w.wrap(aes);
        Cipher sun = Cipher.getInstance("RSA/ECB/OAEPPadding", SUN_JCE);
        sun.init(Cipher.UNWRAP_MODE, theirs.getPrivate(), SHA256);
        assertArrayEquals(aes.getEncoded(), sun.unwrap(wrapped, "AES", Cipher.SECRET_KEY).getEncoded());
        sun.init(Cipher.WRAP_MODE, ours.getPublic(), SHA256);
        Cipher u = Cipher.getInstance("RSA/ECB/OAEPPadding", PARCRYPT);
        u.init(Cipher.UNWRAP_MODE, ours.getPrivate(), SHA256);
        assertArrayEquals(aes.getEncoded(), u.unwrap(sun.wrap(aes), "AES", Cipher.SECRET_KEY).getEncoded());
        assertThrows(InvalidKeyException.class, () -> u.unwrap(new byte[256], "AES", Cipher.SECRET_KEY));
    }

    /** The OAEP transformation names SunJCE accepts and parcrypt's hashes allow. */
    private static final String[] OAEP_NAMES = {"RSA/ECB/OAEPPadding", "RSA/ECB/OAEPWithSHA-1AndMGF1Padding",
        "RSA/ECB/OAEPWithSHA1AndMGF1Padding", "RSA/ECB/OAEPWithSHA-256AndMGF1Padding",
        "RSA/ECB/OAEPWithSHA-384AndMGF1Padding", "RSA/ECB/OAEPWithSHA-512AndMGF1Padding",
        "rsa/ecb/oaepwithsha-256andmgf1padding"};

    /** A digest name as SunJCE or we spell it, compared loosely ("SHA1" = "SHA-1"). */
    private static String digest(String name) {
        return name.toUpperCase(java.util.Locale.ROOT).replace("-", "");
    }

    private static String used(Cipher c) throws Exception {
        OAEPParameterSpec s = c.getParameters().getParameterSpec(OAEPParameterSpec.class);
        return digest(s.getDigestAlgorithm()) + "/MGF1-" + digest(((MGF1ParameterSpec) s.getMGFParameters()).getDigestAlgorithm())
                + "/" + java.util.HexFormat.of().formatHex(((PSource.PSpecified) s.getPSource()).getValue());
    }

    @Test
    void oaepDefaultsAndNamesAsSunJce() throws Exception {
        for (String name : OAEP_NAMES) {
            Cipher enc = Cipher.getInstance(name, PARCRYPT);
            Cipher sun = Cipher.getInstance(name, SUN_JCE);
            assertEquals(sun.getParameters(), enc.getParameters(), name + ": none before init");
            // No parameters: the name's digest with MGF1-SHA-1, as SunJCE reads it.
            byte[] msg = pattern(name.contains("512") ? 100 : 150);
            enc.init(Cipher.ENCRYPT_MODE, theirs.getPublic());
            sun.init(Cipher.DECRYPT_MODE, theirs.getPrivate());
            assertEquals(used(sun), used(enc), name);
            assertArrayEquals(sun.getParameters().getEncoded(), enc.getParameters().getEncoded(), name);
            assertTrue(used(enc).endsWith("/MGF1-SHA1/"), name + ": " + used(enc));
            byte[] ct = enc.doFinal(msg);
            assertArrayEquals(msg, sun.doFinal(ct), name + ": Parcrypt encrypts, SunJCE decrypts");
            sun.init(Cipher.ENCRYPT_MODE, ours.getPublic());
            Cipher dec = Cipher.getInstance(name, PARCRYPT);
            dec.init(Cipher.DECRYPT_MODE, ours.getPrivate());
            assertEquals(used(sun), used(dec), name);
            byte[] theirCt = sun.doFinal(msg);
            assertArrayEquals(msg, dec.doFinal(theirCt), name + ": SunJCE encrypts, Parcrypt decrypts");
            // Their parameters as AlgorithmParameters give the same.
            dec.init(Cipher.DECRYPT_MODE, ours.getPrivate(), sun.getParameters());
            assertArrayEquals(msg, dec.doFinal(theirCt), name);
            // The name's digest with MGF1 over the same digest is another thing (except for SHA-1).
            String h = ((OAEPParameterSpec) sun.getParameters().getParameterSpec(OAEPParameterSpec.class)).getDigestAlgorithm();
            if (!digest(h).equals("SHA1")) {
                dec.init(Cipher.DECRYPT_MODE, ours.getPrivate(),
                        new OAEPParameterSpec(h, "MGF1", new MGF1ParameterSpec(h), PSource.PSpecified.DEFAULT));
                assertThrows(BadPaddingException.class, () -> dec.doFinal(theirCt), name);
            }
            // A spec replaces what the name says, on both sides.
            OAEPParameterSpec spec = new OAEPParameterSpec("SHA-384", "MGF1", MGF1ParameterSpec.SHA512,
                    new PSource.PSpecified(new byte[] {9, 8, 7}));
            enc.init(Cipher.ENCRYPT_MODE, theirs.getPublic(), spec);
            sun.init(Cipher.DECRYPT_MODE, theirs.getPrivate(), spec);
            assertEquals(used(sun), used(enc), name);
            assertEquals("SHA384/MGF1-SHA512/090807", used(enc), name);
            assertArrayEquals(msg, sun.doFinal(enc.doFinal(msg)), name + " with a spec");
            sun.init(Cipher.ENCRYPT_MODE, ours.getPublic(), spec);
            dec.init(Cipher.DECRYPT_MODE, ours.getPrivate(), spec);
            assertArrayEquals(msg, dec.doFinal(sun.doFinal(msg)), name + " with a spec");
        }
    }

    /** Runs {@code action} with Parcrypt and with SunJCE: both must throw the same exception class. */
    private static void refusedAlike(String what, ThrowingFunction action) {
        Class<? extends Throwable> theirs = assertThrows(Exception.class, () -> action.apply(SUN_JCE), what + " (SunJCE)").getClass();
        Class<? extends Throwable> ours = assertThrows(Exception.class, () -> action.apply(PARCRYPT), what).getClass();
        assertEquals(theirs, ours, what);
    }

    @FunctionalInterface
    private interface ThrowingFunction {
        void apply(Provider p) throws Exception;
    }

    @Test
    void oaepRefusesWhatSunJceRefuses() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", SUN_RSA);
        g.initialize(1024);
        KeyPair small = g.generateKeyPair();
        // Names SunJCE does not accept, this provider does not either.
        for (String name : new String[] {"RSA/ECB/OAEPWithSHA256AndMGF1Padding", "RSA/ECB/OAEPWithSHAAndMGF1Padding",
            "RSA/NONE/OAEPPadding", "RSA//OAEPPadding", "RSA/ECB/OAEPWithSHA-256AndMGF2Padding"}) {
            assertThrows(java.security.GeneralSecurityException.class, () -> Cipher.getInstance(name, SUN_JCE), name);
            assertThrows(java.security.GeneralSecurityException.class, () -> Cipher.getInstance(name, PARCRYPT), name);
        }
        String oaep = "RSA/ECB/OAEPPadding";
        refusedAlike("encrypt with a private key", p -> Cipher.getInstance(oaep, p).init(Cipher.ENCRYPT_MODE, ours.getPrivate()));
        refusedAlike("decrypt with a public key", p -> Cipher.getInstance(oaep, p).init(Cipher.DECRYPT_MODE, ours.getPublic()));
        refusedAlike("an IV", p -> Cipher.getInstance(oaep, p).init(Cipher.ENCRYPT_MODE, ours.getPublic(),
                new javax.crypto.spec.IvParameterSpec(new byte[16])));
        refusedAlike("MGF2", p -> Cipher.getInstance(oaep, p).init(Cipher.ENCRYPT_MODE, ours.getPublic(),
                new OAEPParameterSpec("SHA-256", "MGF2", MGF1ParameterSpec.SHA1, PSource.PSpecified.DEFAULT)));
        refusedAlike("a key too small for SHA-512", p -> Cipher.getInstance("RSA/ECB/OAEPWithSHA-512AndMGF1Padding", p)
                .init(Cipher.DECRYPT_MODE, small.getPrivate()));
        refusedAlike("a key too small for SHA-512", p -> Cipher.getInstance("RSA/ECB/OAEPWithSHA-512AndMGF1Padding", p)
                .init(Cipher.ENCRYPT_MODE, small.getPublic()));
        for (String name : OAEP_NAMES) {
            int max = 256 - 2 - 2 * (name.contains("512") ? 64 : name.contains("384") ? 48 : name.contains("256") ? 32 : 20);
            refusedAlike(name + ": a message over " + max + " bytes", p -> {
                Cipher c = Cipher.getInstance(name, p);
                c.init(Cipher.ENCRYPT_MODE, ours.getPublic());
                c.doFinal(new byte[max + 1]);
            });
            Cipher c = Cipher.getInstance(name, PARCRYPT);
            c.init(Cipher.ENCRYPT_MODE, ours.getPublic());
            assertEquals(256, c.doFinal(new byte[max]).length, name);
            refusedAlike(name + ": a ciphertext over the modulus", p -> {
                Cipher d = Cipher.getInstance(name, p);
                d.init(Cipher.DECRYPT_MODE, ours.getPrivate());
                d.doFinal(new byte[257]);
            });
        }
    }
}
