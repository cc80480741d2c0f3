package dev.parcrypt.jca;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.RSAKey;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.security.spec.MGF1ParameterSpec;
import java.util.Arrays;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/**
 * {@code RSA/ECB/OAEPPadding} with an {@link OAEPParameterSpec}.
 *
 * <p>Decryption takes SHA-1/256/384/512 for the hash and for MGF1, and any
 * label; with no parameters it uses the JCA default (SHA-1, MGF1-SHA-1, no
 * label). Encryption is SHA-256 with MGF1-SHA-256 and no label (parcrypt
 * never encrypts with SHA-1), so it needs that spec: {@code new
 * OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256,
 * PSource.PSpecified.DEFAULT)}. The private operation's CRT halves run on two
 * threads; a failed decryption is one opaque {@code BadPaddingException}.
 */
public final class RsaOaepCipher extends BufferingCipher {
    private final ParcryptProvider provider;
    private boolean encrypt;
    private RsaKeys.Public pub;
    private RsaKeys.Private priv;
    private OAEPParameterSpec spec;
    private int hash;
    private int mgf1;
    private byte[] label;

    public RsaOaepCipher(ParcryptProvider provider) {
        this.provider = provider;
    }

    @Override
    protected void engineSetMode(String mode) throws NoSuchAlgorithmException {
        if (!"ECB".equalsIgnoreCase(mode) && !"NONE".equalsIgnoreCase(mode)) {
            throw new NoSuchAlgorithmException("RSA takes mode ECB (one block), not " + mode);
        }
    }

    @Override
    protected void engineSetPadding(String padding) throws NoSuchPaddingException {
        if (!"OAEPPadding".equalsIgnoreCase(padding)) {
            throw new NoSuchPaddingException("only OAEPPadding (with an OAEPParameterSpec), not " + padding);
        }
    }

    @Override
    protected int engineGetBlockSize() {
        return 0;
    }

    private int modulusBytes() {
        RSAKey k = encrypt ? pub : priv;
        return k == null ? 0 : (k.getModulus().bitLength() + 7) / 8;
    }

    @Override
    protected int engineGetOutputSize(int inputLen) {
        return modulusBytes();
    }

    @Override
    protected byte[] engineGetIV() {
        return null;
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (spec == null) {
            return null;
        }
        try {
            AlgorithmParameters p = AlgorithmParameters.getInstance("OAEP");
            p.init(spec);
            return p;
        } catch (NoSuchAlgorithmException | InvalidParameterSpecException e) {
            return null;
        }
    }

    @Override
    protected int engineGetKeySize(Key key) throws InvalidKeyException {
        if (!(key instanceof RSAKey)) {
            throw new InvalidKeyException("not an RSA key");
        }
        return ((RSAKey) key).getModulus().bitLength();
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) throws InvalidKeyException {
        try {
            engineInit(opmode, key, (AlgorithmParameterSpec) null, random);
        } catch (InvalidAlgorithmParameterException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        OAEPParameterSpec s = null;
        if (params != null) {
            try {
                s = params.getParameterSpec(OAEPParameterSpec.class);
            } catch (InvalidParameterSpecException e) {
                throw new InvalidAlgorithmParameterException("OAEP parameters are needed", e);
            }
        }
        engineInit(opmode, key, s, random);
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        boolean enc;
        if (opmode == Cipher.ENCRYPT_MODE || opmode == Cipher.WRAP_MODE) {
            enc = true;
        } else if (opmode == Cipher.DECRYPT_MODE || opmode == Cipher.UNWRAP_MODE) {
            enc = false;
        } else {
            throw new java.security.InvalidParameterException("unknown mode " + opmode);
        }
        OAEPParameterSpec s;
        if (params == null) {
            s = OAEPParameterSpec.DEFAULT;
        } else if (params instanceof OAEPParameterSpec) {
            s = (OAEPParameterSpec) params;
        } else {
            throw new InvalidAlgorithmParameterException("RSA-OAEP takes an OAEPParameterSpec");
        }
        int h = Hasher.codeOf(s.getDigestAlgorithm());
        if (h < 0) {
            throw new InvalidAlgorithmParameterException("unsupported OAEP digest " + s.getDigestAlgorithm());
        }
        if (!"MGF1".equalsIgnoreCase(s.getMGFAlgorithm()) || !(s.getMGFParameters() instanceof MGF1ParameterSpec)) {
            throw new InvalidAlgorithmParameterException("OAEP's mask generation must be MGF1");
        }
        int m = Hasher.codeOf(((MGF1ParameterSpec) s.getMGFParameters()).getDigestAlgorithm());
        if (m < 0) {
            throw new InvalidAlgorithmParameterException("unsupported MGF1 digest");
        }
        if (!(s.getPSource() instanceof PSource.PSpecified)) {
            throw new InvalidAlgorithmParameterException("OAEP's label source must be PSpecified");
        }
        byte[] l = ((PSource.PSpecified) s.getPSource()).getValue();
        if (enc && (h != 256 || m != 256 || l.length != 0)) {
            throw new InvalidAlgorithmParameterException("parcrypt encrypts RSA-OAEP with SHA-256, MGF1-SHA-256 and "
                    + "no label only: pass new OAEPParameterSpec(\"SHA-256\", \"MGF1\", MGF1ParameterSpec.SHA256, "
                    + "PSource.PSpecified.DEFAULT) (the JCA default is SHA-1)");
        }
        if (enc) {
            pub = RsaKeys.toPublic(key);
            priv = null;
        } else {
            priv = RsaKeys.toPrivate(key);
            pub = null;
        }
        encrypt = enc;
        spec = s;
        hash = h;
        mgf1 = m;
        label = l;
        buffered.clear();
    }

    @Override
    void checkReady() {
        if (pub == null && priv == null) {
            throw new IllegalStateException("Cipher not initialized");
        }
    }

    @Override
    protected byte[] engineDoFinal(byte[] in, int off, int len) throws IllegalBlockSizeException, BadPaddingException {
        engineUpdate(in, off, len);
        byte[] data = buffered.copy(false);
        buffered.clear();
        try {
            if (encrypt) {
                NativeRef ref = pub.ref();
                long h = ref.acquire();
                try {
                    return Native.rsaEncryptOaep(h, data);
                } finally {
                    ref.release();
                }
            }
            if (data.length > modulusBytes()) {
                throw new IllegalBlockSizeException("RSA ciphertext longer than the modulus (" + modulusBytes() + " bytes)");
            }
            NativeRef ref = priv.ref();
            long h = ref.acquire();
            try {
                return Native.rsaDecryptOaep(h, data, hash, mgf1, label, provider.threads(), provider.strategyCode());
            } finally {
                ref.release();
            }
        } finally {
            Arrays.fill(data, (byte) 0);
        }
    }

    @Override
    protected int engineDoFinal(byte[] in, int off, int len, byte[] out, int outOff)
            throws ShortBufferException, IllegalBlockSizeException, BadPaddingException {
        if (out == null || out.length - outOff < modulusBytes() && encrypt) {
            throw new ShortBufferException("need " + modulusBytes() + " bytes of output space");
        }
        byte[] result = engineDoFinal(in, off, len);
        if (out.length - outOff < result.length) {
            Arrays.fill(result, (byte) 0);
            throw new ShortBufferException("need " + result.length + " bytes of output space");
        }
        System.arraycopy(result, 0, out, outOff, result.length);
        Arrays.fill(result, (byte) 0);
        return result.length;
    }
}
