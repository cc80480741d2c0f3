package dev.parcrypt.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.util.Arrays;
import java.util.Set;

/** {@code KeyPairGenerator.EC}: P-256 (secp256r1, 256 bits) only. */
public final class EcKeyPairGenerator extends KeyPairGeneratorSpi {
    private static final Set<String> NAMES = Set.of("secp256r1", "p-256", "nist p-256", "prime256v1", "1.2.840.10045.3.1.7");

    public EcKeyPairGenerator(ParcryptProvider provider) {}

    @Override
    public void initialize(int keysize, SecureRandom random) {
        if (keysize != 256) {
            throw new InvalidParameterException("parcrypt's EC keys are P-256 (256 bits), not " + keysize);
        }
    }

    @Override
    public void initialize(AlgorithmParameterSpec params, SecureRandom random) throws InvalidAlgorithmParameterException {
        if (params instanceof ECGenParameterSpec) {
            String name = ((ECGenParameterSpec) params).getName().toLowerCase(java.util.Locale.ROOT);
            if (!NAMES.contains(name)) {
                throw new InvalidAlgorithmParameterException("parcrypt's EC keys are secp256r1 only, not " + name);
            }
        } else if (params instanceof ECParameterSpec) {
            if (!EcKeys.isP256((ECParameterSpec) params)) {
                throw new InvalidAlgorithmParameterException("parcrypt's EC keys are secp256r1 only");
            }
        } else {
            throw new InvalidAlgorithmParameterException("EC takes an ECGenParameterSpec or ECParameterSpec");
        }
    }

    @Override
    public KeyPair generateKeyPair() {
        byte[] pkcs8 = Native.ecGenerate();
        try {
            EcKeys.Private priv = new EcKeys.Private(pkcs8);
            return new KeyPair(new EcKeys.Public(priv.publicSpki()), priv);
        } catch (InvalidKeyException e) {
            throw new ProviderException("EC key generation failed: " + e.getMessage(), e);
        } finally {
            Arrays.fill(pkcs8, (byte) 0);
        }
    }
}
