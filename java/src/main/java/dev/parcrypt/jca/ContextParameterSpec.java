package dev.parcrypt.jca;

import java.security.spec.AlgorithmParameterSpec;

/**
 * The options of an ML-DSA or SLH-DSA {@code Signature}: the context string
 * (0–255 bytes, FIPS 204/205; empty by default) and, for SLH-DSA, whether
 * to sign deterministically ({@code opt_rand = PK.seed}) instead of hedged
 * (fresh randomness, the default). Bouncy Castle's {@code
 * ContextParameterSpec} is taken too (its context, hedged).
 *
 * <pre>{@code
 * Signature s = Signature.getInstance("SLH-DSA", "Parcrypt");
 * s.initSign(key);
 * s.setParameter(new ContextParameterSpec("release-2026".getBytes(UTF_8), true));
 * }</pre>
 */
public final class ContextParameterSpec implements AlgorithmParameterSpec {
    /** The longest context (its length is one byte in the signed message). */
    public static final int MAX_CONTEXT = 255;

    private final byte[] context;
    private final boolean deterministic;

    /** A context, hedged signing. */
    public ContextParameterSpec(byte[] context) {
        this(context, false);
    }

    /**
     * @param context 0–255 bytes (copied)
     * @param deterministic SLH-DSA only: sign with {@code opt_rand = PK.seed}
     * @throws IllegalArgumentException for a context over 255 bytes
     */
    public ContextParameterSpec(byte[] context, boolean deterministic) {
        if (context.length > MAX_CONTEXT) {
            throw new IllegalArgumentException("a context is at most " + MAX_CONTEXT + " bytes, not " + context.length);
        }
        this.context = context.clone();
        this.deterministic = deterministic;
    }

    /** The context (a copy). */
    public byte[] getContext() {
        return context.clone();
    }

    /** Whether SLH-DSA signs deterministically. */
    public boolean isDeterministic() {
        return deterministic;
    }
}
