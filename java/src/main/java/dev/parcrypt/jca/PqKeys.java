package dev.parcrypt.jca;

import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.List;
import javax.security.auth.Destroyable;

/**
 * Post-quantum keys of this provider: ML-DSA (FIPS 204), SLH-DSA (FIPS 205)
 * and ML-KEM (FIPS 203), their parameter sets, and anyone's keys of these
 * families turned into native ones through their X.509 / PKCS#8 encodings.
 *
 * <p>As the JDK's (24+) keys: {@code getAlgorithm()} is the family ({@code
 * "ML-DSA"}, {@code "SLH-DSA"}, {@code "ML-KEM"}), {@code getParams()} a
 * {@link NamedParameterSpec} naming the set ({@code "ML-DSA-65"}, {@code
 * "SLH-DSA-SHA2-128S"}), formats {@code X.509} and {@code PKCS#8}.
 */
final class PqKeys {
    private PqKeys() {}

    /** A key family. */
    enum Kind {
        ML_DSA("ML-DSA", 0),
        SLH_DSA("SLH-DSA", 1),
        ML_KEM("ML-KEM", -1);

        final String name;
        /** The native signature family code (-1: ML-KEM's own entry points). */
        final int code;

        Kind(String name, int code) {
            this.name = name;
            this.code = code;
        }
    }

    /** A parameter set: its name as the JDK and Bouncy Castle spell it, and its OID. */
    static final class Set {
        final Kind kind;
        final String name;
        final String oid;
        /** The OID's DER contents (2.16.840.1.101.3.4.{3,4}.arc). */
        final byte[] oidBytes;

        private Set(Kind kind, String name, int arc) {
            this.kind = kind;
            this.name = name;
            int branch = kind == Kind.ML_KEM ? 4 : 3;
            this.oid = "2.16.840.1.101.3.4." + branch + "." + arc;
            this.oidBytes = Hex.unhex(String.format("60864801650304%02x%02x", branch, arc));
        }

