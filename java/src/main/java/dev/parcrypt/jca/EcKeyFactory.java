package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactorySpi;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/** {@code KeyFactory.EC} for P-256: X.509 (SPKI) / PKCS#8 encodings and EC key specs, both ways. */
public final class EcKeyFactory extends KeyFactorySpi {
    public EcKeyFactory(ParcryptProvider provider) {}

    private static void requireP256(java.security.spec.ECParameterSpec params) throws InvalidKeySpecException {
        if (!EcKeys.isP256(params)) {
            throw new InvalidKeySpecException("parcrypt's EC keys are P-256 (secp256r1) only");
        }
    }

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
        try {
            if (spec instanceof X509EncodedKeySpec) {
                return new EcKeys.Public(((X509EncodedKeySpec) spec).getEncoded());
            }
            if (spec instanceof ECPublicKeySpec) {
                ECPublicKeySpec s = (ECPublicKeySpec) spec;
                requireP256(s.getParams());
                return new EcKeys.Public(EcKeys.spkiOf(s.getW()));
            }
        } catch (InvalidKeyException | IllegalArgumentException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        throw new InvalidKeySpecException("EC public keys come from X509EncodedKeySpec or ECPublicKeySpec, not "
                + (spec == null ? "null" : spec.getClass().getName()));
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
        byte[] der = null;
        try {
            if (spec instanceof PKCS8EncodedKeySpec) {
                der = ((PKCS8EncodedKeySpec) spec).getEncoded();
            } else if (spec instanceof ECPrivateKeySpec) {
                ECPrivateKeySpec s = (ECPrivateKeySpec) spec;
                requireP256(s.getParams());
                der = EcKeys.pkcs8Of(s.getS());
            } else {
                throw new InvalidKeySpecException("EC private keys come from PKCS8EncodedKeySpec or ECPrivateKeySpec, not "
                        + (spec == null ? "null" : spec.getClass().getName()));
            }
            return new EcKeys.Private(der);
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
            if (key instanceof ECPublicKey) {
                EcKeys.Public k = EcKeys.toPublic(key);
                if (spec.isAssignableFrom(X509EncodedKeySpec.class)) {
                    return spec.cast(new X509EncodedKeySpec(k.getEncoded()));
                }
                if (spec.isAssignableFrom(ECPublicKeySpec.class)) {
                    return spec.cast(new ECPublicKeySpec(k.getW(), EcKeys.P256));
                }
            } else if (key instanceof ECPrivateKey) {
                EcKeys.Private k = EcKeys.toPrivate(key);
                if (spec.isAssignableFrom(PKCS8EncodedKeySpec.class)) {
                    return spec.cast(new PKCS8EncodedKeySpec(k.getEncoded()));
                }
                if (spec.isAssignableFrom(ECPrivateKeySpec.class)) {
                    return spec.cast(new ECPrivateKeySpec(k.getS(), EcKeys.P256));
                }
            } else {
                throw new InvalidKeySpecException("not an EC key: " + (key == null ? "null" : key.getAlgorithm()));
            }
        } catch (InvalidKeyException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        throw new InvalidKeySpecException("cannot give an EC key as " + spec.getName());
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
        if (key instanceof ECPublicKey) {
            return EcKeys.toPublic(key);
        }
        if (key instanceof ECPrivateKey) {
            return EcKeys.toPrivate(key);
        }
        throw new InvalidKeyException("not an EC key: " + (key == null ? "null" : key.getAlgorithm()));
    }
}
