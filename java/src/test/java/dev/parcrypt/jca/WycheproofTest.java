package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static dev.parcrypt.jca.TestSupport.unhex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Project Wycheproof vectors (src/test/resources/wycheproof) through the JCA:
 * every valid case must pass, every invalid one must be rejected; cases this
 * provider does not offer (other nonce/tag sizes, AES-192 GCM) must be refused.
 */
class WycheproofTest {
    private static JsonNode load(String name) throws Exception {
        try (InputStream in = WycheproofTest.class.getResourceAsStream("/wycheproof/" + name)) {
            if (in == null) {
                throw new AssertionError("missing test vectors " + name);
            }
            return new ObjectMapper().readTree(in);
        }
    }

    private static byte[] hex(JsonNode n, String field) {
        return unhex(n.get(field).asText());
    }

    private static String id(String file, JsonNode t) {
        return file + " #" + t.get("tcId").asInt() + " " + t.get("comment").asText();
    }

    @Test
    void aesGcm() throws Exception {
        int run = 0;
        int refused = 0;
        for (JsonNode g : load("aes_gcm_test.json").get("testGroups")) {
            boolean offered = g.get("ivSize").asInt() == 96 && g.get("tagSize").asInt() == 128
                    && g.get("keySize").asInt() != 192;
            for (JsonNode t : g.get("tests")) {
                SecretKeySpec key = new SecretKeySpec(hex(t, "key"), "AES");
                byte[] iv = hex(t, "iv");
                GCMParameterSpec spec = new GCMParameterSpec(g.get("tagSize").asInt(), iv);
                Cipher c = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
                if (!offered) {
                    assertThrows(GeneralSecurityException.class, () -> c.init(Cipher.DECRYPT_MODE, key, spec),
                            id("aes_gcm", t));
                    refused++;
                    continue;
                }
                byte[] sealed = concat(hex(t, "ct"), hex(t, "tag"));
                String result = t.get("result").asText();
                c.init(Cipher.DECRYPT_MODE, key, spec);
                c.updateAAD(hex(t, "aad"));
                if (result.equals("valid")) {
                    assertArrayEquals(hex(t, "msg"), c.doFinal(sealed), id("aes_gcm", t));
                    Cipher e = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
                    e.init(Cipher.ENCRYPT_MODE, key, spec);
                    e.updateAAD(hex(t, "aad"));
                    assertArrayEquals(sealed, e.doFinal(hex(t, "msg")), id("aes_gcm", t));
                } else if (result.equals("invalid")) {
                    assertThrows(AEADBadTagException.class, () -> c.doFinal(sealed), id("aes_gcm", t));
                }
                run++;
            }
        }
        assertTrue(run > 120 && refused > 150, run + " run, " + refused + " refused");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void aesCbcPkcs5() throws Exception {
        int run = 0;
        for (JsonNode g : load("aes_cbc_pkcs5_test.json").get("testGroups")) {
            for (JsonNode t : g.get("tests")) {
                SecretKeySpec key = new SecretKeySpec(hex(t, "key"), "AES");
                IvParameterSpec iv = new IvParameterSpec(hex(t, "iv"));
                Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding", PARCRYPT);
                c.init(Cipher.DECRYPT_MODE, key, iv);
                if (t.get("result").asText().equals("valid")) {
                    assertArrayEquals(hex(t, "msg"), c.doFinal(hex(t, "ct")), id("aes_cbc", t));
                    c.init(Cipher.ENCRYPT_MODE, key, iv);
                    assertArrayEquals(hex(t, "ct"), c.doFinal(hex(t, "msg")), id("aes_cbc", t));
                } else {
                    try {
                        c.doFinal(hex(t, "ct"));
                        fail("accepted " + id("aes_cbc", t));
                    } catch (BadPaddingException | IllegalBlockSizeException expected) {
                        // rejected, as it must be
                    }
                }
                run++;
            }
        }
        assertTrue(run > 200);
    }

    private static void signatures(String file, String alg, PSSParameterSpec pss) throws Exception {
        KeyFactory kf = KeyFactory.getInstance(pss == null && alg.contains("ECDSA") ? "EC" : "RSA", PARCRYPT);
        int run = 0;
        for (JsonNode g : load(file).get("testGroups")) {
            PublicKey key = kf.generatePublic(new X509EncodedKeySpec(hex(g, "publicKeyDer")));
            for (JsonNode t : g.get("tests")) {
                Signature v = Signature.getInstance(alg, PARCRYPT);
                if (pss != null) {
                    v.setParameter(pss);
                }
                v.initVerify(key);
                v.update(hex(t, "msg"));
                String result = t.get("result").asText();
                boolean ok;
                try {
                    ok = v.verify(hex(t, "sig"));
                } catch (SignatureException e) {
                    ok = false;
                }
                if (result.equals("valid")) {
                    assertTrue(ok, id(file, t));
                } else if (result.equals("invalid")) {
                    assertFalse(ok, id(file, t));
                }
                run++;
            }
        }
        assertTrue(run > 30, file + ": " + run);
    }

    @Test
    void ecdsaP256Der() throws Exception {
        signatures("ecdsa_secp256r1_sha256_test.json", "SHA256withECDSA", null);
    }

    @Test
    void ecdsaP256P1363() throws Exception {
        signatures("ecdsa_secp256r1_sha256_p1363_test.json", "SHA256withECDSAinP1363Format", null);
    }

    @Test
    void rsaPkcs1() throws Exception {
        signatures("rsa_signature_2048_sha256_test.json", "SHA256withRSA", null);
    }

    @Test
    void rsaPss() throws Exception {
        signatures("rsa_pss_2048_sha256_mgf1_32_test.json", "RSASSA-PSS",
                new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
    }

    @Test
    void rsaOaep() throws Exception {
        oaep("rsa_oaep_2048_sha256_mgf1sha256_test.json", "RSA/ECB/OAEPPadding",
                new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT), false);
    }

    /** The JCA default, {@code RSA/ECB/OAEPPadding} without parameters, is SHA-1 with MGF1-SHA-1. */
    @Test
    void rsaOaepSha1IsTheDefault() throws Exception {
        oaep("rsa_oaep_2048_sha1_mgf1sha1_test.json", "RSA/ECB/OAEPPadding", OAEPParameterSpec.DEFAULT, true);
        oaep("rsa_oaep_2048_sha1_mgf1sha1_test.json", "RSA/ECB/OAEPWithSHA-1AndMGF1Padding", OAEPParameterSpec.DEFAULT, true);
    }

    /** SunJCE's reading of {@code OAEPWithSHA-256AndMGF1Padding}: SHA-256 with MGF1 over SHA-1. */
    @Test
    void rsaOaepSha256NameMeansMgf1Sha1() throws Exception {
        oaep("rsa_oaep_2048_sha256_mgf1sha1_test.json", "RSA/ECB/OAEPWithSHA-256AndMGF1Padding",
                new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA1, PSource.PSpecified.DEFAULT), true);
    }

