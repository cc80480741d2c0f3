package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.AlgorithmParameters;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;
import org.junit.jupiter.api.Test;

/** PKCS#8 EncryptedPrivateKeyInfo (PBES2) against the JDK's own PBES2, both ways. */
class EncryptedKeyTest {
    /** ASCII: the JDK's PBE keys refuse anything else. */
    private static final char[] PASSWORD = "correct-horse".toCharArray();

    private static KeyPair ecPair() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", PARCRYPT);
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    /** The JDK decrypts as its documentation says: a PBE key, a Cipher, getKeySpec. */
    private static PKCS8EncodedKeySpec jdkDecrypt(byte[] der, char[] password) throws Exception {
        EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
        // JDK 17 names the scheme "PBES2"; its parameters name the Cipher.
        String alg = info.getAlgParameters().toString();
        SecretKeyFactory skf = SecretKeyFactory.getInstance(alg);
        SecretKey key = skf.generateSecret(new PBEKeySpec(password));
        Cipher cipher = Cipher.getInstance(alg);
        cipher.init(Cipher.DECRYPT_MODE, key, info.getAlgParameters());
        return info.getKeySpec(cipher);
    }

    @Test
    void parcryptsEncryptedKeysAreReadByTheJdk() throws Exception {
        KeyPair ec = ecPair();
        KeyPairGenerator rg = KeyPairGenerator.getInstance("RSA", PARCRYPT);
        rg.initialize(2048);
        KeyPair rsa = rg.generateKeyPair();
        for (PrivateKey key : new PrivateKey[] {ec.getPrivate(), rsa.getPrivate()}) {
            for (int bits : new int[] {128, 192, 256}) {
                byte[] der = ParcryptKeys.encryptPrivateKey(key, PASSWORD, bits, bits == 192 ? 10000 : 0);
                PKCS8EncodedKeySpec spec = ParcryptKeys.decryptPrivateKey(der, PASSWORD);
                if (bits != 192) {
                    // The JDK's PBES2 has AES-128 and AES-256 only.
                    assertArrayEquals(key.getEncoded(), jdkDecrypt(der, PASSWORD).getEncoded());
                }
                assertArrayEquals(key.getEncoded(), spec.getEncoded());
                assertArrayEquals(key.getEncoded(), ParcryptKeys.decryptPrivateKey(der, PASSWORD).getEncoded());
                PrivateKey back = KeyFactory.getInstance(key.getAlgorithm(), PARCRYPT).generatePrivate(spec);
                assertArrayEquals(key.getEncoded(), back.getEncoded());
            }
        }
    }

    @Test
    void theJdksEncryptedKeysAreReadByParcrypt() throws Exception {
        KeyPair ec = ecPair();
        byte[] pkcs8 = ec.getPrivate().getEncoded();
        SecureRandom random = new SecureRandom();
        for (String alg : new String[] {"PBEWithHmacSHA256AndAES_256", "PBEWithHmacSHA1AndAES_128",
                "PBEWithHmacSHA512AndAES_256", "PBEWithHmacSHA384AndAES_128"}) {
            byte[] salt = new byte[16];
            byte[] iv = new byte[16];
            random.nextBytes(salt);
            random.nextBytes(iv);
            SecretKey key = SecretKeyFactory.getInstance(alg).generateSecret(new PBEKeySpec(PASSWORD));
            Cipher cipher = Cipher.getInstance(alg);
            cipher.init(Cipher.ENCRYPT_MODE, key, new PBEParameterSpec(salt, 4096, new IvParameterSpec(iv)));
            AlgorithmParameters params = cipher.getParameters();
            // JDK 17's EncryptedPrivateKeyInfo(AlgorithmParameters, byte[]) does not
            // know PBES2's names: the DER by hand, with the JDK's encoded parameters.
            byte[] der = tlv(0x30, concat(
                    tlv(0x30, concat(PBES2_OID, params.getEncoded())),
                    tlv(0x04, cipher.doFinal(pkcs8))));
            assertArrayEquals(pkcs8, ParcryptKeys.decryptPrivateKey(der, PASSWORD).getEncoded(), alg);
            assertArrayEquals(pkcs8,
                    ParcryptKeys.decryptPrivateKey(new EncryptedPrivateKeyInfo(der), PASSWORD).getEncoded(), alg);
        }
    }

    /** 1.2.840.113549.1.5.13, as a DER OID. */
    private static final byte[] PBES2_OID = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x05, 0x0d};

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] tlv(int tag, byte[] body) {
        int n = body.length;
        byte[] head = n < 0x80 ? new byte[] {(byte) tag, (byte) n}
                : n < 0x100 ? new byte[] {(byte) tag, (byte) 0x81, (byte) n}
                : new byte[] {(byte) tag, (byte) 0x82, (byte) (n >> 8), (byte) n};
        return concat(head, body);
    }

    @Test
    void wrongPasswordsAndBadInputAreInvalidKeyExceptions() throws Exception {
        byte[] der = ParcryptKeys.encryptPrivateKey(ecPair().getPrivate(), PASSWORD);
        InvalidKeyException e = assertThrows(InvalidKeyException.class,
                () -> ParcryptKeys.decryptPrivateKey(der, "wrong".toCharArray()));
        assertTrue(e.getMessage().contains("bad decrypt"), e.getMessage());
        assertThrows(InvalidKeyException.class,
                () -> ParcryptKeys.decryptPrivateKey(Arrays.copyOf(der, der.length - 5), PASSWORD));
        assertThrows(InvalidKeyException.class, () -> ParcryptKeys.decryptPrivateKey(new byte[] {0x30, 0}, PASSWORD));
        // Non-ASCII passwords are UTF-8, as openssl and pyca take them.
        char[] unicode = "pässwörd".toCharArray();
        byte[] other = ParcryptKeys.encryptPrivateKey(ecPair().getPrivate(), unicode);
        ParcryptKeys.decryptPrivateKey(other, unicode);
        assertThrows(InvalidKeyException.class, () -> ParcryptKeys.decryptPrivateKey(other, "passwort".toCharArray()));
    }
}
