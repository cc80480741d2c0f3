package dev.parcrypt.jca;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.RSAKey;
import java.security.spec.AlgorithmParameterSpec;
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
 * {@code RSA/ECB/OAEPPadding} and {@code RSA/ECB/OAEPWith<digest>AndMGF1Padding},
 * read as SunJCE reads them, so that the same code gives the same bytes with
 * either provider.
 *
 * <p>Without parameters, {@code OAEPPadding} is the JCA default, SHA-1 with
 * MGF1-SHA-1 and no label, and {@code OAEPWith<digest>AndMGF1Padding} is that
 * digest with MGF1 over <em>SHA-1</em> (SunJCE's reading of the names, which
 * other providers differ from); an {@link OAEPParameterSpec} (or OAEP
 * {@link AlgorithmParameters}) replaces all of it, whatever the name said.
 * SHA-1, SHA-256, SHA-384 and SHA-512 for the hash and for MGF1, any label,
 * both ways; {@link #engineGetParameters} reports what is used. What SunJCE
 * refuses is refused the same way: another mask function or label source, a
 * key too small for the hash ({@code InvalidKeyException}), a message over
 * {@code k - 2 - 2 hLen} bytes ({@code IllegalBlockSizeException}),
 * encryption with a private key or decryption with a public one. The private
 * operation's CRT halves run on two threads; a failed decryption is one
 * opaque {@code BadPaddingException}.
 */
public class RsaOaepCipher extends BufferingCipher {
    private final ParcryptProvider provider;
    /** The digest the transformation names ("SHA-1" for {@code OAEPPadding}). */
    private final String namedDigest;
    private boolean encrypt;
    private RsaKeys.Public pub;
    private RsaKeys.Private priv;
    private OAEPParameterSpec spec;
    private int hash;
    private int mgf1;
    private byte[] label;

    public RsaOaepCipher(ParcryptProvider provider) {
        this(provider, "SHA-1");
    }

    RsaOaepCipher(ParcryptProvider provider, String namedDigest) {
        super(OAEPParameterSpec.class, "Wrong parameter: OAEP parameters are needed");
        this.provider = provider;
        this.namedDigest = namedDigest;
    }

    /** {@code RSA/ECB/OAEPWithSHA-1AndMGF1Padding} (also {@code SHA1}). */
    public static final class Sha1 extends RsaOaepCipher {
        public Sha1(ParcryptProvider provider) {
            super(provider, "SHA-1");
        }
    }

    /** {@code RSA/ECB/OAEPWithSHA-256AndMGF1Padding}: SHA-256, MGF1-SHA-1 by default. */
    public static final class Sha256 extends RsaOaepCipher {
        public Sha256(ParcryptProvider provider) {
            super(provider, "SHA-256");
        }
    }

    /** {@code RSA/ECB/OAEPWithSHA-384AndMGF1Padding}: SHA-384, MGF1-SHA-1 by default. */
    public static final class Sha384 extends RsaOaepCipher {
        public Sha384(ParcryptProvider provider) {
            super(provider, "SHA-384");
        }
    }

    /** {@code RSA/ECB/OAEPWithSHA-512AndMGF1Padding}: SHA-512, MGF1-SHA-1 by default. */
    public static final class Sha512 extends RsaOaepCipher {
        public Sha512(ParcryptProvider provider) {
            super(provider, "SHA-512");
        }
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
            throw new NoSuchPaddingException("only OAEPPadding, not " + padding);
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
        return parameters("OAEP", null, spec);
    }

    @Override
    protected int engineGetKeySize(Key key) throws InvalidKeyException {
        if (!(key instanceof RSAKey)) {
            throw new InvalidKeyException("not an RSA key");
        }
        return ((RSAKey) key).getModulus().bitLength();
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameterSpec params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        boolean enc = encrypting(opmode);
        if (enc ? key instanceof java.security.interfaces.RSAPrivateKey : key instanceof java.security.interfaces.RSAPublicKey) {
            throw new InvalidKeyException("OAEP cannot be used to sign or verify signatures");
        }
        RsaKeys.Public newPub = enc ? RsaKeys.toPublic(key) : null;
        RsaKeys.Private newPriv = enc ? null : RsaKeys.toPrivate(key);
        OAEPParameterSpec s;
        if (params == null) {
            // SunJCE's reading: the named digest, MGF1 always over SHA-1.
            s = new OAEPParameterSpec(namedDigest, "MGF1", MGF1ParameterSpec.SHA1, PSource.PSpecified.DEFAULT);
        } else if (params instanceof OAEPParameterSpec) {
            s = (OAEPParameterSpec) params;
        } else {
            throw new InvalidAlgorithmParameterException("Wrong Parameters for OAEP Padding: an OAEPParameterSpec is needed");
        }
        if (!"MGF1".equalsIgnoreCase(s.getMGFAlgorithm())) {
            throw new InvalidAlgorithmParameterException("Unsupported MGF algo: " + s.getMGFAlgorithm());
        }
        if (!(s.getMGFParameters() instanceof MGF1ParameterSpec)) {
            throw new InvalidAlgorithmParameterException("MGF1 needs an MGF1ParameterSpec");
        }
        if (!"PSpecified".equalsIgnoreCase(s.getPSource().getAlgorithm())
                || !(s.getPSource() instanceof PSource.PSpecified)) {
            throw new InvalidAlgorithmParameterException("Unsupported pSource algo: " + s.getPSource().getAlgorithm());
        }
        int h = Hasher.codeOf(s.getDigestAlgorithm());
        if (h < 0) {
            throw new InvalidAlgorithmParameterException("unsupported OAEP digest " + s.getDigestAlgorithm()
                    + " (parcrypt offers SHA-1, SHA-256, SHA-384 and SHA-512)");
        }
        String mgfDigest = ((MGF1ParameterSpec) s.getMGFParameters()).getDigestAlgorithm();
        int m = Hasher.codeOf(mgfDigest);
        if (m < 0) {
            throw new InvalidAlgorithmParameterException("unsupported MGF1 digest " + mgfDigest
                    + " (parcrypt offers SHA-1, SHA-256, SHA-384 and SHA-512)");
        }
        int k = (enc ? newPub : newPriv).getModulus().bitLength() + 7 >> 3;
        if (k - 2 - 2 * digestLength(h) <= 0) {
            throw new InvalidKeyException("Key is too short for encryption using OAEPPadding with "
                    + s.getDigestAlgorithm() + " and MGF1" + mgfDigest);
        }
        pub = newPub;
        priv = newPriv;
        encrypt = enc;
        spec = s;
        hash = h;
        mgf1 = m;
        label = ((PSource.PSpecified) s.getPSource()).getValue();
        buffered.clear();
    }

    private static int digestLength(int code) {
        return code == 1 ? 20 : code / 8;
    }

    /** The longest message one block takes: {@code k - 2 - 2 hLen}. */
    private int maxMessage() {
        return modulusBytes() - 2 - 2 * digestLength(hash);
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
                if (data.length > maxMessage()) {
                    throw new IllegalBlockSizeException("Data must not be longer than " + maxMessage() + " bytes");
                }
                return pub.ref().call(h -> Native.rsaEncryptOaep(h, data, hash, mgf1, label));
            }
            if (data.length > modulusBytes()) {
                throw new IllegalBlockSizeException("RSA ciphertext longer than the modulus (" + modulusBytes() + " bytes)");
            }
            return priv.ref().call(h ->
                    Native.rsaDecryptOaep(h, data, hash, mgf1, label, provider.threads(), provider.strategyCode()));
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
        return copyOut(engineDoFinal(in, off, len), out, outOff);
    }
}
