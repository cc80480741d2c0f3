package dev.parcrypt.jca;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Merkle trees on all cores, over byte arrays, {@link ByteBuffer}s (direct
 * buffers are read in place, without a copy) or files: RFC 6962 / 9162 tree
 * heads with inclusion and consistency proofs, BitTorrent v2 (BEP 52) piece
 * roots, and the Amazon Glacier tree hash. The same trees as {@code parcrypt
 * hash} / {@code parcrypt merkle}.
 *
 * <pre>{@code
 * byte[] root = ParcryptMerkle.DEFAULT.rfc6962Root(data, 4096);
 * }</pre>
 */
public final class ParcryptMerkle {
    /** Every core, work stealing. */
    public static final ParcryptMerkle DEFAULT = new ParcryptMerkle(0, "steal");

    private final int threads;
    private final int strategy;

    /**
     * @param threads 0 for every core
     * @param strategy {@code seq}, {@code static} or {@code steal}
     */
    public ParcryptMerkle(int threads, String strategy) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be 0 (every core) or more");
        }
        this.threads = threads;
        this.strategy = ParcryptProvider.strategyCode(strategy);
    }

    /** What {@link #hashFile} computes, as {@code parcrypt hash --format}. */
    public enum FileFormat {
        /** Plain SHA-256 (serial). */
        SHA256,
        /** The RFC 6962 tree head over leaves of {@code leafSize} bytes. */
        RFC6962,
        /** The BitTorrent v2 pieces root (16 KiB blocks). */
        BITTORRENT_V2,
        /** The Glacier tree hash (1 MiB chunks). */
        GLACIER
    }

    /** The RFC 6962 tree head of these leaves. */
    public byte[] rfc6962Root(byte[][] leaves) {
        return Native.merkleRoot(leaves, threads, strategy);
    }

    /** The RFC 6962 tree head of {@code data} cut into {@code leafSize}-byte leaves (the last may be shorter). */
    public byte[] rfc6962Root(byte[] data, int leafSize) {
        return Native.merkleRootChunks(data, null, 0, data.length, leafSize, threads, strategy);
    }

    /** As {@link #rfc6962Root(byte[], int)} over the buffer's remaining bytes (its position does not move). */
    public byte[] rfc6962Root(ByteBuffer data, int leafSize) {
        if (data.isDirect()) {
            return Native.merkleRootChunks(null, data, data.position(), data.remaining(), leafSize, threads, strategy);
        }
        return Native.merkleRootChunks(heap(data), null, heapOffset(data), data.remaining(), leafSize, threads, strategy);
    }

    /** The audit path of leaf {@code index}. */
    public byte[][] rfc6962InclusionProof(byte[][] leaves, long index) {
        return Native.merkleInclusionProof(leaves, index, threads, strategy);
    }

    /** The consistency proof from the tree of the first {@code oldSize} leaves to the first {@code newSize}. */
    public byte[][] rfc6962ConsistencyProof(byte[][] leaves, long oldSize, long newSize) {
        return Native.merkleConsistencyProof(leaves, oldSize, newSize, threads, strategy);
    }

    /**
     * True if {@code proof} leads from {@code leafHash} at {@code index} of a {@code treeSize}-leaf tree to {@code root}.
     * Index and sizes are unsigned 64-bit values ({@link Long#parseUnsignedLong}), as in RFC 9162.
     */
    public static boolean rfc6962VerifyInclusion(byte[] leafHash, long index, long treeSize, byte[][] proof, byte[] root) {
        return Native.merkleVerifyInclusion(leafHash, index, treeSize, proof, root);
    }

    /** True if {@code proof} shows the {@code oldSize} tree is a prefix of the {@code newSize} tree. */
    public static boolean rfc6962VerifyConsistency(long oldSize, long newSize, byte[] oldRoot, byte[] newRoot,
            byte[][] proof) {
        return Native.merkleVerifyConsistency(oldSize, newSize, oldRoot, newRoot, proof);
    }

    /** SHA-256(0x00 ‖ data). */
    public static byte[] rfc6962LeafHash(byte[] data) {
        return Native.merkleLeafHash(data);
    }

    /** BEP 52 hashes of one file's bytes. */
    public static final class BitTorrentV2 {
        private final byte[] piecesRoot;
        private final List<byte[]> pieceLayer;

        BitTorrentV2(byte[][] raw) {
            this.piecesRoot = raw[0];
            this.pieceLayer = Collections.unmodifiableList(Arrays.asList(Arrays.copyOfRange(raw, 1, raw.length)));
        }

        /** The {@code pieces root}; null for empty data (BEP 52 gives none). */
        public byte[] piecesRoot() {
            return piecesRoot == null ? null : piecesRoot.clone();
        }

        /** The file's {@code piece layers} entry; empty when the file fits in one piece. */
        public List<byte[]> pieceLayer() {
            return pieceLayer;
        }
    }

    /** BEP 52 over {@code data}; {@code pieceLength} a power of two ≥ 16 KiB. */
    public BitTorrentV2 bitTorrentV2(byte[] data, long pieceLength) {
        return new BitTorrentV2(Native.merkleBitTorrentV2(data, null, 0, data.length, pieceLength, threads, strategy));
    }

    /** BEP 52 over the buffer's remaining bytes. */
    public BitTorrentV2 bitTorrentV2(ByteBuffer data, long pieceLength) {
        if (data.isDirect()) {
            return new BitTorrentV2(Native.merkleBitTorrentV2(null, data, data.position(), data.remaining(), pieceLength,
                    threads, strategy));
        }
        return new BitTorrentV2(Native.merkleBitTorrentV2(heap(data), null, heapOffset(data), data.remaining(),
                pieceLength, threads, strategy));
    }

    /** The Glacier tree hash of {@code data}. */
    public byte[] glacier(byte[] data) {
        return Native.merkleGlacier(data, null, 0, data.length, threads, strategy);
    }

    /** The Glacier tree hash of the buffer's remaining bytes. */
    public byte[] glacier(ByteBuffer data) {
        if (data.isDirect()) {
            return Native.merkleGlacier(null, data, data.position(), data.remaining(), threads, strategy);
        }
        return Native.merkleGlacier(heap(data), null, heapOffset(data), data.remaining(), threads, strategy);
    }

    /**
     * The digest of a file, as {@code parcrypt hash --format} prints it (read
     * with memory maps / positional reads, in parallel); null only for an
     * empty file in {@code BITTORRENT_V2}.
     */
    public byte[] hashFile(Path file, FileFormat format, int leafSize) throws IOException {
        return Native.merkleHashFile(file.toString(), format.ordinal(), leafSize, threads, strategy);
    }

    private static byte[] heap(ByteBuffer b) {
        if (b.hasArray()) {
            return b.array();
        }
        byte[] copy = new byte[b.remaining()];
        b.duplicate().get(copy);
        return copy;
    }

    private static int heapOffset(ByteBuffer b) {
        return b.hasArray() ? b.arrayOffset() + b.position() : 0;
    }
}
