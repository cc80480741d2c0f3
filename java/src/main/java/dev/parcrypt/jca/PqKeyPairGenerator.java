package dev.parcrypt.jca;

import java.lang.reflect.Method;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.NamedParameterSpec;

/**
 * {@code KeyPairGenerator} for ML-DSA (default ML-DSA-65, as the JDK),
 * SLH-DSA (default SLH-DSA-SHA2-128S) and ML-KEM (default ML-KEM-768, as
 * the JDK); a per-set name ({@code "ML-DSA-87"}) makes only that set.
 * {@code initialize} takes a {@link NamedParameterSpec} (or any spec with
 * a {@code getName()}, such as Bouncy Castle's {@code SLHDSAParameterSpec});
 * a key size is refused, as the JDK refuses it. SLH-DSA builds its top tree
 * on the provider's threads. Randomness comes from the operating system
 * (through the library), not from the {@code SecureRandom} given.
 */
public final class PqKeyPairGenerator extends KeyPairGeneratorSpi {
    private final ParcryptProvider provider;
    private final PqKeys.Named named;
    private PqKeys.Set set;

    public PqKeyPairGenerator(ParcryptProvider provider, String algorithm) {
        this.provider = provider;
        this.named = PqKeys.Named.of(algorithm);
        this.set = named.set() != null ? named.set() : PqKeys.byName(defaultSet(named.kind()));
    }

    private static String defaultSet(PqKeys.Kind kind) {
        switch (kind) {
            case ML_DSA: return "ML-DSA-65";
            case ML_KEM: return "ML-KEM-768";
            default: return "SLH-DSA-SHA2-128S";
        }
    }

    @Override
    public void initialize(int keysize, SecureRandom random) {
        throw new InvalidParameterException("keysize not supported: " + named.kind().name
                + " takes a NamedParameterSpec");
    }

    @Override
    public void initialize(AlgorithmParameterSpec params, SecureRandom random) throws InvalidAlgorithmParameterException {
        String name = specName(params);
        PqKeys.Set wanted = name == null ? null : PqKeys.byName(name);
        if (wanted == null || wanted.kind != named.kind() || (named.set() != null && wanted != named.set())) {
            throw new InvalidAlgorithmParameterException("Unsupported parameter set name: " + name
                    + (named.set() != null ? " (this generator makes " + named.set().name + ")" : ""));
        }
        set = wanted;
    }

    /** The name of a NamedParameterSpec, or of another provider's spec with a {@code getName()}. */
    static String specName(AlgorithmParameterSpec params) {
        if (params instanceof NamedParameterSpec) {
            return ((NamedParameterSpec) params).getName();
        }
        if (params != null) {
            try {
                Method m = params.getClass().getMethod("getName");
                if (m.getReturnType() == String.class) {
                    return (String) m.invoke(params);
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                // not a named spec
            }
        }
        return null;
    }

    @Override
    public KeyPair generateKeyPair() {
        try {
            PqKeys.Private priv = PqKeys.Private.generate(set, provider);
            return new KeyPair(priv.publicKey(), priv);
        } catch (InvalidAlgorithmParameterException e) {
            throw new ProviderException(set.name + " key generation failed: " + e.getMessage(), e);
        }
    }
}
