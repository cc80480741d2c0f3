package dev.parcrypt.jca;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;
import java.security.spec.RSAPrivateCrtKeySpec;
import java.security.spec.RSAPrivateKeySpec;
import java.security.spec.RSAPublicKeySpec;

/** {@code KeyFactory.RSA}: X.509 (SPKI) / PKCS#8 encodings and RSA key specs, both ways. */
public final class RsaKeyFactory extends EncodedKeyFactory<RsaKeys.Public, RsaKeys.Private> {
    public RsaKeyFactory(ParcryptProvider provider) {
        super("RSA", RSAPublicKey.class, RSAPrivateKey.class, RSAPublicKeySpec.class, RSAPrivateCrtKeySpec.class);
    }

    @Override
    RsaKeys.Public newPublic(byte[] der) throws InvalidKeyException {
        return new RsaKeys.Public(der);
    }

    @Override
    RsaKeys.Private newPrivate(byte[] der) throws InvalidKeyException {
        return new RsaKeys.Private(der);
    }

    @Override
    RsaKeys.Public toPublic(Key key) throws InvalidKeyException {
        return RsaKeys.toPublic(key);
    }

    @Override
    RsaKeys.Private toPrivate(Key key) throws InvalidKeyException {
        return RsaKeys.toPrivate(key);
    }

    @Override
    byte[] publicDer(KeySpec spec) {
        RSAPublicKeySpec s = (RSAPublicKeySpec) spec;
        return Der.sequenceOf(s.getModulus(), s.getPublicExponent());
    }

    @Override
    byte[] privateDer(KeySpec spec) throws InvalidKeySpecException {
        if (spec instanceof RSAPrivateCrtKeySpec) {
            RSAPrivateCrtKeySpec s = (RSAPrivateCrtKeySpec) spec;
            return Der.sequenceOf(BigInteger.ZERO, s.getModulus(), s.getPublicExponent(), s.getPrivateExponent(),
                    s.getPrimeP(), s.getPrimeQ(), s.getPrimeExponentP(), s.getPrimeExponentQ(),
                    s.getCrtCoefficient());
        }
        if (spec instanceof RSAPrivateKeySpec) {
            throw new InvalidKeySpecException("parcrypt needs the CRT values: give an RSAPrivateCrtKeySpec");
        }
        return null;
    }

    @Override
    KeySpec publicValues(RsaKeys.Public k, Class<?> spec) {
        return spec.isAssignableFrom(RSAPublicKeySpec.class)
                ? new RSAPublicKeySpec(k.getModulus(), k.getPublicExponent())
                : null;
    }

    @Override
    KeySpec privateValues(RsaKeys.Private k, Class<?> spec) {
        if (spec.isAssignableFrom(RSAPrivateCrtKeySpec.class)) {
            return new RSAPrivateCrtKeySpec(k.getModulus(), k.getPublicExponent(),
                    k.getPrivateExponent(), k.getPrimeP(), k.getPrimeQ(), k.getPrimeExponentP(),
                    k.getPrimeExponentQ(), k.getCrtCoefficient());
        }
        if (spec.isAssignableFrom(RSAPrivateKeySpec.class)) {
            return new RSAPrivateKeySpec(k.getModulus(), k.getPrivateExponent());
        }
        return null;
    }
}
