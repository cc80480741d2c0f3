package dev.parcrypt.jca;

import java.nio.ByteBuffer;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code AES/GCM/NoPadding}: standard AES-GCM (128- or 256-bit keys, 96-bit
 * nonce, 128-bit tag), the whole message cut across cores.
 *
 * <p>Both directions buffer until {@code doFinal}, which seals or opens the
 * message in one parallel call: decryption checks the tag before any
 * plaintext is returned (as SunJCE does), and encryption gets the parallel
 * path for the whole message. As SunJCE, an encrypting instance refuses to
 * run twice with the same key and nonce.
 *
 * <p>An output array or buffer handed to a decrypting {@code doFinal} is
 * unspecified until decryption succeeds and is zeroed on a wrong tag
 * ({@code AEADBadTagException}), or left untouched (a message of up to
 * 2 KiB opened into an array); in place, where the output is the input, it
 * holds the ciphertext again. It never holds plaintext of a message whose
 * tag failed. Direct buffers are used in place when the output starts where
 * the input does; two views of one buffer that overlap otherwise are refused
 * ({@code IllegalArgumentException}) before anything is read or written.
 */
public final class AesGcmCipher extends BufferingCipher {
    private static final int TAG = 16;
    private static final int NONCE = 12;

    private final ParcryptProvider provider;
    private NativeRef gcm;
    private byte[] key;
    private byte[] nonce;
    /** The nonce as native code takes it: bytes 0–7 and 8–11, big-endian. */
    private long nonceHead;
    private int nonceTail;
    /**
     * The {@code Key} of the last init when it is a {@link SecretKeySpec}
     * (whose bytes never change): an init with the same object skips
     * {@code getEncoded} and every comparison of key bytes.
     */
    private Key keyObject;
    private boolean encrypt;
    private boolean initialized;
    /** After an encryption's doFinal: a new key or nonce is needed. */
    private boolean needsNewNonce;
    private final Buf aad = new Buf();
    private byte[] lastEncryptionKey;
    private byte[] lastEncryptionNonce;
    /** Whether {@code lastEncryptionKey} holds the bytes of {@code key}. */
    private boolean lastEncryptionKeyIsCurrent;

    public AesGcmCipher(ParcryptProvider provider) {
        super(GCMParameterSpec.class, "GCM parameters are needed");
        this.provider = provider;
    }

    @Override
    protected void engineSetMode(String mode) throws NoSuchAlgorithmException {
        if (!"GCM".equalsIgnoreCase(mode)) {
            throw new NoSuchAlgorithmException("only GCM mode, not " + mode);
        }
    }

    @Override
    protected void engineSetPadding(String padding) throws NoSuchPaddingException {
        if (!"NoPadding".equalsIgnoreCase(padding)) {
            throw new NoSuchPaddingException("GCM takes NoPadding, not " + padding);
        }
    }

    @Override
    protected int engineGetBlockSize() {
        return 16;
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
        long total = (long) buffered.size() + inputLen;
        long out = encrypt ? total + TAG : Math.max(0, total - TAG);
        return (int) Math.min(Integer.MAX_VALUE, out);
    }

    @Override
    protected byte[] engineGetIV() {
        return nonce == null ? null : nonce.clone();
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (nonce == null) {
            return null;
        }
        // This provider's own GCM parameters (GcmParameters).
        return parameters("GCM", provider, new GCMParameterSpec(TAG * 8, nonce));
    }

    @Override
    protected int engineGetKeySize(Key key) throws InvalidKeyException {
        return rawAesKey(key).length * 8;
    }

