package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.Key;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.KeySpec;

/** {@code KeyFactory.EC} for P-256: X.509 (SPKI) / PKCS#8 encodings and EC key specs, both ways. */
public final class EcKeyFactory extends EncodedKeyFactory<EcKeys.Public, EcKeys.Private> {
    public EcKeyFactory(ParcryptProvider provider) {
        super("EC", ECPublicKey.class, ECPrivateKey.class, ECPublicKeySpec.class, ECPrivateKeySpec.class);
    }

    private static void requireP256(java.security.spec.ECParameterSpec params) throws InvalidKeySpecException {
        if (!EcKeys.isP256(params)) {
            throw new InvalidKeySpecException("parcrypt's EC keys are P-256 (secp256r1) only");
        }
    }

    @Override
    EcKeys.Public newPublic(byte[] der) throws InvalidKeyException {
        return new EcKeys.Public(der);
    }

    @Override
    EcKeys.Private newPrivate(byte[] der) throws InvalidKeyException {
        return new EcKeys.Private(der);
    }

    @Override
    EcKeys.Public toPublic(Key key) throws InvalidKeyException {
        return EcKeys.toPublic(key);
    }

    @Override
    EcKeys.Private toPrivate(Key key) throws InvalidKeyException {
        return EcKeys.toPrivate(key);
    }

    @Override
    byte[] publicDer(KeySpec spec) throws InvalidKeySpecException {
        ECPublicKeySpec s = (ECPublicKeySpec) spec;
        requireP256(s.getParams());
        return EcKeys.spkiOf(s.getW());
    }

    @Override
    byte[] privateDer(KeySpec spec) throws InvalidKeySpecException {
        if (!(spec instanceof ECPrivateKeySpec)) {
            return null;
        }
        ECPrivateKeySpec s = (ECPrivateKeySpec) spec;
        requireP256(s.getParams());
        return EcKeys.pkcs8Of(s.getS());
    }

    @Override
    KeySpec publicValues(EcKeys.Public k, Class<?> spec) {
        return spec.isAssignableFrom(ECPublicKeySpec.class) ? new ECPublicKeySpec(k.getW(), EcKeys.P256) : null;
    }

    @Override
    KeySpec privateValues(EcKeys.Private k, Class<?> spec) {
        return spec.isAssignableFrom(ECPrivateKeySpec.class) ? new ECPrivateKeySpec(k.getS(), EcKeys.P256) : null;
    }
}
