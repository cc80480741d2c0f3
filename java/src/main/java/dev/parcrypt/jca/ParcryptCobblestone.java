package dev.parcrypt.jca;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * C2SP chunked-encryption v1 (<a href="https://c2sp.org/chunked-encryption">c2sp.org/chunked-encryption</a>)
 * and its named instantiations <b>Cobblestone-128</b> and <b>Cobblestone-256</b>
 * (HKDF-Expand-SHA-512 and AES-128/256-GCM), byte for byte as pyca/cryptography's
 * {@code cryptography.cobblestone} and the CLI's {@code parcrypt encrypt --format cobblestone-128}
 * write and read them, with the 16 KiB chunks sealed and opened on all cores.
 *
 * <pre>{@code
 * byte[] key = new byte[16];                        // 16 bytes: Cobblestone-128; 32: Cobblestone-256
 * new SecureRandom().nextBytes(key);
 * byte[] context = "invoices v1".getBytes(UTF_8);   // any bytes, bound to the message
 * byte[] sealed = ParcryptCobblestone.DEFAULT.encrypt(data, key, context);
 * byte[] plain = ParcryptCobblestone.DEFAULT.decrypt(sealed, key, context);
 * ParcryptCobblestone.DEFAULT.encrypt(Path.of("db.dump"), Path.of("db.cob"), key, context);
 * byte[] page = ParcryptCobblestone.DEFAULT.decryptRange(Path.of("db.cob"), 1 << 30, 4096, key, context);
 * try (OutputStream out = ParcryptCobblestone.DEFAULT.encryptingStream(socketOut, key, context)) { ... }
 * }</pre>
 *
 * <p><b>Keys.</b> The key's length picks the scheme: 16 bytes Cobblestone-128, 32 bytes
 * Cobblestone-256; any other length is an {@code InvalidKeyException}. The generic scheme
 * ({@link #chunked}) takes the key length of its AEAD. Each encryption draws a fresh
 * random 24-byte salt, so one key seals any number of messages.
 *
 * <p><b>Failures.</b> Everything a wrong key or context, a modified, truncated, extended,
 * reordered or too short message can cause is a {@link javax.crypto.AEADBadTagException},
 * with no plaintext released: the key commitment is checked before any chunk is opened,
 * and each chunk is released only once it authenticated. A message past the format's
 * limit of 2<sup>38</sup> chunks (4 PiB) is an {@link javax.crypto.IllegalBlockSizeException};
 * a result that does not fit a Java array (over 2 GiB), or a range beyond the end of the
 * plaintext, an {@code IllegalArgumentException}; reading or writing files an
 * {@code IOException}. The streams wrap the {@code GeneralSecurityException} in an
 * {@code IOException} (its cause), as an {@code InputStream} must.
 *
 * <p><b>Files</b> are written beside the destination and renamed when complete, decryption
 * only after every chunk authenticated: a failed call leaves no output file.
 *
 * <p>Instances are immutable and may be shared between threads; the streams they make
 * are not thread-safe, as {@code java.io} streams are not.
 */
public final class ParcryptCobblestone {
    /** Every core, work stealing; Cobblestone-128/-256 by the key's length. */
    public static final ParcryptCobblestone DEFAULT = new ParcryptCobblestone(0);

    /** Plaintext bytes of a full chunk. */
    static final int CHUNK = 16 << 10;
    /** A sealed full chunk: 16 KiB and its 16-byte tag. */
    static final int SEALED_CHUNK = CHUNK + 16;
    /** The header: 24-byte salt and 32-byte key commitment. */
    static final int HEADER = 24 + 32;

    private final int threads;
    private final int strategy;
    /** 0 = Cobblestone by the key's length; 256 / 512 = the generic scheme's KDF hash. */
    private final int kdf;
    /** The generic scheme's AEAD: 0 = AES-128-GCM, 1 = AES-256-GCM, 2 = ChaCha20-Poly1305. */
    private final int aead;
    /** Null: every message draws a random salt; tests fix one ({@link #withSalt}). */
    private final byte[] salt;

    /** Cobblestone on {@code threads} threads (0 for every core), work stealing. */
    public ParcryptCobblestone(int threads) {
        this(threads, "steal");
    }

    /**
     * Cobblestone on {@code threads} threads.
     *
     * @param threads 0 for every core
     * @param strategy {@code seq}, {@code static} or {@code steal}
     */
    public ParcryptCobblestone(int threads, String strategy) {
        this(threads, ParcryptProvider.strategyCode(strategy), 0, 0, null);
    }

    private ParcryptCobblestone(int threads, int strategy, int kdf, int aead, byte[] salt) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be 0 (every core) or more");
        }
        this.threads = threads;
        this.strategy = strategy;
        this.kdf = kdf;
        this.aead = aead;
        this.salt = salt;
    }

    /**
     * This scheme sealing every message with {@code salt} (24 bytes) instead of a random
     * one: for tests that compare bytes (the C2SP vectors, thread counts), as the
     * library's {@code sealer_with_salt}. Two messages under one key and salt reuse every
     * nonce, so it is not public.
     */
    ParcryptCobblestone withSalt(byte[] salt) {
        return new ParcryptCobblestone(threads, strategy, kdf, aead, salt.clone());
    }

    /**
     * The generic C2SP chunked-encryption scheme (the C2SP test vectors use it; the
     * CLI's {@code --format chunked}): HKDF-Expand with {@code kdfHash} and chunks
     * sealed with {@code aead}; keys are the AEAD's key length (16 bytes for
     * AES-128-GCM, 32 otherwise). {@code chunked("sha512", "AEAD_AES_128_GCM", …)} is
     * Cobblestone-128 that takes 16-byte keys only.
     *
     * @param kdfHash {@code sha256} or {@code sha512}
     * @param aead {@code AEAD_AES_128_GCM}, {@code AEAD_AES_256_GCM} or
     *     {@code AEAD_CHACHA20_POLY1305} (also {@code aes-128-gcm}, … in any case)
     * @param threads 0 for every core
     * @param strategy {@code seq}, {@code static} or {@code steal}
     */
    public static ParcryptCobblestone chunked(String kdfHash, String aead, int threads, String strategy) {
        int kdf;
        switch (normalized(kdfHash)) {
            case "sha256":
                kdf = 256;
                break;
            case "sha512":
                kdf = 512;
                break;
            default:
                throw new IllegalArgumentException("unknown KDF hash \"" + kdfHash + "\": expected sha256 or sha512");
        }
        String a = normalized(aead);
        if (a.startsWith("aead")) {
            a = a.substring(4);
        }
        int code;
        switch (a) {
            case "aes128gcm":
                code = 0;
                break;
            case "aes256gcm":
                code = 1;
                break;
            case "chacha20poly1305":
                code = 2;
                break;
            default:
                throw new IllegalArgumentException("unknown AEAD \"" + aead
                        + "\": expected AEAD_AES_128_GCM, AEAD_AES_256_GCM or AEAD_CHACHA20_POLY1305");
        }
        return new ParcryptCobblestone(threads, ParcryptProvider.strategyCode(strategy), kdf, code, null);
    }

    private static String normalized(String name) {
        return Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }

    /**
     * Encrypts {@code plaintext} into a new message: salt, key commitment and the chunks,
     * {@code 56 + n + 16 × (n / 16384 + 1)} bytes for {@code n} bytes of plaintext.
     * The chunks are sealed on all cores straight between the Java arrays (pinned for
     * the call, as AES-GCM's {@code doFinal}).
     *
     * @throws java.security.InvalidKeyException a key of the wrong length
     * @throws GeneralSecurityException as the class says
     */
    public byte[] encrypt(byte[] plaintext, byte[] key, byte[] context) throws GeneralSecurityException {
        return Native.cobEncrypt(kdf, aead, key, context(context), salt, Objects.requireNonNull(plaintext, "plaintext"),
                threads, strategy);
    }

    /**
     * Decrypts a whole message into a new array: all or nothing.
     *
     * @throws javax.crypto.AEADBadTagException a wrong key or context, or a modified,
     *     truncated, extended or too short message (no plaintext is returned)
     * @throws java.security.InvalidKeyException a key of the wrong length
     * @throws GeneralSecurityException as the class says
     */
    public byte[] decrypt(byte[] ciphertext, byte[] key, byte[] context) throws GeneralSecurityException {
        return Native.cobDecrypt(kdf, aead, key, context(context), Objects.requireNonNull(ciphertext, "ciphertext"),
                threads, strategy);
    }

    /**
     * Encrypts the file {@code in} to the file {@code out} (written beside it and renamed
     * when complete; an existing {@code out} is replaced), each worker reading the chunks
     * it seals; returns the plaintext length.
     *
     * @throws IOException reading {@code in} or writing {@code out}
     * @throws GeneralSecurityException as the class says
     */
    public long encrypt(Path in, Path out, byte[] key, byte[] context) throws IOException, GeneralSecurityException {
        return Native.cobEncryptFile(kdf, aead, key, context(context), salt, in.toString(), out.toString(), threads,
                strategy);
    }

    /**
     * Decrypts the file {@code in} to the file {@code out}, which appears only once every
     * chunk authenticated (written beside it and renamed; on any failure there is no
     * {@code out} and no temporary file); returns the plaintext length.
     *
     * @throws javax.crypto.AEADBadTagException as {@link #decrypt(byte[], byte[], byte[])}
     * @throws IOException reading {@code in} or writing {@code out}
     * @throws GeneralSecurityException as the class says
     */
    public long decrypt(Path in, Path out, byte[] key, byte[] context) throws IOException, GeneralSecurityException {
        return Native.cobDecryptFile(kdf, aead, key, context(context), in.toString(), out.toString(), threads,
                strategy);
    }

    /**
     * Plaintext bytes {@code offset .. offset + length} of the message in the file
     * {@code in}. Only the chunks that hold them are read and opened, and the final chunk,
     * which proves the message's length: a truncated or extended file is refused whatever
     * the range. A damaged chunk outside the range is not read, so not noticed.
     *
     * @throws IllegalArgumentException a negative offset or length, or a range beyond the
     *     end of the plaintext
     * @throws javax.crypto.AEADBadTagException as {@link #decrypt(byte[], byte[], byte[])}
     * @throws IOException reading {@code in}
     * @throws GeneralSecurityException as the class says
     */
    public byte[] decryptRange(Path in, long offset, int length, byte[] key, byte[] context)
            throws IOException, GeneralSecurityException {
        return Native.cobDecryptRange(kdf, aead, key, context(context), in.toString(), offset, length, threads,
                strategy);
    }

    /**
     * {@link #decryptRange(Path, long, int, byte[], byte[])} of a message in memory: only
     * the chunks holding the bytes, and the final chunk, are opened.
     *
     * @throws IllegalArgumentException a negative offset or length, or a range beyond the
     *     end of the plaintext
     * @throws javax.crypto.AEADBadTagException as {@link #decrypt(byte[], byte[], byte[])}
     * @throws GeneralSecurityException as the class says
     */
    public byte[] decryptRange(byte[] ciphertext, long offset, int length, byte[] key, byte[] context)
            throws GeneralSecurityException {
        return Native.cobDecryptRangeBytes(kdf, aead, key, context(context),
                Objects.requireNonNull(ciphertext, "ciphertext"), offset, length, threads, strategy);
    }

    /**
     * A stream that encrypts what is written to it into {@code out}: the header and the
     * full chunks as they complete, sealed a batch at a time on all cores once enough is
     * buffered (4 MiB a thread, at most 16 MiB), and the
     * final chunk on {@link OutputStream#close()}, which also closes {@code out}. Without
     * {@code close()} the message is incomplete (and a reader refuses it as truncated).
     * {@code flush()} seals and writes every full chunk written so far and flushes
     * {@code out}; a partial chunk waits for more data or {@code close()}.
     *
     * @throws java.security.InvalidKeyException a key of the wrong length
     */
    public OutputStream encryptingStream(OutputStream out, byte[] key, byte[] context)
            throws GeneralSecurityException {
        Objects.requireNonNull(out, "out");
        long h = Native.cobEncryptorNew(kdf, aead, key, context(context), salt, threads, strategy);
        return new EncryptingStream(out, new NativeRef(h, Native::cobEncryptorFree), batch());
    }

    /**
     * A stream that decrypts the message {@code in} yields. It reads ahead a batch of chunks
     * (4 MiB a thread, at most 16 MiB, or fewer when {@code in} has no more to give at
     * once), opens them on all cores and returns their plaintext only once each
     * authenticated; the final chunk is opened when {@code in} ends. It never returns a
     * byte of a chunk that did not authenticate.
     *
     * <p>A failure is an {@code IOException} whose cause is the {@code
     * GeneralSecurityException}: an {@link javax.crypto.AEADBadTagException} for a wrong
     * key or context (at the first read), a modified chunk (before any of its bytes), or a
     * truncated message (when {@code in} ends: the bytes returned before it were
     * authentic, but the message is incomplete). After a failure every read fails again.
     * {@code close()} closes {@code in}.
     *
     * @throws java.security.InvalidKeyException a key of the wrong length
     */
    public InputStream decryptingStream(InputStream in, byte[] key, byte[] context) throws GeneralSecurityException {
        Objects.requireNonNull(in, "in");
        long h = Native.cobDecryptorNew(kdf, aead, key, context(context), threads, strategy);
        return new DecryptingStream(in, new NativeRef(h, Native::cobDecryptorFree), batch());
    }

    private static byte[] context(byte[] context) {
        return Objects.requireNonNull(context, "context (use new byte[0] for none)");
    }

    /** Plaintext bytes a stream hands to native code at once: 4 MiB a thread, 1–16 MiB. */
    private int batch() {
        int t = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        return (int) Math.max(1L << 20, Math.min(16L << 20, (4L << 20) * t));
    }

    /** Wraps a native failure for a stream, which may only throw {@code IOException}. */
    private static IOException wrap(GeneralSecurityException e) {
        return new IOException("Cobblestone: " + e.getMessage(), e);
    }

    /** See {@link #encryptingStream}. */
    private static final class EncryptingStream extends OutputStream {
        private final OutputStream out;
        private final NativeRef enc;
        private final int batch;
        /** Plaintext not yet handed to native code (grows up to {@code batch}); wiped on close. */
        private byte[] plain = new byte[0];
        private int held;
        private byte[] sealed = new byte[0];
        private boolean closed;

        EncryptingStream(OutputStream out, NativeRef enc, int batch) {
            this.out = out;
            this.enc = enc;
            this.batch = batch;
        }

        @Override
        public void write(int b) throws IOException {
            open();
            if (held == plain.length) {
                grow(Math.min(batch, Math.max(held * 2, CHUNK)));
            }
            plain[held++] = (byte) b;
            if (held == batch) {
                drain();
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            open();
            while (len > 0) {
                if (held == 0 && len >= batch) {
                    // Straight from the caller's array: no copy.
                    push(b, off, batch);
                    off += batch;
                    len -= batch;
                    continue;
                }
                if (held == plain.length) {
                    grow(Math.min(batch, Math.max(held * 2, Math.max(len, CHUNK))));
                }
                int n = Math.min(len, plain.length - held);
                System.arraycopy(b, off, plain, held, n);
                held += n;
                off += n;
                len -= n;
                if (held == batch) {
                    drain();
                }
            }
        }

        private void grow(int size) {
            byte[] bigger = Arrays.copyOf(plain, size);
            Arrays.fill(plain, (byte) 0);
            plain = bigger;
        }

        /**
         * Hands the buffered plaintext to native code. The buffer is not wiped here: the
         * next batch overwrites it, and {@code close()} wipes it (a wipe per batch is one
         * more serial pass over all the data, beside sealing on all cores).
         */
        private void drain() throws IOException {
            if (held > 0) {
                push(plain, 0, held);
                held = 0;
            }
        }

        /** Encrypts {@code len} bytes of {@code b} and writes what it completes. */
        private void push(byte[] b, int off, int len) throws IOException {
            int k;
            long h = enc.acquire();
            try {
                int need = Native.cobEncryptorUpdateLen(h, len);
                if (sealed.length < need) {
                    sealed = new byte[need];
                }
                k = Native.cobEncryptorUpdate(h, b, off, len, sealed, 0);
            } catch (GeneralSecurityException e) {
                throw wrap(e);
            } finally {
                enc.release();
            }
            out.write(sealed, 0, k);
        }

        @Override
        public void flush() throws IOException {
            open();
            drain();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try (OutputStream o = out; NativeRef e = enc) {
                drain();
                byte[] last;
                try {
                    last = e.call(Native::cobEncryptorFinish);
                } catch (GeneralSecurityException x) {
                    throw wrap(x);
                }
                o.write(last);
            } finally {
                Arrays.fill(plain, (byte) 0);
            }
        }

        private void open() throws IOException {
            if (closed) {
                throw new IOException("the encrypting stream is closed");
            }
        }
    }

    /** See {@link #decryptingStream}. */
    private static final class DecryptingStream extends InputStream {
        private final InputStream in;
        private final NativeRef dec;
        /** Sealed bytes read ahead before native code opens them. */
        private final byte[] sealed;
        private int filled;
        /** Authenticated plaintext: {@code plain[pos .. limit]} is still to be read; wiped. */
        private byte[] plain = new byte[0];
        private int pos;
        private int limit;
        /** Whether {@code in} has ended. */
        private boolean ended;
        /** Whether the final chunk was opened (nothing more to read). */
        private boolean done;
        /** Sealed bytes handed to native code so far. */
        private long fed;
        private final byte[] one = new byte[1];
        private GeneralSecurityException failure;
        private boolean closed;

        DecryptingStream(InputStream in, NativeRef dec, int batch) {
            this.in = in;
            this.dec = dec;
            this.sealed = new byte[HEADER + batch / CHUNK * SEALED_CHUNK];
        }

        @Override
        public int read() throws IOException {
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            check();
            if (len == 0) {
                return 0;
            }
            while (pos == limit) {
                if (done) {
                    return -1;
                }
                refill();
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(plain, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() throws IOException {
            check();
            return limit - pos;
        }

        /** Reads ahead and opens what it read (at the end: the final chunk). */
        private void refill() throws IOException {
            // Enough to complete the next chunk (and the header, first): opened
            // as soon as `in` has nothing more to give at once; a whole batch
            // otherwise.
            long next = fed < HEADER
                    ? HEADER + SEALED_CHUNK
                    : HEADER + ((fed - HEADER) / SEALED_CHUNK + 1) * SEALED_CHUNK;
            int enough = (int) (next - fed);
            while (!ended && filled < sealed.length) {
                int n = in.read(sealed, filled, sealed.length - filled);
                if (n < 0) {
                    ended = true;
                } else {
                    filled += n;
                    if (filled >= enough && in.available() == 0) {
                        break;
                    }
                }
            }
            long h = dec.acquire();
            try {
                pos = 0;
                limit = 0;
                if (filled > 0) {
                    int need = Native.cobDecryptorUpdateLen(h, filled);
                    if (plain.length < need) {
                        Arrays.fill(plain, (byte) 0);
                        plain = new byte[need];
                    }
                    limit = Native.cobDecryptorUpdate(h, sealed, 0, filled, plain, 0);
                    fed += filled;
                    filled = 0;
                } else if (ended) {
                    Arrays.fill(plain, (byte) 0);
                    plain = Native.cobDecryptorFinish(h);
                    limit = plain.length;
                    done = true;
                }
            } catch (GeneralSecurityException e) {
                failure = e;
                Arrays.fill(plain, (byte) 0);
                limit = 0;
                throw wrap(e);
            } finally {
                dec.release();
            }
        }

        private void check() throws IOException {
            if (closed) {
                throw new IOException("the decrypting stream is closed");
            }
            if (failure != null) {
                throw wrap(failure);
            }
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            Arrays.fill(plain, (byte) 0);
            try (InputStream i = in) {
                dec.close();
            }
        }
    }
}
