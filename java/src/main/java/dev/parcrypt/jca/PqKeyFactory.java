package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;

/**
 * {@code KeyFactory} for ML-DSA, SLH-DSA and ML-KEM ({@code "ML-DSA"} takes
 * any set, {@code "ML-DSA-65"} only that one, as the JDK's): X.509 / PKCS#8
 * encodings both ways, and any provider's keys translated. ML-DSA and
 * ML-KEM private keys are read in all three PKCS#8 forms (seed, expanded,
 * both: the JDK 25 writes the expanded one).
 */
public final class PqKeyFactory extends EncodedKeyFactory<PqKeys.Public, PqKeys.Private> {
    private final PqKeys.Named named;
    private final ParcryptProvider provider;

    public PqKeyFactory(ParcryptProvider provider, String algorithm) {
        this(PqKeys.Named.of(algorithm), provider);
    }

    private PqKeyFactory(PqKeys.Named named, ParcryptProvider provider) {
        super(named.kind().name, PublicKey.class, PrivateKey.class, X509EncodedKeySpec.class,
                PKCS8EncodedKeySpec.class);
        this.named = named;
        this.provider = provider;
    }

    @Override
    PqKeys.Public newPublic(byte[] der) throws InvalidKeyException {
        return PqKeys.Public.of(der, named.kind(), named.set());
    }

    @Override
    PqKeys.Private newPrivate(byte[] der) throws InvalidKeyException {
        return PqKeys.Private.of(der, named.kind(), named.set(), provider.threads(), provider.strategyCode());
    }

    @Override
    PqKeys.Public toPublic(Key key) throws InvalidKeyException {
        return PqKeys.toPublic(key, named.kind(), named.set());
    }

    @Override
    PqKeys.Private toPrivate(Key key) throws InvalidKeyException {
        return PqKeys.toPrivate(key, named.kind(), named.set(), provider.threads(), provider.strategyCode());
    }

    // The encodings are the only specs (EncodedKeyFactory handles them).
    @Override
    byte[] publicDer(KeySpec spec) {
        return ((X509EncodedKeySpec) spec).getEncoded();
    }

    @Override
    byte[] privateDer(KeySpec spec) {
        return null;
    }

    @Override
    KeySpec publicValues(PqKeys.Public k, Class<?> spec) {
        return null;
    }

    @Override
    KeySpec privateValues(PqKeys.Private k, Class<?> spec) {
        return null;
    }
}
