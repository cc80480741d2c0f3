package dev.parcrypt.jca;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.SignatureSpi;
import java.security.spec.AlgorithmParameterSpec;

/**
 * {@code Signature} for pure ML-DSA and SLH-DSA ({@code "ML-DSA"} takes a key
 * of any set, {@code "ML-DSA-65"} only that one, as the JDK's). The message
 * is kept until {@code sign}/{@code verify} (SLH-DSA hashes it twice);
 * options come from {@link ContextParameterSpec} (context, deterministic
 * SLH-DSA) or Bouncy Castle's {@code ContextParameterSpec}, and stay until
 * replaced ({@code setParameter(null)}: none). SLH-DSA signing builds its
 * trees on the provider's threads. A signature of the wrong length is a
 * {@link SignatureException}, as the JDK's ML-DSA throws; one that does
 * not verify is {@code false}. Batches: {@link ParcryptPq}.
 */
public final class PqSignature extends SignatureSpi {
    private static final byte[] NONE = new byte[0];
    private final ParcryptProvider provider;
    private final PqKeys.Named named;
    private final ByteArrayOutputStream message = new ByteArrayOutputStream();
    private PqKeys.Private signer;
    private PqKeys.Public verifier;
    private byte[] context = NONE;
    private boolean deterministic;

    public PqSignature(ParcryptProvider provider, String algorithm) {
        this.provider = provider;
        this.named = PqKeys.Named.of(algorithm);
        if (named.kind() == PqKeys.Kind.ML_KEM) {
            throw new IllegalArgumentException("ML-KEM does not sign");
        }
    }

    @Override
    protected void engineInitVerify(PublicKey publicKey) throws InvalidKeyException {
        verifier = PqKeys.toPublic(publicKey, named.kind(), named.set());
        signer = null;
        message.reset();
    }

    @Override
    protected void engineInitSign(PrivateKey privateKey) throws InvalidKeyException {
        engineInitSign(privateKey, null);
    }

    @Override
    protected void engineInitSign(PrivateKey privateKey, SecureRandom random) throws InvalidKeyException {
        signer = PqKeys.toPrivate(privateKey, named.kind(), named.set(), provider.threads(),
                provider.strategyCode());
        verifier = null;
        message.reset();
    }

    @Override
    protected void engineUpdate(byte b) {
        message.write(b);
    }

    @Override
    protected void engineUpdate(byte[] b, int off, int len) {
        message.write(b, off, len);
    }

    private byte[] take() {
        byte[] m = message.toByteArray();
        message.reset();
        return m;
    }

    @Override
    protected byte[] engineSign() throws SignatureException {
        if (signer == null) {
            throw new SignatureException("not initialised for signing");
        }
        byte[] m = take();
        return signer.ref().call(h -> Native.sigSign(h, m, context, deterministic, provider.threads(),
                provider.strategyCode()));
    }

    @Override
    protected boolean engineVerify(byte[] sigBytes) throws SignatureException {
        if (verifier == null) {
            throw new SignatureException("not initialised for verification");
        }
        byte[] m = take();
        return verifier.ref().call(h -> Native.sigVerify(h, m, sigBytes, context));
    }

    @Override
    protected void engineSetParameter(AlgorithmParameterSpec params) throws InvalidAlgorithmParameterException {
        if (params == null) {
            context = NONE;
            deterministic = false;
            return;
        }
        byte[] ctx;
        boolean det = false;
        if (params instanceof ContextParameterSpec) {
            ctx = ((ContextParameterSpec) params).getContext();
            det = ((ContextParameterSpec) params).isDeterministic();
        } else {
            ctx = foreignContext(params);
        }
        if (ctx.length > ContextParameterSpec.MAX_CONTEXT) {
            throw new InvalidAlgorithmParameterException("a context is at most 255 bytes, not " + ctx.length);
        }
        if (det && named.kind() == PqKeys.Kind.ML_DSA) {
            throw new InvalidAlgorithmParameterException("ML-DSA signs hedged only (deterministic is SLH-DSA's option)");
        }
        context = ctx;
        deterministic = det;
    }

    /** The context of another provider's spec with a {@code byte[] getContext()} (Bouncy Castle's). */
    private static byte[] foreignContext(AlgorithmParameterSpec params) throws InvalidAlgorithmParameterException {
        try {
            Method m = params.getClass().getMethod("getContext");
            if (m.getReturnType() == byte[].class) {
                byte[] ctx = (byte[]) m.invoke(params);
                return ctx == null ? NONE : ctx;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // not a context spec
        }
        throw new InvalidAlgorithmParameterException("takes a ContextParameterSpec, not " + params.getClass().getName());
    }

    @Override
    protected AlgorithmParameters engineGetParameters() {
        return null;
    }

    @Override
    @Deprecated
    protected void engineSetParameter(String param, Object value) {
        throw new InvalidParameterException("no parameters by name: use setParameter(ContextParameterSpec)");
    }

    @Override
    @Deprecated
    protected Object engineGetParameter(String param) {
        throw new InvalidParameterException("no parameters by name");
    }
}
