package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactorySpi;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * What {@link RsaKeyFactory} and {@link EcKeyFactory} share: keys from and
 * to their X.509 (SPKI) / PKCS#8 encodings, and the family's value specs
 * through the encodings (a subclass turns a value spec into DER and a key
 * into a value spec). Every key is this provider's; a private key's DER is
 * wiped once loaded.
 */
abstract class EncodedKeyFactory<U extends PublicKey, R extends PrivateKey> extends KeyFactorySpi {
    /** The family's name in messages: "RSA", "EC". */
    private final String family;
    private final Class<? extends Key> publicType;
    private final Class<? extends Key> privateType;
    private final Class<? extends KeySpec> publicSpec;
    private final Class<? extends KeySpec> privateSpec;

    EncodedKeyFactory(String family, Class<? extends Key> publicType, Class<? extends Key> privateType,
            Class<? extends KeySpec> publicSpec, Class<? extends KeySpec> privateSpec) {
        this.family = family;
        this.publicType = publicType;
        this.privateType = privateType;
        this.publicSpec = publicSpec;
        this.privateSpec = privateSpec;
    }

    /** This provider's public key from its DER. */
    abstract U newPublic(byte[] der) throws InvalidKeyException;

    /** This provider's private key from its DER. */
    abstract R newPrivate(byte[] der) throws InvalidKeyException;

    /** Any provider's public key of the family as this provider's. */
    abstract U toPublic(Key key) throws InvalidKeyException;

    /** Any provider's private key of the family as this provider's. */
    abstract R toPrivate(Key key) throws InvalidKeyException;

    /** The DER of a public value spec (an instance of {@code publicSpec}). */
    abstract byte[] publicDer(KeySpec spec) throws InvalidKeySpecException;

    /** The DER of a private value spec (an instance of {@code privateSpec}), or a refusal of another spec of the family. */
    abstract byte[] privateDer(KeySpec spec) throws InvalidKeySpecException;

    /** {@code key} as a value spec of class {@code spec}; null if the family has none of that class. */
    abstract KeySpec publicValues(U key, Class<?> spec);

    /** {@code key} as a value spec of class {@code spec}; null if the family has none of that class. */
    abstract KeySpec privateValues(R key, Class<?> spec);

    private static String nameOf(Object o) {
        return o == null ? "null" : o.getClass().getName();
    }

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
        try {
            if (spec instanceof X509EncodedKeySpec) {
                return newPublic(((X509EncodedKeySpec) spec).getEncoded());
            }
            if (publicSpec.isInstance(spec)) {
                return newPublic(publicDer(spec));
            }
        } catch (InvalidKeyException | IllegalArgumentException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        throw new InvalidKeySpecException(family + " public keys come from X509EncodedKeySpec or "
                + publicSpec.getSimpleName() + ", not " + nameOf(spec));
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
        byte[] der = null;
        try {
            if (spec instanceof PKCS8EncodedKeySpec) {
                der = ((PKCS8EncodedKeySpec) spec).getEncoded();
            } else {
                der = privateDer(spec);
                if (der == null) {
                    throw new InvalidKeySpecException(family + " private keys come from PKCS8EncodedKeySpec or "
                            + privateSpec.getSimpleName() + ", not " + nameOf(spec));
                }
            }
            return newPrivate(der);
        } catch (InvalidKeyException | IllegalArgumentException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        } finally {
            if (der != null) {
                Arrays.fill(der, (byte) 0);
            }
        }
    }

    @Override
    protected <T extends KeySpec> T engineGetKeySpec(Key key, Class<T> spec) throws InvalidKeySpecException {
        try {
            KeySpec out;
            if (publicType.isInstance(key)) {
                U k = toPublic(key);
                out = spec.isAssignableFrom(X509EncodedKeySpec.class)
                        ? new X509EncodedKeySpec(k.getEncoded())
                        : publicValues(k, spec);
            } else if (privateType.isInstance(key)) {
                R k = toPrivate(key);
                out = spec.isAssignableFrom(PKCS8EncodedKeySpec.class)
                        ? new PKCS8EncodedKeySpec(k.getEncoded())
                        : privateValues(k, spec);
            } else {
                throw new InvalidKeySpecException("not an " + family + " key: "
                        + (key == null ? "null" : key.getAlgorithm()));
            }
            if (out != null) {
                return spec.cast(out);
            }
        } catch (InvalidKeyException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        throw new InvalidKeySpecException("cannot give an " + family + " key as " + spec.getName());
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
        if (publicType.isInstance(key)) {
            return toPublic(key);
        }
        if (privateType.isInstance(key)) {
            return toPrivate(key);
        }
        throw new InvalidKeyException("not an " + family + " key: " + (key == null ? "null" : key.getAlgorithm()));
    }
}