        NamedParameterSpec spec() {
            return new NamedParameterSpec(name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Every set: ML-DSA (OIDs …3.17–19), SLH-DSA (…3.20–31, RFC 9909), ML-KEM (…4.1–3). */
    static final List<Set> ALL = List.of(
            new Set(Kind.ML_DSA, "ML-DSA-44", 17),
            new Set(Kind.ML_DSA, "ML-DSA-65", 18),
            new Set(Kind.ML_DSA, "ML-DSA-87", 19),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHA2-128S", 20),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHA2-128F", 21),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHA2-192S", 22),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHA2-192F", 23),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHA2-256S", 24),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHA2-256F", 25),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHAKE-128S", 26),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHAKE-128F", 27),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHAKE-192S", 28),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHAKE-192F", 29),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHAKE-256S", 30),
            new Set(Kind.SLH_DSA, "SLH-DSA-SHAKE-256F", 31),
            new Set(Kind.ML_KEM, "ML-KEM-512", 1),
            new Set(Kind.ML_KEM, "ML-KEM-768", 2),
            new Set(Kind.ML_KEM, "ML-KEM-1024", 3));

    /** The set named {@code name} (any case), or null. */
    static Set byName(String name) {
        for (Set s : ALL) {
            if (s.name.equalsIgnoreCase(name)) {
                return s;
            }
        }
        return null;
    }

    /** The family named {@code name} (any case), or null. */
    static Kind kindNamed(String name) {
        for (Kind k : Kind.values()) {
            if (k.name.equalsIgnoreCase(name)) {
                return k;
            }
        }
        return null;
    }

    /** The set of an X.509 ({@code pkcs8} false) or PKCS#8 encoding, by its AlgorithmIdentifier. */
    static Set setOf(byte[] der, boolean pkcs8) throws InvalidKeyException {
        byte[] oid;
        try {
            Der outer = new Der(der).next(0x30);
            if (pkcs8) {
                outer.integer();
            }
            oid = outer.next(0x30).next(0x06).rest();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidKeyException("not a DER " + (pkcs8 ? "PKCS#8 private key" : "X.509 public key"));
        }
        for (Set s : ALL) {
            if (Arrays.equals(s.oidBytes, oid)) {
                return s;
            }
        }
        throw new InvalidKeyException("not an ML-DSA, SLH-DSA or ML-KEM key (algorithm OID " + oidString(oid) + ")");
    }

    private static String oidString(byte[] oid) {
        if (oid.length == 0) {
            return "empty";
        }
        StringBuilder sb = new StringBuilder();
        sb.append((oid[0] & 0xff) / 40).append('.').append((oid[0] & 0xff) % 40);
        long arc = 0;
        for (int i = 1; i < oid.length; i++) {
            arc = (arc << 7) | (oid[i] & 0x7f);
            if ((oid[i] & 0x80) == 0) {
                sb.append('.').append(arc);
                arc = 0;
            }
        }
        return sb.toString();
    }

    /** Refuses a key of another family than {@code kind}, or another set than {@code set} (null: any). */
    static void check(Set found, Kind kind, Set set) throws InvalidKeyException {
        if (found.kind != kind) {
            throw new InvalidKeyException("not an " + kind.name + " key: the key is " + found.name);
        }
        if (set != null && set != found) {
            throw new InvalidKeyException("the key is " + found.name + ", not " + set.name);
        }
    }

    private static NativeRef publicRef(Set set, byte[] der) throws InvalidKeyException {
        return set.kind == Kind.ML_KEM
                ? new NativeRef(Native.kemPublicLoad(der), Native::kemPublicFree)
                : new NativeRef(Native.sigPublicLoad(set.kind.code, der), Native::sigPublicFree);
    }

    /** SLH-DSA rebuilds the key's top tree (to check it) on {@code threads}; the others only parse. */
    private static NativeRef privateRef(Set set, byte[] der, int threads, int strategy) throws InvalidKeyException {
        return set.kind == Kind.ML_KEM
                ? new NativeRef(Native.kemPrivateLoad(der), Native::kemPrivateFree)
                : new NativeRef(Native.sigPrivateLoad(set.kind.code, der, threads, strategy), Native::sigPrivateFree);
    }

    /**
     * A public key: its set, a native handle, and its SPKI encoding as the
     * library writes it (made when first asked for: a generated key pair's
     * public half is often only used, never encoded).
     */
    static final class Public extends NativeKey implements PublicKey {
        private static final long serialVersionUID = 1L;
        final transient Set set;
        private byte[] spki;

        private Public(Set set, NativeRef ref) {
            super(set.kind.name, "X.509", ref);
            this.set = set;
        }

        /** The key of SPKI {@code der}, of family {@code kind} and set {@code set} (null: any). */
        static Public of(byte[] der, Kind kind, Set set) throws InvalidKeyException {
            Set found = setOf(der, false);
            check(found, kind, set);
            return new Public(found, publicRef(found, der));
        }

        @Override
        synchronized byte[] encoding() {
            if (spki == null) {
                spki = ref().call(h -> set.kind == Kind.ML_KEM
                        ? Native.kemPublicEncode(h, 0)
                        : Native.sigPublicEncode(h, 0));
            }
            return spki;
        }

        /** The parameter set, as the JDK's {@code AsymmetricKey.getParams()} (Java 22+) gives it. */
        public NamedParameterSpec getParams() {
            return set.spec();
        }

        @Override
        public boolean equals(Object o) {
            return sameEncoding(o, PublicKey.class);
        }

        @Override
        public String toString() {
            return "Parcrypt " + set.name + " public key";
        }
    }

    /**
     * A private key: its set, a native handle and its PKCS#8 encoding
     * (ML-DSA and ML-KEM: the seed form, or the expanded form for a key
     * read without its seed), made when first asked for. {@link
     * #destroy()} wipes the encoding and frees the native key (whose
     * memory the library wipes).
     */
    static final class Private extends NativeKey implements PrivateKey, Destroyable {
        private static final long serialVersionUID = 1L;
        final transient Set set;
        private byte[] pkcs8;
        private volatile boolean destroyed;

        private Private(Set set, byte[] der, int threads, int strategy) throws InvalidKeyException {
            this(set, privateRef(set, der, threads, strategy));
        }

        private Private(Set set, NativeRef ref) {
            super(set.kind.name, "PKCS#8", ref);
            this.set = set;
        }

        /** A new key of {@code set}, generated natively (SLH-DSA's top tree on the provider's threads). */
        static Private generate(Set set, ParcryptProvider provider) throws InvalidAlgorithmParameterException {
            return new Private(set, set.kind == Kind.ML_KEM
                    ? new NativeRef(Native.kemGenerate(set.name), Native::kemPrivateFree)
                    : new NativeRef(Native.sigGenerate(set.kind.code, set.name, provider.threads(),
                            provider.strategyCode()), Native::sigPrivateFree));
        }

        /**
         * The key of PKCS#8 {@code der}, of family {@code kind} and set {@code set} (null: any),
         * read on {@code threads} ({@code strategy} a provider's code): an SLH-DSA key's top tree
         * is rebuilt, the cost of a key generation.
         */
        static Private of(byte[] der, Kind kind, Set set, int threads, int strategy) throws InvalidKeyException {
            Set found = setOf(der, true);
            check(found, kind, set);
            return new Private(found, der, threads, strategy);
        }

        /** {@code what}: 0 = PKCS#8, 2 = the raw expanded key (not SLH-DSA). */
        byte[] encode(int what) {
            return ref().call(h -> set.kind == Kind.ML_KEM
                    ? Native.kemPrivateEncode(h, what)
                    : Native.sigPrivateEncode(h, what));
        }

        /** The public key, sharing the native one (nothing encoded or parsed). */
        Public publicKey() {
            return new Public(set, set.kind == Kind.ML_KEM
                    ? new NativeRef(ref().call(Native::kemPublicOf), Native::kemPublicFree)
                    : new NativeRef(ref().call(Native::sigPublicOf), Native::sigPublicFree));
        }

        @Override
        synchronized byte[] encoding() {
            if (destroyed) {
                throw new IllegalStateException("the key was destroyed");
            }
            if (pkcs8 == null) {
                pkcs8 = encode(0);
            }
            return pkcs8;
        }

        public NamedParameterSpec getParams() {
            return set.spec();
        }

        @Override
        public synchronized void destroy() {
            destroyed = true;
            if (pkcs8 != null) {
                Arrays.fill(pkcs8, (byte) 0);
            }
            ref().close();
        }

        @Override
        public boolean isDestroyed() {
            return destroyed;
        }

        @Override
        public boolean equals(Object o) {
            return !destroyed && sameEncoding(o, PrivateKey.class);
        }

        @Override
        public int hashCode() {
            return set.hashCode();
        }

        @Override
        public String toString() {
            return "Parcrypt " + set.name + " private key (redacted)";
        }
    }

    private static String describe(Key key) {
        return key == null ? "null" : key.getAlgorithm() + " " + key.getClass().getName();
    }

    /** Any provider's public key of family {@code kind} (and set {@code set}, if not null) as this provider's. */
    static Public toPublic(Key key, Kind kind, Set set) throws InvalidKeyException {
        if (key instanceof Public) {
            Public p = (Public) key;
            check(p.set, kind, set);
            return p;
        }
        if (!(key instanceof PublicKey) || !"X.509".equalsIgnoreCase(key.getFormat()) || key.getEncoded() == null) {
            throw new InvalidKeyException("an " + kind.name + " public key (X.509 encoded) is needed, got " + describe(key));
        }
        return Public.of(key.getEncoded(), kind, set);
    }

    /**
     * Any provider's private key of family {@code kind} (and set {@code set}, if not null) as this
     * provider's; another provider's key is read on {@code threads} (see {@link Private#of}).
     */
    static Private toPrivate(Key key, Kind kind, Set set, int threads, int strategy) throws InvalidKeyException {
        if (key instanceof Private) {
            Private p = (Private) key;
            if (p.isDestroyed()) {
                throw new InvalidKeyException("the key was destroyed");
            }
            check(p.set, kind, set);
            return p;
        }
        byte[] der = key instanceof PrivateKey && "PKCS#8".equalsIgnoreCase(key.getFormat()) ? key.getEncoded() : null;
        if (der == null) {
            throw new InvalidKeyException("an " + kind.name + " private key (PKCS#8 encoded) is needed, got " + describe(key));
        }
        try {
            return Private.of(der, kind, set, threads, strategy);
        } finally {
            Arrays.fill(der, (byte) 0);
        }
    }

    /** A service's family and, for a per-set name ({@code "ML-DSA-65"}), its set; null for the family's name. */
    record Named(Kind kind, Set set) {
        static Named of(String algorithm) {
            Set set = byName(algorithm);
            Kind kind = set != null ? set.kind : kindNamed(algorithm);
            if (kind == null) {
                throw new IllegalArgumentException("not a post-quantum algorithm: " + algorithm);
            }
            return new Named(kind, set);
        }
    }
}
