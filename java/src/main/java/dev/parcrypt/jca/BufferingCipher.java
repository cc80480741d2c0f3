package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Objects;
import javax.crypto.BadPaddingException;
import javax.crypto.IllegalBlockSizeException;

/**
 * What {@link AesGcmCipher} and {@link RsaOaepCipher} share: {@code update}
 * only buffers (GCM so that the tag is checked before any plaintext leaves,
 * OAEP because RSA takes the message in one piece), {@code doFinal} works on
 * the whole message, and wrapping a key is a {@code doFinal} over its encoding.
 */
abstract class BufferingCipher extends CipherBase {
    /** The bytes {@code update} gave since the last init or {@code doFinal}. */
    final Buf buffered = new Buf();

    BufferingCipher(Class<? extends AlgorithmParameterSpec> specClass, String specNeeded) {
        super(specClass, specNeeded);
    }

    /** Throws {@link IllegalStateException} unless the cipher may take data now. */
    abstract void checkReady();

    @Override
    protected byte[] engineUpdate(byte[] input, int inputOffset, int inputLen) {
        checkReady();
        if (input != null && inputLen > 0) {
            Objects.checkFromIndexSize(inputOffset, inputLen, input.length);
            buffered.append(input, inputOffset, inputLen);
        }
        return new byte[0];
    }

    @Override
    protected int engineUpdate(byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset) {
        engineUpdate(input, inputOffset, inputLen);
        return 0;
    }

    @Override
    protected byte[] engineWrap(Key key) throws IllegalBlockSizeException, InvalidKeyException {
        byte[] encoded = Wrap.encoding(key);
        try {
            return engineDoFinal(encoded, 0, encoded.length);
        } catch (BadPaddingException e) {
            throw new InvalidKeyException("wrapping failed", e);
        } finally {
            java.util.Arrays.fill(encoded, (byte) 0);
        }
    }

    @Override
    protected Key engineUnwrap(byte[] wrappedKey, String wrappedKeyAlgorithm, int wrappedKeyType)
            throws InvalidKeyException, NoSuchAlgorithmException {
        byte[] encoded;
        try {
            encoded = engineDoFinal(wrappedKey, 0, wrappedKey.length);
        } catch (IllegalBlockSizeException | BadPaddingException e) {
            throw new InvalidKeyException("unwrapping failed: " + e.getMessage(), e);
        }
        return Wrap.unwrapped(encoded, wrappedKeyAlgorithm, wrappedKeyType);
    }
}
