package dev.parcrypt.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.DecapsulateException;
import javax.crypto.KEM;
import javax.crypto.KEMSpi;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code KEM} {@code "ML-KEM"} ({@code "ML-KEM-768"} … for one set only), as
 * the JDK's SunJCE offers it: a 32-byte shared secret, the ciphertext as
 * the encapsulation, no parameters. Java 21+ only (this class is compiled
 * for Java 21 and registered only where {@code javax.crypto.KEMSpi}
 * exists). A ciphertext of the wrong length is a {@link
 * DecapsulateException}; a foreign one of the right length gives a
 * pseudorandom secret (FIPS 203's implicit rejection). Randomness comes
 * from the operating system (through the library), not from the {@code
 * SecureRandom} given.
 */
public final class PqKem implements KEMSpi {
    private static final int SECRET = 32;
    private final PqKeys.Named named;

    public PqKem(ParcryptProvider provider, String algorithm) {
        this.named = PqKeys.Named.of(algorithm);
    }

    private static void noParams(AlgorithmParameterSpec spec) throws InvalidAlgorithmParameterException {
        if (spec != null) {
            throw new InvalidAlgorithmParameterException("ML-KEM takes no parameters");
        }
    }

    private static int ciphertextLength(PqKeys.Set set) {
        switch (set.name) {
            case "ML-KEM-512": return 768;
            case "ML-KEM-768": return 1088;
            default: return 1568;
        }
    }

    private static SecretKey secretKey(byte[] secret, int from, int to, String algorithm) {
        Objects.checkFromToIndex(from, to, SECRET);
        Objects.requireNonNull(algorithm, "null algorithm");
        try {
            return new SecretKeySpec(secret, from, to - from, algorithm);
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
    }

    @Override
    public EncapsulatorSpi engineNewEncapsulator(PublicKey publicKey, AlgorithmParameterSpec spec,
            SecureRandom secureRandom) throws InvalidAlgorithmParameterException, InvalidKeyException {
        noParams(spec);
        PqKeys.Public key = PqKeys.toPublic(publicKey, PqKeys.Kind.ML_KEM, named.set());
        return new Encapsulator(key, ciphertextLength(key.set));
    }

    @Override
    public DecapsulatorSpi engineNewDecapsulator(PrivateKey privateKey, AlgorithmParameterSpec spec)
            throws InvalidAlgorithmParameterException, InvalidKeyException {
        noParams(spec);
        // An ML-KEM key is only parsed: no threads to give.
        PqKeys.Private key = PqKeys.toPrivate(privateKey, PqKeys.Kind.ML_KEM, named.set(), 1, 0);
        return new Decapsulator(key, ciphertextLength(key.set));
    }

    /** What both directions report: a 32-byte secret, the set's ciphertext length. */
    private abstract static class Sizes {
        final int ctLen;

        Sizes(int ctLen) {
            this.ctLen = ctLen;
        }

        public int engineSecretSize() {
            return SECRET;
        }

        public int engineEncapsulationSize() {
            return ctLen;
        }
    }

    private static final class Encapsulator extends Sizes implements EncapsulatorSpi {
        private final PqKeys.Public key;

        Encapsulator(PqKeys.Public key, int ctLen) {
            super(ctLen);
            this.key = key;
        }

        @Override
        public KEM.Encapsulated engineEncapsulate(int from, int to, String algorithm) {
            Objects.checkFromToIndex(from, to, SECRET);
            byte[] both = key.ref().call(Native::kemEncapsulate);
            byte[] ct = Arrays.copyOf(both, ctLen);
            byte[] secret = Arrays.copyOfRange(both, ctLen, both.length);
            Arrays.fill(both, (byte) 0);
            return new KEM.Encapsulated(secretKey(secret, from, to, algorithm), ct, null);
        }
    }

    private static final class Decapsulator extends Sizes implements DecapsulatorSpi {
        private final PqKeys.Private key;

        Decapsulator(PqKeys.Private key, int ctLen) {
            super(ctLen);
            this.key = key;
        }

        @Override
        public SecretKey engineDecapsulate(byte[] encapsulation, int from, int to, String algorithm)
                throws DecapsulateException {
            Objects.checkFromToIndex(from, to, SECRET);
            Objects.requireNonNull(encapsulation, "null encapsulation");
            if (encapsulation.length != ctLen) {
                throw new DecapsulateException("an " + key.set.name + " ciphertext is " + ctLen
                        + " bytes, not " + encapsulation.length);
            }
            byte[] secret = key.ref().call(h -> Native.kemDecapsulate(h, encapsulation));
            return secretKey(secret, from, to, algorithm);
        }
    }
}
