package dev.parcrypt.jca;

import java.math.BigInteger;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.KeyPair;
import java.security.KeyPairGeneratorSpi;
import java.security.ProviderException;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.util.Arrays;

/**
 * {@code KeyPairGenerator.RSA}: 1024 to 16384 bits in steps of 128, e = 65537,
 * the primes searched by all the provider's threads racing candidates. The
 * randomness is the operating system's (through AWS-LC), not the {@code
 * SecureRandom} passed to {@code initialize}.
 */
public final class RsaKeyPairGenerator extends KeyPairGeneratorSpi {
    private final ParcryptProvider provider;
    private int bits = 3072;

    public RsaKeyPairGenerator(ParcryptProvider provider) {
        this.provider = provider;
    }

    private static void check(int bits) throws InvalidAlgorithmParameterException {
        if (bits < 1024 || bits > 16384 || bits % 128 != 0) {
            throw new InvalidAlgorithmParameterException("RSA key size must be 1024 to 16384 bits in steps of 128, got " + bits);
        }
    }

    @Override
    public void initialize(int keysize, SecureRandom random) {
        try {
            check(keysize);
        } catch (InvalidAlgorithmParameterException e) {
            throw new InvalidParameterException(e.getMessage());
        }
        bits = keysize;
    }

    @Override
    public void initialize(AlgorithmParameterSpec params, SecureRandom random) throws InvalidAlgorithmParameterException {
        if (!(params instanceof RSAKeyGenParameterSpec)) {
            throw new InvalidAlgorithmParameterException("RSA takes an RSAKeyGenParameterSpec");
        }
        RSAKeyGenParameterSpec spec = (RSAKeyGenParameterSpec) params;
        check(spec.getKeysize());
        if (spec.getPublicExponent() != null && !spec.getPublicExponent().equals(RSAKeyGenParameterSpec.F4)) {
            throw new InvalidAlgorithmParameterException("parcrypt generates RSA keys with e = 65537 only, not "
                    + spec.getPublicExponent());
        }
        if (spec.getKeyParams() != null) {
            throw new InvalidAlgorithmParameterException("RSA key parameters (RSASSA-PSS keys) are not supported");
        }
        bits = spec.getKeysize();
    }

    @Override
    public KeyPair generateKeyPair() {
        byte[] pkcs8 = null;
        try {
            pkcs8 = Native.rsaGenerate(bits, provider.threads(), provider.strategyCode());
            RsaKeys.Private priv = new RsaKeys.Private(pkcs8);
            return new KeyPair(new RsaKeys.Public(priv.publicSpki()), priv);
        } catch (InvalidAlgorithmParameterException | InvalidKeyException e) {
            throw new ProviderException("RSA key generation failed: " + e.getMessage(), e);
        } finally {
            if (pkcs8 != null) {
                Arrays.fill(pkcs8, (byte) 0);
            }
        }
    }

    static final BigInteger F4 = RSAKeyGenParameterSpec.F4;
}