    static byte[] rawAesKey(Key key) throws InvalidKeyException {
        if (key == null) {
            throw new InvalidKeyException("the key is null");
        }
        if (!"AES".equalsIgnoreCase(key.getAlgorithm()) || !"RAW".equalsIgnoreCase(key.getFormat())) {
            throw new InvalidKeyException("an AES key (algorithm AES, format RAW) is needed, got " + key.getAlgorithm()
                    + "/" + key.getFormat());
        }
        byte[] raw = key.getEncoded();
        if (raw == null) {
            throw new InvalidKeyException("the AES key has no encoding");
        }
        return raw;
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        boolean enc = encrypting(opmode);
        // The same SecretKeySpec again (a new nonce on the same Cipher, the
        // common case): its bytes are this.key's, already checked.
        boolean sameKeyObject = key != null && key == keyObject;
        byte[] raw = null;
        if (!sameKeyObject) {
            raw = rawAesKey(key);
            if (raw.length != 16 && raw.length != 32) {
                int n = raw.length;
                Arrays.fill(raw, (byte) 0);
                throw new InvalidKeyException("AES-GCM key must be 16 or 32 bytes (AES-128/256), got " + n);
            }
        }
        byte[] iv;
        if (params == null) {
            if (!enc) {
                throw new InvalidAlgorithmParameterException("GCM decryption needs a GCMParameterSpec (the nonce)");
            }
            iv = new byte[NONCE];
            (random != null ? random : new SecureRandom()).nextBytes(iv);
        } else if (params instanceof GCMParameterSpec) {
            GCMParameterSpec gcmSpec = (GCMParameterSpec) params;
            if (gcmSpec.getTLen() != TAG * 8) {
                throw new InvalidAlgorithmParameterException("parcrypt's GCM tags are 128 bits, not " + gcmSpec.getTLen());
            }
            iv = gcmSpec.getIV();
            if (iv.length != NONCE) {
                throw new InvalidAlgorithmParameterException("GCM nonce must be 12 bytes (96 bits), got " + iv.length);
            }
        } else {
            throw new InvalidAlgorithmParameterException("GCM takes a GCMParameterSpec, not " + params.getClass().getName());
        }
        if (enc && lastEncryptionNonce != null && Arrays.equals(iv, lastEncryptionNonce)
                && (sameKeyObject ? lastEncryptionKeyIsCurrent : Arrays.equals(raw, lastEncryptionKey))) {
            throw new InvalidAlgorithmParameterException("Cannot reuse iv for GCM encryption");
        }
        if (!sameKeyObject) {
            // The same key bytes again keep their expanded native key:
            // expanding it costs more than sealing a small message.
            boolean sameKey = gcm != null && this.key != null && MessageDigest.isEqual(raw, this.key);
            if (!sameKey) {
                NativeRef fresh = new NativeRef(Native.gcmNew(raw), Native::gcmFree);
                if (gcm != null) {
                    gcm.close();
                }
                gcm = fresh;
            }
            if (this.key != null) {
                Arrays.fill(this.key, (byte) 0);
            }
            this.key = raw;
            // Only the JDK's own class is known not to change its bytes.
            keyObject = key.getClass() == SecretKeySpec.class ? key : null;
            lastEncryptionKeyIsCurrent = lastEncryptionKey != null && MessageDigest.isEqual(raw, lastEncryptionKey);
        }
        this.nonce = iv;
        this.nonceHead = bigEndian(iv, 0, 8);
        this.nonceTail = (int) bigEndian(iv, 8, 4);
        this.encrypt = enc;
        if (enc) {
            // A new init is the common case per message: copy the key only
            // when it changed. The nonce is this cipher's own copy (from
            // getIV or generated) and never written, so it is shared.
            if (!lastEncryptionKeyIsCurrent) {
                if (lastEncryptionKey != null) {
                    Arrays.fill(lastEncryptionKey, (byte) 0);
                }
                lastEncryptionKey = this.key.clone();
                lastEncryptionKeyIsCurrent = true;
            }
            lastEncryptionNonce = iv;
        }
        initialized = true;
        needsNewNonce = false;
        reset();
    }

    /** {@code n} (at most 8) bytes of {@code b} from {@code off}, big-endian. */
    private static long bigEndian(byte[] b, int off, int n) {
        long v = 0;
        for (int i = off; i < off + n; i++) {
            v = v << 8 | (b[i] & 0xff);
        }
        return v;
    }

    private void reset() {
        aad.clear();
        buffered.clear();
    }

    @Override
    void checkReady() {
        if (!initialized) {
            throw new IllegalStateException("Cipher not initialized");
        }
        if (needsNewNonce) {
            throw new IllegalStateException("Must use either different key or iv for GCM encryption");
        }
    }

    @Override
    protected void engineUpdateAAD(byte[] src, int offset, int len) {
        checkReady();
        if (buffered.size() > 0) {
            throw new IllegalStateException("AAD must be supplied before encryption/decryption starts");
        }
        java.util.Objects.checkFromIndexSize(offset, len, src.length);
        aad.append(src, offset, len);
    }

