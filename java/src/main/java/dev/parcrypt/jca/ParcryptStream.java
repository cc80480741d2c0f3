package dev.parcrypt.jca;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;

/**
 * parcrypt's {@code stream} file format (docs/FORMAT.md), the one the CLI's
 * {@code parcrypt encrypt} / {@code decrypt} read and write: AES-256-GCM
 * segments sealed and opened on all cores, for a 32-byte key, a passphrase
 * (scrypt) or RSA recipients.
 *
 * <p>The output file appears only when complete: it is written beside the
 * destination and renamed at the end, and decryption renames only after the
 * last segment authenticated ({@code AEADBadTagException} otherwise, nothing
 * written). A truncated or modified file is an {@code AEADBadTagException};
 * a file that is not a stream, a {@code java.io.StreamCorruptedException};
 * a key that opens no stanza, an {@code InvalidKeyException}.
 */
public final class ParcryptStream {
    /** Every core, work stealing, 1 MiB segments. */
    public static final ParcryptStream DEFAULT = new ParcryptStream(0, "steal", 1 << 20);

    private final int threads;
    private final int strategy;
    private final int segmentSize;

    /**
     * @param threads 0 for every core
     * @param strategy {@code seq}, {@code static} or {@code steal}
     * @param segmentSize plaintext bytes per segment when encrypting: a power of two from 4 KiB to 1 GiB
     */
    public ParcryptStream(int threads, String strategy, int segmentSize) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be 0 (every core) or more");
        }
        this.threads = threads;
        this.strategy = ParcryptProvider.strategyCode(strategy);
        this.segmentSize = segmentSize;
    }

    /** Encrypts {@code in} to {@code out} for whoever holds the 32-byte {@code key}; returns the plaintext length. */
    public long encryptWithKey(Path in, Path out, byte[] key) throws IOException, GeneralSecurityException {
        return Native.streamEncrypt(in.toString(), out.toString(), key, null, null, segmentSize, 18, threads, strategy);
    }

    /** Encrypts for a passphrase (scrypt N = 2^{@code log2N}; 18 is the CLI's default). */
    public long encryptWithPassphrase(Path in, Path out, char[] passphrase, int log2N)
            throws IOException, GeneralSecurityException {
        byte[] p = utf8(passphrase);
        try {
            return Native.streamEncrypt(in.toString(), out.toString(), null, p, null, segmentSize, log2N, threads, strategy);
        } finally {
            Arrays.fill(p, (byte) 0);
        }
    }

    /** Encrypts for RSA public keys (any provider's): any of their private keys decrypts. */
    public long encryptForRecipients(Path in, Path out, PublicKey... recipients)
            throws IOException, GeneralSecurityException {
        if (recipients.length == 0) {
            throw new IllegalArgumentException("give at least one recipient");
        }
        byte[][] spkis = new byte[recipients.length][];
        for (int i = 0; i < recipients.length; i++) {
            spkis[i] = RsaKeys.toPublic(recipients[i]).getEncoded();
        }
        return Native.streamEncrypt(in.toString(), out.toString(), null, null, spkis, segmentSize, 18, threads, strategy);
    }

    /** Decrypts with the 32-byte key; returns the plaintext length. */
    public long decryptWithKey(Path in, Path out, byte[] key) throws IOException, GeneralSecurityException {
        return Native.streamDecrypt(in.toString(), out.toString(), key, null, null, 20, threads, strategy);
    }

    /** Decrypts with a passphrase (refusing headers costlier than scrypt N = 2^{@code maxLog2N}; the CLI's default is 20). */
    public long decryptWithPassphrase(Path in, Path out, char[] passphrase, int maxLog2N)
            throws IOException, GeneralSecurityException {
        byte[] p = utf8(passphrase);
        try {
            return Native.streamDecrypt(in.toString(), out.toString(), null, p, null, maxLog2N, threads, strategy);
        } finally {
            Arrays.fill(p, (byte) 0);
        }
    }

    /** Decrypts with a recipient's RSA private key (any provider's, with CRT values). */
    public long decryptWithPrivateKey(Path in, Path out, PrivateKey key) throws IOException, GeneralSecurityException {
        RsaKeys.Private k = RsaKeys.toPrivate(key);
        byte[] der = k.getEncoded();
        try {
            return Native.streamDecrypt(in.toString(), out.toString(), null, null, der, 20, threads, strategy);
        } finally {
            Arrays.fill(der, (byte) 0);
        }
    }

    private static byte[] utf8(char[] chars) {
        ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(chars));
        byte[] out = new byte[b.remaining()];
        b.get(out);
        if (b.hasArray()) {
            Arrays.fill(b.array(), (byte) 0);
        }
        return out;
    }

}
