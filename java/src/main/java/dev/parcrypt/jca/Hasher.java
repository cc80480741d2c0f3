package dev.parcrypt.jca;

/** An incremental native hash (SHA-1/256/384/512 by bit length; 1 = SHA-1). */
final class Hasher {
    private final NativeRef ref;
    final int code;

    Hasher(int code) {
        this.code = code;
        this.ref = new NativeRef(Native.hasherNew(code), Native::hasherFree);
    }

    void update(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        long h = ref.acquire();
        try {
            Native.hasherUpdate(h, b, off, len);
        } finally {
            ref.release();
        }
    }

    /** The digest; the hasher starts again empty. */
    byte[] finish() {
        long h = ref.acquire();
        try {
            return Native.hasherFinish(h);
        } finally {
            ref.release();
        }
    }

    /** Digest length in bytes. */
    int length() {
        return code == 1 ? 20 : code / 8;
    }

    /** The code for a JCA digest name (SHA-256, SHA256, SHA-1, ...), or -1. */
    static int codeOf(String name) {
        switch (name.toUpperCase(java.util.Locale.ROOT).replace("-", "")) {
            case "SHA1":
                return 1;
            case "SHA256":
                return 256;
            case "SHA384":
                return 384;
            case "SHA512":
                return 512;
            default:
                return -1;
        }
    }
}
