package dev.parcrypt.jca;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.EncryptedPrivateKeyInfo;

/**
 * Password-protected private keys: PKCS#8 {@code EncryptedPrivateKeyInfo}
 * (PBES2), as {@code openssl genpkey -aes256}, pyca/cryptography and the
 * JDK write them.
 *
 * <pre>{@code
 * byte[] der = ParcryptKeys.encryptPrivateKey(key, password);        // = openssl genpkey -aes256
 * EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);  // the JDK reads it
 * PKCS8EncodedKeySpec spec = ParcryptKeys.decryptPrivateKey(info, password);
 * PrivateKey back = KeyFactory.getInstance("EC", "Parcrypt").generatePrivate(spec);
 * }</pre>
 *
 * <p>Read: PBES2 with PBKDF2 (HMAC-SHA1/224/256/384/512) or scrypt, and
 * AES-128/192/256-CBC; the JDK's own PBES1 schemes (3DES, RC2) are refused.
 * Written: PBKDF2-HMAC-SHA256 (2048 iterations unless told) and AES-256-CBC
 * unless told, a random salt and IV, which the JDK reads back with
 * {@code EncryptedPrivateKeyInfo.getKeySpec(Cipher)} under
 * {@code PBEWithHmacSHA256AndAES_256}. The password is taken as UTF-8, as
 * the JDK's PBKDF2 takes it; its bytes are wiped after use.
 *
 * <p>A key whose password derivation costs more than OpenSSL 3 allows
 * (scrypt memory over 32 MiB, N·r·p over 2^21, PBKDF2 over 2,000,000
 * iterations: about a second of one core at most) is refused before any
 * work with an {@code InvalidKeyException}, and no more is written.
 */
public final class ParcryptKeys {
    private ParcryptKeys() {}

    /**
     * The {@code PrivateKeyInfo} inside {@code encrypted} (DER), ready for any
     * {@code KeyFactory}.
     *
     * @throws InvalidKeyException a wrong password (the message says "bad
     *     decrypt"), or an encrypted key that cannot be read
     */
    public static PKCS8EncodedKeySpec decryptPrivateKey(byte[] encrypted, char[] password)
            throws InvalidKeyException {
        byte[] pw = utf8(password);
        byte[] der = null;
        try {
            der = Native.pkcs8Decrypt(encrypted, pw);
            return new PKCS8EncodedKeySpec(der);
        } finally {
            Arrays.fill(pw, (byte) 0);
            if (der != null) {
                Arrays.fill(der, (byte) 0);
            }
        }
    }

    /** {@link #decryptPrivateKey(byte[], char[])} of the JDK's parsed form. */
    public static PKCS8EncodedKeySpec decryptPrivateKey(EncryptedPrivateKeyInfo encrypted, char[] password)
            throws InvalidKeyException {
        try {
            return decryptPrivateKey(encrypted.getEncoded(), password);
        } catch (java.io.IOException e) {
            throw new InvalidKeyException("cannot encode the EncryptedPrivateKeyInfo", e);
        }
    }

    /** {@code key} encrypted as OpenSSL 3 writes it: AES-256-CBC, PBKDF2-HMAC-SHA256, 2048 iterations. */
    public static byte[] encryptPrivateKey(PrivateKey key, char[] password) throws InvalidKeyException {
        try {
            return encryptPrivateKey(key, password, 256, 0);
        } catch (InvalidAlgorithmParameterException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code key} (any provider's, whose {@code getEncoded()} is PKCS#8) as a
     * DER {@code EncryptedPrivateKeyInfo}: AES-{@code keyBits}-CBC (128, 192
     * or 256), PBKDF2-HMAC-SHA256 with {@code iterations} (0: OpenSSL's 2048;
     * at most 2,000,000, what a reader here allows).
     */
    public static byte[] encryptPrivateKey(PrivateKey key, char[] password, int keyBits, int iterations)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        if (!"PKCS#8".equals(key.getFormat())) {
            throw new InvalidKeyException("the key does not encode as PKCS#8: " + key.getFormat());
        }
        int cipher;
        switch (keyBits) {
            case 128: cipher = 0; break;
            case 192: cipher = 1; break;
            case 256: cipher = 2; break;
            default: throw new InvalidAlgorithmParameterException("AES key bits must be 128, 192 or 256: " + keyBits);
        }
        byte[] der = key.getEncoded();
        byte[] pw = utf8(password);
        try {
            return Native.pkcs8Encrypt(der, pw, cipher, iterations);
        } finally {
            Arrays.fill(pw, (byte) 0);
            Arrays.fill(der, (byte) 0);
        }
    }

    /** The password's UTF-8 bytes, without an intermediate String. */
    private static byte[] utf8(char[] password) {
        ByteBuffer buf = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
        byte[] out = new byte[buf.remaining()];
        buf.get(out);
        if (buf.hasArray()) {
            Arrays.fill(buf.array(), (byte) 0);
        }
        return out;
    }
}
