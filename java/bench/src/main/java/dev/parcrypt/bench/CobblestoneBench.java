package dev.parcrypt.bench;

import dev.parcrypt.jca.ParcryptCobblestone;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cobblestone-128 of one message between {@code byte[]}s: {@code encrypt}
 * (a fresh salt each time, a new result array) and {@code decrypt} (every
 * chunk authenticated), on 1 thread and on every core ({@code threads=0});
 * and the same message through the streams in 1 MiB writes and reads
 * ({@code encryptStream} into a null stream, {@code decryptStream} from a
 * {@code ByteArrayInputStream}).
 * Run with {@code -bm sample} for medians.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
public class CobblestoneBench {
    @Param({"268435456"})
    public int size;

    /** 0: every core. */
    @Param({"1", "0"})
    public int threads;

    private final byte[] key = new byte[16];
    private final byte[] context = "bench".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private ParcryptCobblestone cob;
    private byte[] plain;
    private byte[] sealed;
    private final byte[] buf = new byte[1 << 20];

    @Setup(Level.Trial)
    public void setup() throws Exception {
        cob = new ParcryptCobblestone(threads);
        plain = new byte[size];
        new Random(1).nextBytes(plain);
        sealed = cob.encrypt(plain, key, context);
    }

    @Benchmark
    public byte[] encrypt() throws Exception {
        return cob.encrypt(plain, key, context);
    }

    @Benchmark
    public byte[] decrypt() throws Exception {
        return cob.decrypt(sealed, key, context);
    }

    @Benchmark
    public long encryptStream() throws Exception {
        try (OutputStream out = cob.encryptingStream(OutputStream.nullOutputStream(), key, context)) {
            for (int off = 0; off < plain.length; off += 1 << 20) {
                out.write(plain, off, Math.min(1 << 20, plain.length - off));
            }
        }
        return plain.length;
    }

    @Benchmark
    public long decryptStream() throws Exception {
        long n = 0;
        try (InputStream in = cob.decryptingStream(new ByteArrayInputStream(sealed), key, context)) {
            for (int k; (k = in.read(buf)) >= 0; ) {
                n += k;
            }
        }
        return n;
    }
}
