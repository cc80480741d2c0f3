package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SignatureException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * What the JCA cannot express for ML-DSA and SLH-DSA: many signatures at
 * once, spread over the cores, and the private-key form the JDK 25 reads.
 *
 * <pre>{@code
 * byte[][] sigs = ParcryptPq.signBatch(key, messages, context, provider);   // one per message, in order
 * boolean[] ok = ParcryptPq.verifyBatch(keys, messages, sigs, context, provider);
 * PKCS8EncodedKeySpec forJdk25 = ParcryptPq.expandedPrivateKey(mldsaKey);
 * }</pre>
 *
 * <p>Each result is the one {@code Signature} gives for that item (one
 * signature per thread at a time; outputs never depend on the threads or
 * the strategy). A signature that does not verify, or has the wrong length,
 * is {@code false}; a key that is not of the family throws {@link
 * InvalidKeyException} naming its index. Keys may come from any provider.
 */
public final class ParcryptPq {
    private ParcryptPq() {}

    private static final byte[] NONE = new byte[0];

    /** Every core, work stealing, no context. */
    public static boolean[] verifyBatch(PublicKey[] keys, byte[][] messages, byte[][] signatures)
            throws InvalidKeyException {
        return verifyBatch(keys, messages, signatures, NONE, 0, "steal");
    }

    /** With a context and the threads and strategy of {@code provider}. */
    public static boolean[] verifyBatch(PublicKey[] keys, byte[][] messages, byte[][] signatures, byte[] context,
            ParcryptProvider provider) throws InvalidKeyException {
        return verifyBatch(keys, messages, signatures, context, provider.threads(), provider.strategy());
    }

    /**
     * @param keys ML-DSA keys or SLH-DSA keys (one family per batch, any sets)
     * @param context 0–255 bytes, the same for every item
     * @param threads 0 for every core
     * @param strategy {@code seq}, {@code static} or {@code steal}
     */
    public static boolean[] verifyBatch(PublicKey[] keys, byte[][] messages, byte[][] signatures, byte[] context,
            int threads, String strategy) throws InvalidKeyException {
        int strategyCode = ParcryptProvider.strategyCode(strategy);
        checkContext(context);
        ParcryptEcdsa.checkOneEach(keys.length, messages.length, signatures.length);
        if (keys.length == 0) {
            return new boolean[0];
        }
        PqKeys.Kind kind = null;
        byte[][] spkis = new byte[keys.length][];
        IdentityHashMap<PublicKey, byte[]> seen = new IdentityHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            byte[] spki = seen.get(keys[i]);
            if (spki == null) {
                try {
                    PqKeys.Kind k = signatureKindOf(keys[i]);
                    kind = kind == null ? k : kind;
                    spki = PqKeys.toPublic(keys[i], kind, null).getEncoded();
                } catch (InvalidKeyException e) {
                    throw new InvalidKeyException("keys[" + i + "]: " + e.getMessage(), e);
                }
                seen.put(keys[i], spki);
            }
            spkis[i] = spki;
        }
        return Native.sigVerifyBatch(kind.code, spkis, messages, signatures, context, threads, strategyCode);
    }

    /** Every core, work stealing, no context, hedged. */
    public static byte[][] signBatch(PrivateKey key, byte[][] messages) throws InvalidKeyException, SignatureException {
        return signBatch(key, messages, NONE, false, 0, "steal");
    }

    /** With a context and the threads and strategy of {@code provider}, hedged. */
    public static byte[][] signBatch(PrivateKey key, byte[][] messages, byte[] context, ParcryptProvider provider)
            throws InvalidKeyException, SignatureException {
        return signBatch(key, messages, context, false, provider.threads(), provider.strategy());
    }

    /**
     * One signature per message, in order, by {@code key} (ML-DSA or SLH-DSA,
     * any provider's).
     *
     * @param deterministic SLH-DSA only ({@code opt_rand = PK.seed}); ML-DSA is always hedged
     */
    public static byte[][] signBatch(PrivateKey key, byte[][] messages, byte[] context, boolean deterministic,
            int threads, String strategy) throws InvalidKeyException, SignatureException {
        int strategyCode = ParcryptProvider.strategyCode(strategy);
        checkContext(context);
        PqKeys.Kind kind = signatureKindOf(key);
        if (deterministic && kind == PqKeys.Kind.ML_DSA) {
            throw new IllegalArgumentException("ML-DSA signs hedged only (deterministic is SLH-DSA's option)");
        }
        PqKeys.Private k = PqKeys.toPrivate(key, kind, null, threads, strategyCode);
        return k.ref().call(h -> Native.sigSignBatch(h, messages, context, deterministic, threads, strategyCode));
    }

    /**
     * An ML-DSA or ML-KEM private key (any provider's) in the PKCS#8
     * <em>expanded</em> form: what the JDK 25's SUN and SunJCE providers
     * write and the only form they read (this provider writes the seed
     * form, as OpenSSL 3.5 and pyca do, and reads all three).
     *
     * @throws InvalidKeyException an SLH-DSA key (one form only) or another family's
     */
    public static PKCS8EncodedKeySpec expandedPrivateKey(PrivateKey key) throws InvalidKeyException {
        // 0 threads (every core): only ML-DSA and ML-KEM keys go on, and their reading is not parallel.
        PqKeys.Private k = PqKeys.toPrivate(key, kindOf(key), null, 0, ParcryptProvider.strategyCode("steal"));
        if (k.set.kind == PqKeys.Kind.SLH_DSA) {
            throw new InvalidKeyException("SLH-DSA private keys have one form");
        }
        byte[] raw = k.encode(2);
        byte[] inner = Der.octetString(raw);
        byte[] der = Der.pkcs8(k.set.oidBytes, inner);
        try {
            return new PKCS8EncodedKeySpec(der);
        } finally {
            Arrays.fill(raw, (byte) 0);
            Arrays.fill(inner, (byte) 0);
            Arrays.fill(der, (byte) 0);
        }
    }

    private static PqKeys.Kind kindOf(java.security.Key key) throws InvalidKeyException {
        PqKeys.Kind kind = key == null ? null : PqKeys.kindNamed(key.getAlgorithm());
        if (kind == null && key != null) {
            PqKeys.Set set = PqKeys.byName(key.getAlgorithm());
            kind = set == null ? null : set.kind;
        }
        if (kind == null) {
            throw new InvalidKeyException("not an ML-DSA, SLH-DSA or ML-KEM key: "
                    + (key == null ? "null" : key.getAlgorithm()));
        }
        return kind;
    }

    /** ML-DSA or SLH-DSA (an ML-KEM key does not sign). */
    private static PqKeys.Kind signatureKindOf(java.security.Key key) throws InvalidKeyException {
        PqKeys.Kind kind = kindOf(key);
        if (kind == PqKeys.Kind.ML_KEM) {
            throw new InvalidKeyException("an ML-KEM key does not sign: an ML-DSA or SLH-DSA key is needed");
        }
        return kind;
    }

    private static void checkContext(byte[] context) {
        if (context.length > ContextParameterSpec.MAX_CONTEXT) {
            throw new IllegalArgumentException("a context is at most 255 bytes, not " + context.length);
        }
    }
}
