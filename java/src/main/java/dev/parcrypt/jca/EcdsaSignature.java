package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SignatureException;
import java.security.SignatureSpi;

/**
 * {@code SHA256withECDSA} (DER signatures) and {@code
 * SHA256withECDSAinP1363Format} (r ‖ s, 64 bytes) on P-256. The message is
 * hashed as it is fed; verification is variable-time (public data only).
 * A batch of signatures checks faster with {@link ParcryptEcdsa#verifyBatch}.
 */
public abstract class EcdsaSignature extends SignatureSpi {
    private final int format;
    private final Hasher hasher = new Hasher(256);
    private EcKeys.Private signer;
    private EcKeys.Public verifier;

    EcdsaSignature(int format) {
        this.format = format;
    }

    /** DER-encoded signatures, as SunEC's {@code SHA256withECDSA}. */
    public static final class Der extends EcdsaSignature {
        public Der(ParcryptProvider provider) {
            super(0);
        }
    }

    /** IEEE P1363 signatures (r ‖ s). */
    public static final class P1363 extends EcdsaSignature {
        public P1363(ParcryptProvider provider) {
            super(1);
        }
    }

    @Override
    protected void engineInitVerify(PublicKey publicKey) throws InvalidKeyException {
        verifier = EcKeys.toPublic(publicKey);
        signer = null;
        hasher.finish();
    }

    @Override
    protected void engineInitSign(PrivateKey privateKey) throws InvalidKeyException {
        signer = EcKeys.toPrivate(privateKey);
        verifier = null;
        hasher.finish();
    }

    @Override
    protected void engineUpdate(byte b) {
        engineUpdate(new byte[] {b}, 0, 1);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) {
        hasher.update(b, off, len);
    }

    @Override
    protected byte[] engineSign() throws SignatureException {
        if (signer == null) {
            throw new SignatureException("not initialised for signing");
        }
        byte[] digest = hasher.finish();
        return signer.ref().call(h -> Native.ecSignDigest(h, digest, format));
    }

    @Override
    protected boolean engineVerify(byte[] sigBytes) throws SignatureException {
        if (verifier == null) {
            throw new SignatureException("not initialised for verification");
        }
        byte[] digest = hasher.finish();
        return verifier.ref().call(h -> Native.ecVerifyDigest(h, digest, sigBytes, format));
    }

    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {
        throw new InvalidParameterException("no parameters");
    }

    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
        throw new InvalidParameterException("no parameters");
    }
}
