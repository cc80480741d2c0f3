package dev.parcrypt.jca;

import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.ProviderException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JCA provider {@code Parcrypt}: parcrypt's multi-core AES-GCM, AES-CTR,
 * AES-CBC decryption, RSA key generation and private operations, ECDSA, and
 * the post-quantum ML-DSA, SLH-DSA and ML-KEM (the JDK's names), behind the
 * standard {@code Cipher}, {@code Signature}, {@code KeyPairGenerator},
 * {@code KeyFactory} and (Java 21+) {@code KEM} APIs.
 *
 * <pre>{@code
 * Security.addProvider(new ParcryptProvider());            // every core, work stealing
 * Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding", "Parcrypt");
 * }</pre>
 *
 * <p>How work is spread: {@code new ParcryptProvider(threads, strategy)}
 * ({@code threads} 0 = every core the JVM may use; {@code strategy} {@code
 * "seq"}, {@code "static"} or {@code "steal"}), or for the no-argument
 * constructor (and so {@code java.security} / {@code ServiceLoader}
 * registration) the system properties {@code parcrypt.threads} and {@code
 * parcrypt.strategy}. Every service object made by this provider uses its
 * setting; the output never depends on it.
 */
public final class ParcryptProvider extends Provider {
    private static final long serialVersionUID = 1L;

    /** The provider's name, as {@code getInstance(..., "Parcrypt")} takes it. */
    public static final String NAME = "Parcrypt";

    private final int threads;
    private final int strategy;

    /**
     * The platforms this jar carries a native library for ({@code
     * linux-x86_64}, {@code linux-aarch64}), found without loading any: the
     * provider can be constructed on exactly these.
     *
     * @return the platforms, an empty list for a jar without native libraries
     */
    public static List<String> nativePlatforms() {
        return NativeLoader.carried();
    }

    /** Threads and strategy from {@code parcrypt.threads} / {@code parcrypt.strategy} (default: every core, steal). */
    public ParcryptProvider() {
        this(threadsProperty(), System.getProperty("parcrypt.strategy", "steal"));
    }

    /**
     * @param threads threads per operation; 0 for every core the JVM may use
     * @param strategy {@code "seq"}, {@code "static"} or {@code "steal"}
     * @throws IllegalArgumentException for a negative thread count or an unknown strategy
     * @throws ProviderException if no native library fits this platform
     */
    public ParcryptProvider(int threads, String strategy) {
        super(NAME, "0.1.0", "Parcrypt: multi-core AES-GCM/CTR/CBC, RSA, ECDSA, ML-DSA, SLH-DSA and ML-KEM over the parcrypt Rust library");
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be 0 (every core) or more, got " + threads);
        }
        this.threads = threads;
        this.strategy = strategyCode(strategy);
        NativeLoader.load();
        register();
    }

    private static int threadsProperty() {
        String value = System.getProperty("parcrypt.threads", "0").trim();
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parcrypt.threads must be an integer (0 = every core), got \"" + value + "\"");
        }
    }

    static int strategyCode(String name) {
        switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
            case "seq":
            case "sequential":
                return 0;
            case "static":
                return 1;
            case "steal":
            case "work-stealing":
                return 2;
            default:
                throw new IllegalArgumentException("unknown strategy \"" + name + "\": expected seq, static or steal");
        }
    }

    /** Threads per operation (0 = every core). */
    public int threads() {
        return threads;
    }

    /** The strategy's name: {@code seq}, {@code static} or {@code steal}. */
    public String strategy() {
        return new String[] {"seq", "static", "steal"}[strategy];
    }

    int strategyCode() {
        return strategy;
    }

    private void register() {
        add("Cipher", "AES/GCM/NoPadding", "AesGcmCipher", List.of("AES_128/GCM/NoPadding", "AES_256/GCM/NoPadding"));
        add("Cipher", "AES/CTR/NoPadding", "AesCipher$Ctr", List.of());
        add("Cipher", "AES/CBC/PKCS5Padding", "AesCipher$Cbc", List.of());
        // SunJCE's OAEP names (its SupportedPaddings) for the digests parcrypt has.
        add("Cipher", "RSA/ECB/OAEPPadding", "RsaOaepCipher", List.of());
        add("Cipher", "RSA/ECB/OAEPWithSHA-1AndMGF1Padding", "RsaOaepCipher$Sha1",
                List.of("RSA/ECB/OAEPWithSHA1AndMGF1Padding"));
        add("Cipher", "RSA/ECB/OAEPWithSHA-256AndMGF1Padding", "RsaOaepCipher$Sha256", List.of());
        add("Cipher", "RSA/ECB/OAEPWithSHA-384AndMGF1Padding", "RsaOaepCipher$Sha384", List.of());
        add("Cipher", "RSA/ECB/OAEPWithSHA-512AndMGF1Padding", "RsaOaepCipher$Sha512", List.of());
        add("Signature", "SHA256withECDSA", "EcdsaSignature$Der", List.of("1.2.840.10045.4.3.2"));
        add("Signature", "SHA256withECDSAinP1363Format", "EcdsaSignature$P1363", List.of());
        add("Signature", "SHA256withRSA", "RsaSignature$Sha256", List.of("1.2.840.113549.1.1.11"));
        add("Signature", "SHA384withRSA", "RsaSignature$Sha384", List.of("1.2.840.113549.1.1.12"));
        add("Signature", "SHA512withRSA", "RsaSignature$Sha512", List.of("1.2.840.113549.1.1.13"));
        add("Signature", "RSASSA-PSS", "RsaSignature$Pss", List.of("1.2.840.113549.1.1.10", "PSS"));
        add("KeyPairGenerator", "RSA", "RsaKeyPairGenerator", List.of("1.2.840.113549.1.1.1"));
        add("KeyPairGenerator", "EC", "EcKeyPairGenerator", List.of("EllipticCurve"));
        add("KeyFactory", "RSA", "RsaKeyFactory", List.of("1.2.840.113549.1.1.1"));
        add("KeyFactory", "EC", "EcKeyFactory", List.of("EllipticCurve"));
        add("AlgorithmParameters", "GCM", "GcmParameters", List.of());
        registerPostQuantum();
    }

    /**
     * ML-DSA, SLH-DSA and ML-KEM under the JDK's names: the family ({@code
     * "ML-DSA"}: any set) and each set ({@code "ML-DSA-65"}, with its OID
     * as aliases, as the JDK registers them; SLH-DSA's sets as Bouncy
     * Castle spells them, {@code "SLH-DSA-SHA2-128S"}). {@code KEM} only
     * on Java 21+ (see {@link #hasKemSpi}).
     */
    private void registerPostQuantum() {
        boolean kem = hasKemSpi();
        for (PqKeys.Kind kind : PqKeys.Kind.values()) {
            List<String> types = kind == PqKeys.Kind.ML_KEM
                    ? (kem ? List.of("KeyPairGenerator", "KeyFactory", "KEM") : List.of("KeyPairGenerator", "KeyFactory"))
                    : List.of("KeyPairGenerator", "KeyFactory", "Signature");
            for (String type : types) {
                addNamed(type, kind.name, List.of());
                for (PqKeys.Set set : PqKeys.ALL) {
                    if (set.kind == kind) {
                        addNamed(type, set.name, List.of(set.oid, "OID." + set.oid));
                    }
                }
            }
        }
    }

    /**
     * Java 21+ with {@code javax.crypto.KEMSpi}: {@link PqKem} is compiled
     * for Java 21 (17.0.11+ has the KEM API too, backported, but cannot
     * load a Java 21 class).
     */
    private static boolean hasKemSpi() {
        if (Runtime.version().feature() < 21) {
            return false;
        }
        try {
            Class.forName("javax.crypto.KEMSpi");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static final Map<String, String> PQ_CLASSES = Map.of(
            "KeyPairGenerator", "PqKeyPairGenerator",
            "KeyFactory", "PqKeyFactory",
            "Signature", "PqSignature",
            "KEM", "PqKem");

    /** A post-quantum service: its class takes the algorithm name too (family or set). */
    private void addNamed(String type, String algorithm, List<String> aliases) {
        putService(new ParcryptService(this, type, algorithm,
                getClass().getPackageName() + "." + PQ_CLASSES.get(type), aliases, true));
    }

    private void add(String type, String algorithm, String className, List<String> aliases) {
        putService(new ParcryptService(this, type, algorithm, getClass().getPackageName() + "." + className, aliases,
                false));
    }

    /** Makes each service object with this provider (its threads and strategy). */
    private static final class ParcryptService extends Provider.Service {
        /** Whether the class's constructor also takes the algorithm's name. */
        private final boolean named;

        ParcryptService(ParcryptProvider provider, String type, String algorithm, String className, List<String> aliases,
                boolean named) {
            super(provider, type, algorithm, className, aliases, Map.of());
            this.named = named;
        }

        @Override
        public Object newInstance(Object constructorParameter) throws NoSuchAlgorithmException {
            if (constructorParameter != null) {
                throw new java.security.InvalidParameterException(getType() + " takes no constructor parameter");
            }
            try {
                Class<?> c = Class.forName(getClassName());
                return named
                        ? c.getDeclaredConstructor(ParcryptProvider.class, String.class)
                                .newInstance((ParcryptProvider) getProvider(), getAlgorithm())
                        : c.getDeclaredConstructor(ParcryptProvider.class).newInstance((ParcryptProvider) getProvider());
            } catch (ReflectiveOperationException e) {
                throw new NoSuchAlgorithmException("cannot make " + getType() + "." + getAlgorithm() + ": " + e, e);
            }
        }
    }
}
