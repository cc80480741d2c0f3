package dev.parcrypt.jca;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.IvParameterSpec;

/**
 * {@code AES/CTR/NoPadding} and {@code AES/CBC/PKCS5Padding} over parcrypt's
 * streaming crypter: CTR runs on all cores in both directions, CBC
 * decryption too (CBC encryption is serial by nature). Output is returned
 * as soon as it is ready, as SunJCE does (CBC holds back a partial block, and
 * when decrypting the last block until {@code doFinal}).
 */
public abstract class AesCipher extends CipherBase {
    private final ParcryptProvider provider;
    private final boolean ctr;
    private NativeRef crypter;
    private byte[] key;
    private byte[] iv;
    private boolean encrypt;

    AesCipher(ParcryptProvider provider, boolean ctr) {
        super(IvParameterSpec.class, "an IV is needed");
        this.provider = provider;
        this.ctr = ctr;
    }

    /** {@code AES/CTR/NoPadding}: the IV is the 16-byte initial counter block (128-bit big-endian counter). */
    public static final class Ctr extends AesCipher {
        public Ctr(ParcryptProvider provider) {
            super(provider, true);
        }
    }

    /** {@code AES/CBC/PKCS5Padding} (PKCS#7 padding on 16-byte blocks). */
    public static final class Cbc extends AesCipher {
        public Cbc(ParcryptProvider provider) {
            super(provider, false);
        }
    }

    @Override
    protected void engineSetMode(String mode) throws NoSuchAlgorithmException {
        if (!(ctr ? "CTR" : "CBC").equalsIgnoreCase(mode)) {
            throw new NoSuchAlgorithmException("mode " + mode + " is not offered here");
        }
    }

    @Override
    protected void engineSetPadding(String padding) throws NoSuchPaddingException {
        String want = ctr ? "NoPadding" : "PKCS5Padding";
        if (!want.equalsIgnoreCase(padding)) {
            throw new NoSuchPaddingException("this cipher takes " + want + ", not " + padding);
        }
    }

    @Override
    protected int engineGetBlockSize() {
        return 16;
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
        if (crypter == null) {
            return inputLen + 16;
        }
        long h = crypter.acquire();
        try {
            return Native.crypterUpdateLen(h, inputLen) + 16;
        } finally {
            crypter.release();
        }
    }

    @Override
    protected byte[] engineGetIV() {
        return iv == null ? null : iv.clone();
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (iv == null) {
            return null;
        }
        return parameters("AES", null, new IvParameterSpec(iv));
    }

    @Override
    protected int engineGetKeySize(Key key) throws InvalidKeyException {
        return AesGcmCipher.rawAesKey(key).length * 8;
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        boolean enc;
        if (opmode == Cipher.ENCRYPT_MODE) {
            enc = true;
        } else if (opmode == Cipher.DECRYPT_MODE) {
            enc = false;
        } else {
            // Key wrapping wants authentication: AES/GCM/NoPadding or RSA/ECB/OAEPPadding offer it.
            throw new java.security.InvalidParameterException("AES-CTR/CBC here encrypt and decrypt only (mode "
                    + opmode + "); wrap keys with AES/GCM/NoPadding or RSA/ECB/OAEPPadding");
        }
        byte[] raw = AesGcmCipher.rawAesKey(key);
        if (raw.length != 16 && raw.length != 24 && raw.length != 32) {
            int n = raw.length;
            Arrays.fill(raw, (byte) 0);
            throw new InvalidKeyException("AES key must be 16, 24 or 32 bytes, got " + n);
        }
        byte[] newIv;
        if (params == null) {
            if (!enc) {
                throw new InvalidAlgorithmParameterException("decryption needs an IvParameterSpec");
            }
            newIv = new byte[16];
            (random != null ? random : new SecureRandom()).nextBytes(newIv);
        } else if (params instanceof IvParameterSpec) {
            newIv = ((IvParameterSpec) params).getIV();
            if (newIv.length != 16) {
                throw new InvalidAlgorithmParameterException("IV must be 16 bytes, got " + newIv.length);
            }
        } else {
            throw new InvalidAlgorithmParameterException("this cipher takes an IvParameterSpec, not "
                    + params.getClass().getName());
        }
        if (this.key != null) {
            Arrays.fill(this.key, (byte) 0);
        }
        this.key = raw;
        this.iv = newIv;
        this.encrypt = enc;
        restart();
    }