    @Override
    protected void engineUpdateAAD(ByteBuffer src) {
        byte[] bytes = new byte[src.remaining()];
        src.get(bytes);
        engineUpdateAAD(bytes, 0, bytes.length);
    }

    @Override
    protected byte[] engineDoFinal(byte[] input, int inputOffset, int inputLen)
            throws IllegalBlockSizeException, BadPaddingException {
        checkReady();
        int outLen = engineGetOutputSize(input == null ? 0 : inputLen);
        if (!encrypt && (long) buffered.size() + (input == null ? 0 : inputLen) < TAG) {
            reset();
            throw new AEADBadTagException("Input data too short to contain an expected tag length of 16bytes");
        }
        byte[] out = new byte[outLen];
        try {
            finish(input, inputOffset, input == null ? 0 : inputLen, out, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException("output sized by getOutputSize was too short", e);
        }
        return out;
    }

    @Override
    protected int engineDoFinal(byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        checkReady();
        return finish(input, inputOffset, input == null ? 0 : inputLen, output, outputOffset);
    }

    private int finish(byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
            throws ShortBufferException, AEADBadTagException {
        if (inputLen > 0) {
            java.util.Objects.checkFromIndexSize(inputOffset, inputLen, input.length);
        }
        long total = (long) buffered.size() + inputLen;
        if (!encrypt && total < TAG) {
            reset();
            throw new AEADBadTagException("Input data too short to contain an expected tag length of 16bytes");
        }
        long need = encrypt ? total + TAG : total - TAG;
        if (need > Integer.MAX_VALUE) {
            throw new IllegalStateException("output over 2 GiB");
        }
        if (output == null || outputOffset < 0 || output.length - outputOffset < need) {
            throw new ShortBufferException("need " + need + " bytes of output space");
        }
        // The whole message in one array: the caller's own when nothing was buffered.
        byte[] src = input;
        int off = inputOffset;
        if (buffered.size() > 0) {
            buffered.append(input, inputOffset, inputLen);
            src = buffered.array();
            off = 0;
        } else if (src == null) {
            src = new byte[0];
            off = 0;
        }
        int len = (int) total;
        byte[] aadBytes = aad.copy(true);
        long h = gcm.acquire();
        try {
            if (encrypt) {
                return Native.gcmSeal(h, nonceHead, nonceTail, aadBytes, src, off, len, output, outputOffset,
                        provider.threads(), provider.strategyCode());
            }
            return Native.gcmOpen(h, nonceHead, nonceTail, aadBytes, src, off, len, output, outputOffset,
                    provider.threads(), provider.strategyCode());
        } finally {
            gcm.release();
            reset();
            if (encrypt) {
                needsNewNonce = true;
            }
        }
    }

    @Override
    protected int engineDoFinal(ByteBuffer input, ByteBuffer output)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        checkReady();
        // Direct buffers with nothing buffered: native code works on them in place, no copy.
        if (input.isDirect() && output.isDirect() && !output.isReadOnly() && buffered.size() == 0) {
            int len = input.remaining();
            if (!encrypt && len < TAG) {
                reset();
                throw new AEADBadTagException("Input data too short to contain an expected tag length of 16bytes");
            }
            long need = encrypt ? (long) len + TAG : len - TAG;
            if (output.remaining() < need) {
                throw new ShortBufferException("need " + need + " bytes of output space");
            }
            byte[] aadBytes = aad.copy(true);
            long h = gcm.acquire();
            int written;
            try {
                if (encrypt) {
                    written = Native.gcmSealDirect(h, nonceHead, nonceTail, aadBytes, input, input.position(), len, output,
                            output.position(), provider.threads(), provider.strategyCode());
                } else {
                    written = Native.gcmOpenDirect(h, nonceHead, nonceTail, aadBytes, input, input.position(), len, output,
                            output.position(), provider.threads(), provider.strategyCode());
                }
            } finally {
                gcm.release();
                reset();
                if (encrypt) {
                    needsNewNonce = true;
                }
            }
            input.position(input.position() + len);
            output.position(output.position() + written);
            return written;
        }
        return super.engineDoFinal(input, output);
    }
}
