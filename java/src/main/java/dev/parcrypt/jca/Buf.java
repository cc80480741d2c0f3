package dev.parcrypt.jca;

import java.util.Arrays;

/** A growable byte buffer whose array is handed to native code as it is (no copy out). */
final class Buf {
    private byte[] data = new byte[0];
    private int size;

    int size() {
        return size;
    }

    byte[] array() {
        return data;
    }

    void append(byte[] in, int off, int len) {
        if (len == 0) {
            return;
        }
        if (len > Integer.MAX_VALUE - 64 - size) {
            throw new IllegalStateException("more than 2 GiB buffered");
        }
        if (size + len > data.length) {
            byte[] bigger = Arrays.copyOf(data, Math.max(size + len, (int) Math.min(Integer.MAX_VALUE - 64L, data.length * 2L)));
            Arrays.fill(data, (byte) 0);
            data = bigger;
        }
        System.arraycopy(in, off, data, size, len);
        size += len;
    }

    /** Empties the buffer and wipes what it held. */
    void clear() {
        Arrays.fill(data, 0, size, (byte) 0);
        size = 0;
    }

    /** The contents as a new array (or null when empty and {@code nullIfEmpty}). */
    byte[] copy(boolean nullIfEmpty) {
        return size == 0 && nullIfEmpty ? null : Arrays.copyOf(data, size);
    }
}
