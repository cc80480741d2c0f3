package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/** {@code Cipher.wrap} / {@code unwrap} for the ciphers that offer them: a key's encoding, encrypted. */
final class Wrap {
    private Wrap() {}

    static byte[] encoding(Key key) throws InvalidKeyException {
        byte[] encoded = key == null ? null : key.getEncoded();
        if (encoded == null) {
            throw new InvalidKeyException("the key has no encoding to wrap");
        }
        return encoded;
    }

    /** The key whose encoding is {@code encoded}; {@code type} is a {@code Cipher.*_KEY} constant. */
    static Key unwrapped(byte[] encoded, String algorithm, int type) throws InvalidKeyException, NoSuchAlgorithmException {
        try {
            switch (type) {
                case Cipher.SECRET_KEY:
                    return new SecretKeySpec(encoded, algorithm);
                case Cipher.PRIVATE_KEY:
                    return java.security.KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(encoded));
                case Cipher.PUBLIC_KEY:
                    return java.security.KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(encoded));
                default:
                    throw new InvalidKeyException("unknown wrapped key type " + type);
            }
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException("the unwrapped bytes are not a " + algorithm + " key", e);
        } finally {
            Arrays.fill(encoded, (byte) 0);
        }
    }
}
