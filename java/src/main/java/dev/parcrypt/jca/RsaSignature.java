package dev.parcrypt.jca;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;

/**
 * {@code SHA256withRSA}, {@code SHA384withRSA}, {@code SHA512withRSA}
 * (PKCS#1 v1.5) and {@code RSASSA-PSS} (with a {@link PSSParameterSpec}).
 * The private operation runs its two CRT halves on two threads when the
 * provider has more than one.
 *
 * <p>PSS: signing takes SHA-256/384/512 with MGF1 of the same hash and a salt
 * as long as the digest (the common profile); verification accepts SHA-1 too
 * and checks the salt length the spec names.
 */
public abstract class RsaSignature extends SignatureSpi {
    private final ParcryptProvider provider;
    private final boolean pss;
    private Hasher hasher;
    private int saltLen;
    private PSSParameterSpec pssSpec;
    private RsaKeys.Private signer;
    private RsaKeys.Public verifier;

    RsaSignature(ParcryptProvider provider, int hash, boolean pss) {
        this.provider = provider;
        this.pss = pss;
        this.hasher = pss ? null : new Hasher(hash);
    }

    public static final class Sha256 extends RsaSignature {
        public Sha256(ParcryptProvider provider) {
            super(provider, 256, false);
        }
    }

    public static final class Sha384 extends RsaSignature {
        public Sha384(ParcryptProvider provider) {
            super(provider, 384, false);
        }
    }

    public static final class Sha512 extends RsaSignature {
        public Sha512(ParcryptProvider provider) {
            super(provider, 512, false);
        }
    }

    /** RSASSA-PSS: parameters must be set with {@code setParameter(PSSParameterSpec)}. */
    public static final class Pss extends RsaSignature {
        public Pss(ParcryptProvider provider) {
            super(provider, 0, true);
        }
    }

    @Override
    protected void engineSetParameter(AlgorithmParameterSpec params) throws InvalidAlgorithmParameterException {
        if (!pss) {
            if (params != null) {
                throw new InvalidAlgorithmParameterException("PKCS#1 v1.5 signatures take no parameters");
            }
            return;
        }
        if (!(params instanceof PSSParameterSpec)) {
            throw new InvalidAlgorithmParameterException("RSASSA-PSS takes a PSSParameterSpec");
        }
        PSSParameterSpec spec = (PSSParameterSpec) params;
        int code = Hasher.codeOf(spec.getDigestAlgorithm());
        if (code < 0) {
            throw new InvalidAlgorithmParameterException("unsupported PSS digest " + spec.getDigestAlgorithm());
        }
        if (!"MGF1".equalsIgnoreCase(spec.getMGFAlgorithm()) || !(spec.getMGFParameters() instanceof MGF1ParameterSpec)
                || Hasher.codeOf(((MGF1ParameterSpec) spec.getMGFParameters()).getDigestAlgorithm()) != code) {
            throw new InvalidAlgorithmParameterException("parcrypt's PSS uses MGF1 with the message digest ("
                    + spec.getDigestAlgorithm() + ")");
        }
        if (spec.getTrailerField() != PSSParameterSpec.TRAILER_FIELD_BC) {
            throw new InvalidAlgorithmParameterException("the PSS trailer field must be 1");
        }
        if (spec.getSaltLength() < 0) {
            throw new InvalidAlgorithmParameterException("negative salt length");
        }
        if (signer != null) {
            checkSignable(code, spec.getSaltLength());
        }
        this.hasher = new Hasher(code);
        this.saltLen = spec.getSaltLength();
        this.pssSpec = spec;
    }

    private static void checkSignable(int code, int salt) throws InvalidAlgorithmParameterException {
        if (code == 1) {
            throw new InvalidAlgorithmParameterException("parcrypt does not sign with SHA-1 (verification only)");
        }
        if (salt != code / 8) {
            throw new InvalidAlgorithmParameterException("parcrypt signs PSS with a salt as long as the digest ("
                    + code / 8 + " bytes), not " + salt);
        }
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        if (!pss || pssSpec == null) {
            return null;
        }
        try {
            AlgorithmParameters p = AlgorithmParameters.getInstance("RSASSA-PSS");
            p.init(pssSpec);
            return p;
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    protected void engineInitVerify(PublicKey publicKey) throws InvalidKeyException {
        verifier = RsaKeys.toPublic(publicKey);
        signer = null;
        if (hasher != null) {
            hasher.finish();
        }
    }

    @Override
    protected void engineInitSign(PrivateKey privateKey) throws InvalidKeyException {
        RsaKeys.Private k = RsaKeys.toPrivate(privateKey);
        if (pss && pssSpec != null) {
            try {
                checkSignable(hasher.code, saltLen);
            } catch (InvalidAlgorithmParameterException e) {
                throw new InvalidKeyException(e.getMessage(), e);
            }
        }
        signer = k;
        verifier = null;
        if (hasher != null) {
            hasher.finish();
        }
    }

    private Hasher hasher() throws SignatureException {
        if (hasher == null) {
            throw new SignatureException("Parameters required for RSASSA-PSS signatures");
        }
        return hasher;
    }

    @Override
    protected void engineUpdate(byte b) throws SignatureException {
        engineUpdate(new byte[] {b}, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) throws SignatureException {
        hasher().update(b, off, len);
    }

    @Override
    protected byte[] engineSign() throws SignatureException {
        if (signer == null) {
            throw new SignatureException("not initialised for signing");
        }
        Hasher hs = hasher();
        byte[] digest = hs.finish();
        return signer.ref().call(h ->
                Native.rsaSignDigest(h, pss ? 0 : 1, hs.code, digest, provider.threads(), provider.strategyCode()));
    }

    @Override
    protected boolean engineVerify(byte[] sigBytes) throws SignatureException {
        if (verifier == null) {
            throw new SignatureException("not initialised for verification");
        }
        Hasher hs = hasher();
        byte[] digest = hs.finish();
        return verifier.ref().call(h ->
                Native.rsaVerifyDigest(h, pss ? 0 : 1, hs.code, digest, sigBytes, pss ? saltLen : -1));
    }

    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {
        throw new InvalidParameterException("use setParameter(AlgorithmParameterSpec)");
    }

    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
        throw new InvalidParameterException("use getParameters()");
    }
}