    /**
     * Every case of {@code file} decrypted with {@code transformation}: cases
     * without a label with no parameters at all when {@code byName} (the
     * name's defaults must be the file's hashes), others with {@code spec}
     * and the case's label. Each valid message is also encrypted by Parcrypt
     * the same way and decrypted by SunJCE.
     */
    private static void oaep(String file, String transformation, OAEPParameterSpec spec, boolean byName)
            throws Exception {
        int run = 0;
        int unlabelled = 0;
        KeyFactory kf = KeyFactory.getInstance("RSA", PARCRYPT);
        for (JsonNode g : load(file).get("testGroups")) {
            PrivateKey key = kf.generatePrivate(new PKCS8EncodedKeySpec(hex(g, "privateKeyPkcs8")));
            java.security.interfaces.RSAPrivateCrtKey crt = (java.security.interfaces.RSAPrivateCrtKey) key;
            PublicKey pub = kf.generatePublic(new java.security.spec.RSAPublicKeySpec(crt.getModulus(), crt.getPublicExponent()));
            for (JsonNode t : g.get("tests")) {
                byte[] label = hex(t, "label");
                OAEPParameterSpec params = byName && label.length == 0 ? null
                        : new OAEPParameterSpec(spec.getDigestAlgorithm(), "MGF1", spec.getMGFParameters(),
                                new PSource.PSpecified(label));
                unlabelled += params == null ? 1 : 0;
                Cipher c = Cipher.getInstance(transformation, PARCRYPT);
                c.init(Cipher.DECRYPT_MODE, key, params);
                if (t.get("result").asText().equals("valid")) {
                    assertArrayEquals(hex(t, "msg"), c.doFinal(hex(t, "ct")), id(file, t));
                    Cipher enc = Cipher.getInstance(transformation, PARCRYPT);
                    enc.init(Cipher.ENCRYPT_MODE, pub, params);
                    Cipher sun = Cipher.getInstance(transformation, "SunJCE");
                    sun.init(Cipher.DECRYPT_MODE, key, params);
                    assertArrayEquals(hex(t, "msg"), sun.doFinal(enc.doFinal(hex(t, "msg"))), id(file, t) + " encrypted");
                } else if (t.get("result").asText().equals("invalid")) {
                    try {
                        c.doFinal(hex(t, "ct"));
                        fail("accepted " + id(file, t));
                    } catch (BadPaddingException | IllegalBlockSizeException expected) {
                        // rejected, as it must be
                    }
                }
                run++;
            }
        }
        assertTrue(run > 30, file);
        assertTrue(!byName || unlabelled > 20, file);
    }
}
