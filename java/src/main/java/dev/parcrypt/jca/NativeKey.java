package dev.parcrypt.jca;

import java.security.Key;
import java.util.Arrays;

/**
 * What this provider's keys share: a native handle, loaded when the key is
 * made, and an encoding (X.509 for public keys, PKCS#8 for private ones)
 * that never changes, so {@code getEncoded}, {@code hashCode} and
 * encoding-based equality are the same for every family.
 */
abstract class NativeKey implements Key {
    private static final long serialVersionUID = 1L;
    private final String algorithm;
    private final String format;
    private final transient NativeRef ref;

    NativeKey(String algorithm, String format, NativeRef ref) {
        this.algorithm = algorithm;
        this.format = format;
        this.ref = ref;
    }

    /** The key's encoding itself (callers must not change it). */
    abstract byte[] encoding();

    final NativeRef ref() {
        return ref;
    }

    /** True if {@code o} is a {@code type} key with the same encoding (whichever provider made it). */
    final boolean sameEncoding(Object o, Class<?> type) {
        return type.isInstance(o) && o instanceof Key && Arrays.equals(encoding(), ((Key) o).getEncoded());
    }

    @Override
    public final String getAlgorithm() {
        return algorithm;
    }

    @Override
    public final String getFormat() {
        return format;
    }

    @Override
    public final byte[] getEncoded() {
        return encoding().clone();
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoding());
    }
}