    private void restartAfterFinal() {
        try {
            restart();
        } catch (InvalidKeyException e) {
            throw new java.security.ProviderException("cannot reset the cipher", e);
        }
    }

    /** A fresh crypter at the start of the message (after init and after each doFinal). */
    private void restart() throws InvalidKeyException {
        int mode = ctr ? 0 : encrypt ? 1 : 2;
        long h;
        try {
            h = Native.crypterNew(mode, key, iv);
        } catch (InvalidAlgorithmParameterException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
        NativeRef fresh = new NativeRef(h, Native::crypterFree);
        if (crypter != null) {
            crypter.close();
        }
        crypter = fresh;
    }

    private void checkInit() {
        if (crypter == null) {
            throw new IllegalStateException("Cipher not initialized");
        }
    }

    @Override
    protected byte[] engineUpdate(byte[] input, int inputOffset, int inputLen) {
        checkInit();
        if (input == null || inputLen == 0) {
            return new byte[0];
        }
        java.util.Objects.checkFromIndexSize(inputOffset, inputLen, input.length);
        long h = crypter.acquire();
        try {
            byte[] out = new byte[Native.crypterUpdateLen(h, inputLen)];
            Native.crypterUpdate(h, input, inputOffset, inputLen, out, 0, provider.threads(), provider.strategyCode());
            return out;
        } finally {
            crypter.release();
        }
    }

    @Override
    protected int engineUpdate(byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
            throws ShortBufferException {
        checkInit();
        if (input == null || inputLen == 0) {
            return 0;
        }
        java.util.Objects.checkFromIndexSize(inputOffset, inputLen, input.length);
        long h = crypter.acquire();
        try {
            int need = Native.crypterUpdateLen(h, inputLen);
            if (output == null || outputOffset < 0 || output.length - outputOffset < need) {
                throw new ShortBufferException("need " + need + " bytes of output space");
            }
            return Native.crypterUpdate(h, input, inputOffset, inputLen, output, outputOffset, provider.threads(),
                    provider.strategyCode());
        } finally {
            crypter.release();
        }
    }

    @Override
    protected byte[] engineDoFinal(byte[] input, int inputOffset, int inputLen)
            throws IllegalBlockSizeException, BadPaddingException {
        checkInit();
        try {
            byte[] head = engineUpdate(input, inputOffset, inputLen);
            byte[] tail = finishNative();
            if (tail.length == 0) {
                return head;
            }
            byte[] out = Arrays.copyOf(head, head.length + tail.length);
            System.arraycopy(tail, 0, out, head.length, tail.length);
            Arrays.fill(head, (byte) 0);
            Arrays.fill(tail, (byte) 0);
            return out;
        } finally {
            restartAfterFinal();
        }
    }

    @Override
    protected int engineDoFinal(byte[] input, int inputOffset, int inputLen, byte[] output, int outputOffset)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        checkInit();
        // Checked before anything is consumed, so that a caller may retry with a bigger buffer.
        int most = engineGetOutputSize(input == null ? 0 : inputLen);
        if (output == null || outputOffset < 0 || output.length - outputOffset < most - (encrypt || ctr ? 0 : 16)) {
            throw new ShortBufferException("need up to " + most + " bytes of output space");
        }
        return copyOut(engineDoFinal(input, inputOffset, inputLen), output, outputOffset);
    }

    private byte[] finishNative() throws IllegalBlockSizeException, BadPaddingException {
        long h = crypter.acquire();
        try {
            return Native.crypterFinish(h);
        } finally {
            crypter.release();
        }
    }
}
