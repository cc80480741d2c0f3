package dev.parcrypt.jca;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactorySpi;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.RSAPrivateKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/** {@code KeyFactory.RSA}: X.509 (SPKI) / PKCS#8 encodings and RSA key specs, both ways. */
public final class RsaKeyFactory extends KeyFactorySpi {
    public RsaKeyFactory(ParcryptProvider provider) {}

    @Override
    protected PublicKey engineGeneratePublic(KeySpec spec) throws InvalidKeySpecException {
        try {
            if (spec instanceof X509EncodedKeySpec) {
                return new RsaKeys.Public(((X509EncodedKeySpec) spec).getEncoded());
            }
            if (spec instanceof RSAPublicKeySpec) {
                RSAPublicKeySpec s = (RSAPublicKeySpec) spec;
                return new RsaKeys.Public(Der.sequenceOf(s.getModulus(), s.getPublicExponent()));
            }
        } catch (InvalidKeyException | IllegalArgumentException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        throw new InvalidKeySpecException("RSA public keys come from X509EncodedKeySpec or RSAPublicKeySpec, not "
                + (spec == null ? "null" : spec.getClass().getName()));
    }

    @Override
    protected PrivateKey engineGeneratePrivate(KeySpec spec) throws InvalidKeySpecException {
        byte[] der = null;
        try {
            if (spec instanceof PKCS8EncodedKeySpec) {
                der = ((PKCS8EncodedKeySpec) spec).getEncoded();
            } else if (spec instanceof RSAPrivateCrtKeySpec) {
                RSAPrivateCrtKeySpec s = (RSAPrivateCrtKeySpec) spec;
                der = Der.sequenceOf(BigInteger.ZERO, s.getModulus(), s.getPublicExponent(), s.getPrivateExponent(),
                        s.getPrimeP(), s.getPrimeQ(), s.getPrimeExponentP(), s.getPrimeExponentQ(),
                        s.getCrtCoefficient());
            } else if (spec instanceof RSAPrivateKeySpec) {
                throw new InvalidKeySpecException("parcrypt needs the CRT values: give an RSAPrivateCrtKeySpec");
            } else {
                throw new InvalidKeySpecException("RSA private keys come from PKCS8EncodedKeySpec or "
                        + "RSAPrivateCrtKeySpec, not " + (spec == null ? "null" : spec.getClass().getName()));
            }
            return new RsaKeys.Private(der);
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
            if (key instanceof RSAPublicKey) {
                RsaKeys.Public k = RsaKeys.toPublic(key);
                if (spec.isAssignableFrom(X509EncodedKeySpec.class)) {
                    return spec.cast(new X509EncodedKeySpec(k.getEncoded()));
                }
                if (spec.isAssignableFrom(RSAPublicKeySpec.class)) {
                    return spec.cast(new RSAPublicKeySpec(k.getModulus(), k.getPublicExponent()));
                }
            } else if (key instanceof java.security.interfaces.RSAPrivateKey) {
                RsaKeys.Private k = RsaKeys.toPrivate(key);
                if (spec.isAssignableFrom(PKCS8EncodedKeySpec.class)) {
                    return spec.cast(new PKCS8EncodedKeySpec(k.getEncoded()));
                }
                if (spec.isAssignableFrom(RSAPrivateCrtKeySpec.class)) {
                    return spec.cast(new RSAPrivateCrtKeySpec(k.getModulus(), k.getPublicExponent(),
                            k.getPrivateExponent(), k.getPrimeP(), k.getPrimeQ(), k.getPrimeExponentP(),
                            k.getPrimeExponentQ(), k.getCrtCoefficient()));
                }
                if (spec.isAssignableFrom(RSAPrivateKeySpec.class)) {
                    return spec.cast(new RSAPrivateKeySpec(k.getModulus(), k.getPrivateExponent()));
                }
            } else {
                throw new InvalidKeySpecException("not an RSA key: " + (key == null ? "null" : key.getAlgorithm()));
            }
        } catch (InvalidKeyException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        throw new InvalidKeySpecException("cannot give an RSA key as " + spec.getName());
    }

    @Override
    protected Key engineTranslateKey(Key key) throws InvalidKeyException {
        if (key instanceof RSAPublicKey) {
            return RsaKeys.toPublic(key);
        }
        if (key instanceof RSAPrivateCrtKey || key instanceof java.security.interfaces.RSAPrivateKey) {
            return RsaKeys.toPrivate(key);
        }
        throw new InvalidKeyException("not an RSA key: " + (key == null ? "null" : key.getAlgorithm()));
    }
}
