package dev.parcrypt.jca;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The little DER the key classes need: reading the INTEGERs of a PKCS#1 key
 * and the fields of SPKI / PKCS#8 / SEC1 envelopes, and writing a SEQUENCE
 * of INTEGERs. Keys themselves are parsed and checked by the native library.
 */
final class Der {
    private final byte[] buf;
    private int pos;
    private final int end;

    Der(byte[] buf) {
        this(buf, 0, buf.length);
    }

    private Der(byte[] buf, int pos, int end) {
        this.buf = buf;
        this.pos = pos;
        this.end = end;
    }

    boolean more() {
        return pos < end;
    }

    int peekTag() {
        check(pos < end);
        return buf[pos] & 0xff;
    }

    /** The next element with tag {@code tag}, as a reader over its contents. */
    Der next(int tag) {
        check(pos < end && (buf[pos] & 0xff) == tag);
        pos++;
        check(pos < end);
        int first = buf[pos++] & 0xff;
        int len;
        if (first < 0x80) {
            len = first;
        } else {
            int n = first & 0x7f;
            check(n >= 1 && n <= 3 && pos + n <= end);
            len = 0;
            for (int i = 0; i < n; i++) {
                len = (len << 8) | (buf[pos++] & 0xff);
            }
        }
        check(len >= 0 && len <= end - pos);
        Der inner = new Der(buf, pos, pos + len);
        pos += len;
        return inner;
    }

    byte[] rest() {
        byte[] out = new byte[end - pos];
        System.arraycopy(buf, pos, out, 0, out.length);
        pos = end;
        return out;
    }

    BigInteger integer() {
        byte[] v = next(0x02).rest();
        check(v.length > 0);
        return new BigInteger(v);
    }

    private static void check(boolean ok) {
        if (!ok) {
            throw new IllegalArgumentException("malformed DER");
        }
    }

    /** All INTEGERs of a SEQUENCE (PKCS#1 keys). */
    static List<BigInteger> integers(byte[] der) {
        Der seq = new Der(der).next(0x30);
        List<BigInteger> out = new ArrayList<>();
        while (seq.more()) {
            out.add(seq.integer());
        }
        return out;
    }

    /** A SEQUENCE of INTEGERs. */
    static byte[] sequenceOf(BigInteger... values) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (BigInteger v : values) {
            byte[] b = v.toByteArray();
            write(body, 0x02, b);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, 0x30, body.toByteArray());
        return out.toByteArray();
    }

    /**
     * A PKCS#8 {@code PrivateKeyInfo} (version 0, an AlgorithmIdentifier of
     * {@code oid} without parameters) whose privateKey OCTET STRING holds
     * {@code inner} (the caller wipes what it passed; the result is secret).
     */
    static byte[] pkcs8(byte[] oid, byte[] inner) {
        ByteArrayOutputStream alg = new ByteArrayOutputStream();
        write(alg, 0x06, oid);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        write(body, 0x02, new byte[] {0});
        write(body, 0x30, alg.toByteArray());
        write(body, 0x04, inner);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, 0x30, body.toByteArray());
        return out.toByteArray();
    }

    /** An OCTET STRING of {@code content}. */
    static byte[] octetString(byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, 0x04, content);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, int tag, byte[] content) {
        out.write(tag);
        int len = content.length;
        if (len < 0x80) {
            out.write(len);
        } else if (len < 0x100) {
            out.write(0x81);
            out.write(len);
        } else if (len < 0x10000) {
            out.write(0x82);
            out.write(len >> 8);
            out.write(len);
        } else {
            out.write(0x83);
            out.write(len >> 16);
            out.write(len >> 8);
            out.write(len);
        }
        out.write(content, 0, content.length);
    }

    /** Unsigned big-endian of exactly {@code n} bytes. */
    static byte[] fixed(BigInteger v, int n) {
        byte[] b = v.toByteArray();
        if (b.length == n) {
            return b;
        }
        byte[] out = new byte[n];
        if (b.length > n) {
            for (int i = 0; i < b.length - n; i++) {
                check(b[i] == 0);
            }
            System.arraycopy(b, b.length - n, out, 0, n);
        } else {
            System.arraycopy(b, 0, out, n - b.length, b.length);
        }
        return out;
    }
}
