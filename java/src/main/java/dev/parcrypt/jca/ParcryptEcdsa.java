package dev.parcrypt.jca;

import java.security.InvalidKeyException;
import java.security.PublicKey;

/**
 * What the JCA cannot express: checking many ECDSA P-256 signatures (SHA-256)
 * at once, spread over the cores.
 *
 * <pre>{@code
 * boolean[] ok = ParcryptEcdsa.verifyBatch(keys, messages, signatures);
 * }</pre>
 *
 * <p>Signatures are DER (as {@code SHA256withECDSA} writes them) unless
 * {@code p1363} is set (r ‖ s, 64 bytes). A malformed signature is simply
 * {@code false}; a key that is not P-256 throws {@link InvalidKeyException}
 * naming its index. Keys may come from any provider.
 */
public final class ParcryptEcdsa {
    private ParcryptEcdsa() {}

    /** Every core, work stealing, DER signatures. */
    public static boolean[] verifyBatch(PublicKey[] keys, byte[][] messages, byte[][] signatures)
            throws InvalidKeyException {
        return verifyBatch(keys, messages, signatures, false, 0, "steal");
    }

    /** One key for every message. */
    public static boolean[] verifyBatch(PublicKey key, byte[][] messages, byte[][] signatures)
            throws InvalidKeyException {
        PublicKey[] keys = new PublicKey[messages.length];
        java.util.Arrays.fill(keys, key);
        return verifyBatch(keys, messages, signatures);
    }

    /** With the threads and strategy of {@code provider}. */
    public static boolean[] verifyBatch(PublicKey[] keys, byte[][] messages, byte[][] signatures, boolean p1363,
            ParcryptProvider provider) throws InvalidKeyException {
        return verifyBatch(keys, messages, signatures, p1363, provider.threads(), provider.strategy());
    }

    /**
     * @param threads 0 for every core
     * @param strategy {@code seq}, {@code static} or {@code steal}
     */
    public static boolean[] verifyBatch(PublicKey[] keys, byte[][] messages, byte[][] signatures, boolean p1363,
            int threads, String strategy) throws InvalidKeyException {
        int strategyCode = ParcryptProvider.strategyCode(strategy);
        checkOneEach(keys.length, messages.length, signatures.length);
        byte[][] spkis = new byte[keys.length][];
        java.util.IdentityHashMap<PublicKey, byte[]> seen = new java.util.IdentityHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            PublicKey k = keys[i];
            byte[] spki = seen.get(k);
            if (spki == null) {
                try {
                    spki = EcKeys.toPublic(k).getEncoded();
                } catch (InvalidKeyException e) {
                    throw new InvalidKeyException("keys[" + i + "]: " + e.getMessage(), e);
                }
                seen.put(k, spki);
            }
            spkis[i] = spki;
        }
        return Native.ecVerifyBatch(spkis, messages, signatures, p1363 ? 1 : 0, threads, strategyCode);
    }

    /** Refuses a batch without one key, one message and one signature per item (shared with {@link ParcryptPq}). */
    static void checkOneEach(int keys, int messages, int signatures) {
        if (keys != messages || keys != signatures) {
            throw new IllegalArgumentException(keys + " keys, " + messages + " messages and " + signatures
                    + " signatures: give one of each per item");
        }
    }
}
