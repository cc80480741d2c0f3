package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.MIB;
import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.zip.InflaterInputStream;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cobblestone and C2SP chunked-encryption from Java: pyca/cryptography's files
 * (checked in, made by src/test/resources/cobblestone/make_pyca_fixtures.py), the
 * C2SP vectors, the CLI both ways, every schedule byte-identical given the salt,
 * and hostile messages refused on every path with nothing left behind.
 */
class CobblestoneTest {
    private static final int HEADER = ParcryptCobblestone.HEADER;
    private static final int CHUNK = ParcryptCobblestone.CHUNK;
    private static final int SEALED = ParcryptCobblestone.SEALED_CHUNK;

    /** The fixtures' keys and context (see the resource folder's README). */
    private static final byte[] KEY128 = seq(16);
    private static final byte[] KEY256 = seq(32);
    private static final byte[] CONTEXT = "parcrypt java fixtures\0v1".getBytes(StandardCharsets.US_ASCII);
    private static final int[] FIXTURE_SIZES = {0, 1, 16383, 16384, 16385, 40000};

    /** Chunk boundaries, and a message long enough to run on several threads. */
    private static final int[] SIZES = {0, 1, 16383, 16384, 16385, 32768, 40000, 3 * MIB + 5};

    /** One instance per strategy, and the default. */
    private static final List<ParcryptCobblestone> SCHEDULES = List.of(new ParcryptCobblestone(1, "seq"),
            new ParcryptCobblestone(2, "static"), new ParcryptCobblestone(3, "steal"), ParcryptCobblestone.DEFAULT);

    private static final byte[] SALT = seq(24);

    private static byte[] seq(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = CobblestoneTest.class.getResourceAsStream("/cobblestone/" + name)) {
            if (in == null) {
                throw new AssertionError("missing test resource cobblestone/" + name);
            }
            return in.readAllBytes();
        }
    }

    /** An input stream that gives at most {@code piece} bytes a read and says none are available. */
    private static final class Trickle extends InputStream {
        private final ByteArrayInputStream in;
        private final int piece;

        Trickle(byte[] data, int piece) {
            this.in = new ByteArrayInputStream(data);
            this.piece = piece;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, Math.min(len, piece));
        }

        @Override
        public int available() {
            return 0;
        }
    }

    /** What the decrypting stream returned before it ended or failed. */
    private static final class Drained {
        final ByteArrayOutputStream got = new ByteArrayOutputStream();
        IOException failure;
    }

    private static Drained drain(InputStream in, int readSize) {
        Drained d = new Drained();
        byte[] buf = new byte[readSize];
        try (in) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                d.got.write(buf, 0, n);
            }
        } catch (IOException e) {
            d.failure = e;
        }
        return d;
    }

    /** Decrypts through the stream, reading {@code readSize} bytes at a time from a source of {@code piece}-byte reads. */
    private static byte[] viaStream(ParcryptCobblestone c, byte[] sealed, byte[] key, byte[] context, int piece,
            int readSize) throws Exception {
        InputStream src = piece == 0 ? new ByteArrayInputStream(sealed) : new Trickle(sealed, piece);
        Drained d = drain(c.decryptingStream(src, key, context), readSize);
        if (d.failure != null) {
            throw d.failure;
        }
        return d.got.toByteArray();
    }

    /** Encrypts through the stream in uneven writes. */
    private static byte[] viaStream(ParcryptCobblestone c, byte[] plain, byte[] key, byte[] context) throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = c.encryptingStream(sink, key, context)) {
            int[] pieces = {1, 7000, 20000, 1, MIB, 3 * MIB};
            int off = 0;
            for (int i = 0; off < plain.length; i++) {
                int n = Math.min(pieces[i % pieces.length], plain.length - off);
                if (n == 1) {
                    out.write(plain[off]);
                } else {
                    out.write(plain, off, n);
                }
                off += n;
                if (i == 2) {
                    out.flush();
                }
            }
        }
        return sink.toByteArray();
    }

    private static void assertNoOutput(Path dir, Path out) throws IOException {
        assertFalse(Files.exists(out), "a failed call leaves no output file");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith(".parcrypt-")).count(),
                    "no temporary files left behind");
        }
    }

    @Test
    void readsPycasFilesOnEveryPath(@TempDir Path dir) throws Exception {
        for (int bits : new int[] {128, 256}) {
            byte[] key = bits == 128 ? KEY128 : KEY256;
            for (int size : FIXTURE_SIZES) {
                String name = "pyca-" + bits + "-" + size + ".cob";
                byte[] sealed = resource(name);
                byte[] plain = pattern(size);
                Path file = dir.resolve(name);
                Files.write(file, sealed);
                for (ParcryptCobblestone c : SCHEDULES) {
                    assertArrayEquals(plain, c.decrypt(sealed, key, CONTEXT), name);
                    Path out = dir.resolve(name + ".out");
                    assertEquals(size, c.decrypt(file, out, key, CONTEXT), name);
                    assertArrayEquals(plain, Files.readAllBytes(out), name);
                    assertArrayEquals(plain, viaStream(c, sealed, key, CONTEXT, 0, 8192), name);
                    assertArrayEquals(plain, viaStream(c, sealed, key, CONTEXT, 1000, 333), name);
                    int off = size / 3;
                    int len = Math.min(size - off, CHUNK + 1);
                    assertArrayEquals(Arrays.copyOfRange(plain, off, off + len),
                            c.decryptRange(file, off, len, key, CONTEXT), name);
                    assertArrayEquals(Arrays.copyOfRange(plain, off, off + len),
                            c.decryptRange(sealed, off, len, key, CONTEXT), name);
                }
                byte[] other = "another context".getBytes(StandardCharsets.US_ASCII);
                assertThrows(AEADBadTagException.class, () -> ParcryptCobblestone.DEFAULT.decrypt(sealed, key, other));
            }
        }
    }

    @Test
    void theC2spVectors(@TempDir Path dir) throws Exception {
        JsonNode root = new ObjectMapper().readTree(
                TestSupport.repo().resolve("crates/parcrypt/tests/data/chunked-encryption/vectors.json").toFile());
        int passed = 0;
        int refused = 0;
        for (JsonNode v : root.get("vectors")) {
            String name = v.get("name").asText();
            byte[] key = TestSupport.unhex(v.get("key").asText());
            byte[] context = v.get("context").asText().getBytes(StandardCharsets.UTF_8);
            byte[] ct = v.get("ciphertext").isNull() ? new byte[0] : Base64.getDecoder().decode(v.get("ciphertext").asText());
            if (v.path("compressed").asBoolean(false)) {
                try (InputStream z = new InflaterInputStream(new ByteArrayInputStream(ct))) {
                    ct = z.readAllBytes();
                }
            }
            byte[] sealed = ct;
            ParcryptCobblestone c = ParcryptCobblestone.chunked("sha256", v.get("aead").asText(), 0, "steal");
            Path file = dir.resolve(name + ".cob");
            Files.write(file, sealed);
            Path out = dir.resolve(name + ".out");
            if ("success".equals(v.get("expect").asText())) {
                byte[] plain = c.decrypt(sealed, key, context);
                assertEquals(v.get("payload_length").asLong(), plain.length, name);
                assertEquals(v.get("payload_sha256").asText(),
                        TestSupport.hex(MessageDigest.getInstance("SHA-256").digest(plain)), name);
                assertEquals(plain.length, c.decrypt(file, out, key, context), name);
                assertArrayEquals(plain, Files.readAllBytes(out), name);
                assertArrayEquals(plain, viaStream(c, sealed, key, context, 0, 4096), name);
                assertArrayEquals(plain, viaStream(c, sealed, key, context, 77, 4096), name);
                // Sealed again with its salt: the same bytes, on every encryption path.
                ParcryptCobblestone salted = c.withSalt(Arrays.copyOf(sealed, 24));
                assertArrayEquals(sealed, salted.encrypt(plain, key, context), name);
                assertArrayEquals(sealed, viaStream(salted, plain, key, context), name);
                Path again = dir.resolve(name + ".again");
                salted.encrypt(out, again, key, context);
                assertArrayEquals(sealed, Files.readAllBytes(again), name);
                passed++;
            } else {
                // A key of another length is an InvalidKeyException; everything else an AEADBadTagException.
                Class<? extends GeneralSecurityException> expected =
                        key.length == (v.get("aead").asText().contains("128") ? 16 : 32)
                                ? AEADBadTagException.class
                                : InvalidKeyException.class;
                assertThrows(expected, () -> c.decrypt(sealed, key, context), name);
                assertThrows(expected, () -> c.decrypt(file, out, key, context), name);
                assertNoOutput(dir, out);
                if (expected == InvalidKeyException.class) {
                    assertThrows(expected, () -> c.decryptingStream(new ByteArrayInputStream(sealed), key, context));
                } else {
                    IOException e = assertThrows(IOException.class, () -> viaStream(c, sealed, key, context, 0, 4096),
                            name);
                    assertInstanceOf(AEADBadTagException.class, e.getCause(), name);
                }
                refused++;
            }
        }
        assertEquals(27, passed);
        assertEquals(75, refused);
    }

    @Test
    void everyScheduleWritesTheSameBytesGivenTheSalt(@TempDir Path dir) throws Exception {
        for (byte[] key : new byte[][] {KEY128, KEY256}) {
            for (int size : SIZES) {
                byte[] plain = pattern(size);
                Path in = dir.resolve("plain");
                Files.write(in, plain);
                byte[] reference = new ParcryptCobblestone(1, "seq").withSalt(SALT).encrypt(plain, key, CONTEXT);
                assertEquals(HEADER + size + 16L * (size / CHUNK + 1), reference.length);
                for (ParcryptCobblestone c : SCHEDULES) {
                    String what = key.length + "-byte key, " + size + " bytes";
                    ParcryptCobblestone salted = c.withSalt(SALT);
                    assertArrayEquals(reference, salted.encrypt(plain, key, CONTEXT), what);
                    assertArrayEquals(reference, viaStream(salted, plain, key, CONTEXT), what);
                    Path sealed = dir.resolve("sealed");
                    assertEquals(size, salted.encrypt(in, sealed, key, CONTEXT), what);
                    assertArrayEquals(reference, Files.readAllBytes(sealed), what);
                    assertArrayEquals(plain, c.decrypt(reference, key, CONTEXT), what);
                    assertArrayEquals(plain, viaStream(c, reference, key, CONTEXT, 0, 65536), what);
                }
                // Random salts: two messages differ, and each decrypts.
                byte[] a = ParcryptCobblestone.DEFAULT.encrypt(plain, key, CONTEXT);
                byte[] b = ParcryptCobblestone.DEFAULT.encrypt(plain, key, CONTEXT);
                assertFalse(Arrays.equals(a, b));
                assertArrayEquals(plain, ParcryptCobblestone.DEFAULT.decrypt(b, key, CONTEXT));
            }
        }
    }

    /** A message of three chunks and the ways to damage it: {what, message, index of the first bad chunk}. */
    private static List<Object[]> damaged(byte[] good) {
        List<Object[]> out = new ArrayList<>();
        int n = good.length;
        for (int cut : new int[] {0, 1, HEADER - 1, HEADER, HEADER + 1, HEADER + 15, HEADER + SEALED - 1,
                HEADER + SEALED, HEADER + SEALED + 16, HEADER + 2 * SEALED, n - 17, n - 16, n - 1}) {
            out.add(new Object[] {"cut to " + cut, Arrays.copyOf(good, cut), 3});
        }
        out.add(new Object[] {"one byte more", Arrays.copyOf(good, n + 1), 2});
        byte[] twice = Arrays.copyOf(good, n + SEALED);
        System.arraycopy(good, HEADER, twice, n, SEALED);
        out.add(new Object[] {"chunk 0 appended", twice, 2});
        for (int at : new int[] {0, 23, 24, 55, HEADER, HEADER + CHUNK + 3, HEADER + SEALED + 9, n - 1}) {
            byte[] b = good.clone();
            b[at] ^= 0x40;
            out.add(new Object[] {"bit flipped at " + at, b, Math.max(0, at - HEADER) / SEALED});
        }
        byte[] swapped = good.clone();
        System.arraycopy(good, HEADER, swapped, HEADER + SEALED, SEALED);
        System.arraycopy(good, HEADER + SEALED, swapped, HEADER, SEALED);
        out.add(new Object[] {"chunks 0 and 1 swapped", swapped, 0});
        byte[] dropped = new byte[n - SEALED];
        System.arraycopy(good, 0, dropped, 0, HEADER + SEALED);
        System.arraycopy(good, HEADER + 2 * SEALED, dropped, HEADER + SEALED, n - HEADER - 2 * SEALED);
        out.add(new Object[] {"chunk 1 dropped", dropped, 1});
        return out;
    }

    @Test
    void hostileMessagesAreRefusedWithNothingReleased(@TempDir Path dir) throws Exception {
        byte[] plain = pattern(40000);
        byte[] good = ParcryptCobblestone.DEFAULT.encrypt(plain, KEY128, CONTEXT);
        List<Object[]> cases = new ArrayList<>();
        for (Object[] d : damaged(good)) {
            cases.add(new Object[] {d[0], d[1], d[2], KEY128, CONTEXT});
        }
        cases.add(new Object[] {"another 16-byte key", good, 0, Arrays.copyOfRange(seq(17), 1, 17), CONTEXT});
        cases.add(new Object[] {"a 32-byte key (Cobblestone-256)", good, 0, KEY256, CONTEXT});
        cases.add(new Object[] {"another context", good, 0, KEY128,
                "parcrypt java fixtures".getBytes(StandardCharsets.US_ASCII)});
        cases.add(new Object[] {"an empty context", good, 0, KEY128, new byte[0]});
        for (Object[] hostile : cases) {
            String what = (String) hostile[0];
            byte[] bad = (byte[]) hostile[1];
            int firstBad = (Integer) hostile[2];
            byte[] k = (byte[]) hostile[3];
            byte[] context = (byte[]) hostile[4];
            for (ParcryptCobblestone c : List.of(new ParcryptCobblestone(1), ParcryptCobblestone.DEFAULT)) {
                assertThrows(AEADBadTagException.class, () -> c.decrypt(bad, k, context), what);
                Path file = dir.resolve("hostile.cob");
                Files.write(file, bad);
                Path out = dir.resolve("never");
                assertThrows(AEADBadTagException.class, () -> c.decrypt(file, out, k, context), what);
                assertNoOutput(dir, out);
                for (int piece : new int[] {0, 5000}) {
                    InputStream src = piece == 0 ? new ByteArrayInputStream(bad) : new Trickle(bad, piece);
                    Drained d = drain(c.decryptingStream(src, k, context), 1000);
                    assertTrue(d.failure != null, what + ": the stream must fail");
                    assertInstanceOf(AEADBadTagException.class, d.failure.getCause(), what);
                    // Only whole chunks that authenticated, never a byte of a damaged one.
                    byte[] got = d.got.toByteArray();
                    assertEquals(0, got.length % CHUNK, what + ": released " + got.length + " bytes");
                    assertArrayEquals(Arrays.copyOf(plain, got.length), got, what);
                    assertTrue(got.length <= firstBad * CHUNK, what + ": released " + got.length + " bytes");
                }
                // A range anywhere: the final chunk proves the length, so a truncated or
                // extended message fails whatever the range; a damaged chunk in the range fails.
                assertThrows(GeneralSecurityException.class, () -> c.decryptRange(file, 0, plain.length, k, context),
                        what);
                assertThrows(GeneralSecurityException.class, () -> c.decryptRange(bad, 0, plain.length, k, context),
                        what);
            }
        }
    }

    @Test
    void rangesFromFilesAndMemory(@TempDir Path dir) throws Exception {
        int size = 3 * MIB + 5;
        byte[] plain = pattern(size);
        Path file = dir.resolve("big.cob");
        ParcryptCobblestone.DEFAULT.encrypt(writeTemp(dir, plain), file, KEY256, CONTEXT);
        byte[] sealed = Files.readAllBytes(file);
        long[][] ranges = {{0, 0}, {0, 1}, {16383, 2}, {16384, 16384}, {size - 1, 1}, {size, 0}, {0, size},
                {MIB - 7, MIB + 14}};
        for (ParcryptCobblestone c : SCHEDULES) {
            for (long[] r : ranges) {
                byte[] expected = Arrays.copyOfRange(plain, (int) r[0], (int) (r[0] + r[1]));
                assertArrayEquals(expected, c.decryptRange(file, r[0], (int) r[1], KEY256, CONTEXT), r[0] + "+" + r[1]);
                assertArrayEquals(expected, c.decryptRange(sealed, r[0], (int) r[1], KEY256, CONTEXT), r[0] + "+" + r[1]);
            }
        }
        ParcryptCobblestone c = ParcryptCobblestone.DEFAULT;
        assertThrows(IllegalArgumentException.class, () -> c.decryptRange(file, size, 1, KEY256, CONTEXT));
        assertThrows(IllegalArgumentException.class, () -> c.decryptRange(file, size - 1, 2, KEY256, CONTEXT));
        assertThrows(IllegalArgumentException.class, () -> c.decryptRange(file, -1, 2, KEY256, CONTEXT));
        assertThrows(IllegalArgumentException.class, () -> c.decryptRange(file, 0, -2, KEY256, CONTEXT));
        assertThrows(IllegalArgumentException.class, () -> c.decryptRange(sealed, size - 1, 2, KEY256, CONTEXT));
        assertThrows(IllegalArgumentException.class, () -> c.decryptRange(sealed, -1, 2, KEY256, CONTEXT));
        // A damaged chunk outside the range is not read; one inside is refused.
        sealed[HEADER + 5] ^= 1;
        assertArrayEquals(Arrays.copyOfRange(plain, MIB, MIB + 10), c.decryptRange(sealed, MIB, 10, KEY256, CONTEXT));
        assertThrows(AEADBadTagException.class, () -> c.decryptRange(sealed, 100, 10, KEY256, CONTEXT));
        assertThrows(IOException.class, () -> c.decryptRange(dir.resolve("missing"), 0, 1, KEY256, CONTEXT));
    }

    private static Path writeTemp(Path dir, byte[] data) throws IOException {
        Path p = dir.resolve("plain-" + data.length);
        Files.write(p, data);
        return p;
    }

    @Test
    void keysAndMisuse(@TempDir Path dir) throws Exception {
        ParcryptCobblestone c = ParcryptCobblestone.DEFAULT;
        Path in = writeTemp(dir, pattern(100));
        Path out = dir.resolve("never");
        for (int len : new int[] {0, 15, 17, 24, 31, 33}) {
            byte[] key = new byte[len];
            assertThrows(InvalidKeyException.class, () -> c.encrypt(new byte[10], key, CONTEXT), "key of " + len);
            assertThrows(InvalidKeyException.class, () -> c.decrypt(new byte[100], key, CONTEXT));
            assertThrows(InvalidKeyException.class, () -> c.encrypt(in, out, key, CONTEXT));
            assertThrows(InvalidKeyException.class, () -> c.decrypt(in, out, key, CONTEXT));
            assertThrows(InvalidKeyException.class, () -> c.decryptRange(in, 0, 1, key, CONTEXT));
            assertThrows(InvalidKeyException.class, () -> c.decryptRange(new byte[100], 0, 1, key, CONTEXT));
            assertThrows(InvalidKeyException.class, () -> c.encryptingStream(new ByteArrayOutputStream(), key, CONTEXT));
            assertThrows(InvalidKeyException.class, () -> c.decryptingStream(InputStream.nullInputStream(), key, CONTEXT));
        }
        assertNoOutput(dir, out);
        // The generic scheme takes its AEAD's key length only.
        ParcryptCobblestone chacha = ParcryptCobblestone.chunked("SHA-512", "chacha20-poly1305", 0, "steal");
        assertThrows(InvalidKeyException.class, () -> chacha.encrypt(new byte[1], KEY128, CONTEXT));
        byte[] sealed = chacha.encrypt(pattern(50000), KEY256, CONTEXT);
        assertArrayEquals(pattern(50000), chacha.decrypt(sealed, KEY256, CONTEXT));
        // Another scheme's message fails its key commitment.
        assertThrows(AEADBadTagException.class, () -> c.decrypt(sealed, KEY256, CONTEXT));
        ParcryptCobblestone explicit128 = ParcryptCobblestone.chunked("sha512", "AEAD_AES_128_GCM", 1, "seq");
        assertArrayEquals(pattern(5), c.decrypt(explicit128.encrypt(pattern(5), KEY128, CONTEXT), KEY128, CONTEXT));
        assertThrows(IllegalArgumentException.class, () -> ParcryptCobblestone.chunked("md5", "aes-128-gcm", 0, "steal"));
        assertThrows(IllegalArgumentException.class, () -> ParcryptCobblestone.chunked("sha256", "aes-192-gcm", 0, "steal"));
        assertThrows(IllegalArgumentException.class, () -> new ParcryptCobblestone(-1));
        assertThrows(NullPointerException.class, () -> c.encrypt(new byte[1], KEY128, null));
        assertThrows(NullPointerException.class, () -> c.encrypt((byte[]) null, KEY128, CONTEXT));
        assertThrows(NullPointerException.class, () -> c.encrypt(new byte[1], null, CONTEXT));
        // Streams after close.
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream enc = c.encryptingStream(sink, KEY128, CONTEXT);
        enc.write(pattern(10));
        enc.close();
        enc.close();
        assertThrows(IOException.class, () -> enc.write(1));
        assertArrayEquals(pattern(10), c.decrypt(sink.toByteArray(), KEY128, CONTEXT));
        InputStream dec = c.decryptingStream(new ByteArrayInputStream(sink.toByteArray()), KEY128, CONTEXT);
        assertEquals(0, dec.read());
        dec.close();
        assertThrows(IOException.class, dec::read);
        // An unclosed encrypting stream wrote no final chunk: a reader finds it truncated.
        ByteArrayOutputStream partial = new ByteArrayOutputStream();
        OutputStream open = c.encryptingStream(partial, KEY128, CONTEXT);
        open.write(pattern(2 * CHUNK));
        open.flush();
        assertEquals(HEADER + 2 * SEALED, partial.size());
        Drained d = drain(c.decryptingStream(new ByteArrayInputStream(partial.toByteArray()), KEY128, CONTEXT), 999);
        assertInstanceOf(AEADBadTagException.class, d.failure.getCause());
        assertArrayEquals(pattern(2 * CHUNK), d.got.toByteArray(), "the authenticated chunks before the end");
        // After a failure every read fails again.
        InputStream failed = c.decryptingStream(new ByteArrayInputStream(new byte[100]), KEY128, CONTEXT);
        assertThrows(IOException.class, failed::read);
        assertThrows(IOException.class, failed::read);
    }

    /** A source that gives {@code n} bytes of {@code data} and then fails, as a dropped connection. */
    private static final class Stalls extends InputStream {
        private final ByteArrayInputStream in;

        Stalls(byte[] data, int n) {
            this.in = new ByteArrayInputStream(data, 0, n);
        }

        @Override
        public int read() throws IOException {
            return read(new byte[1], 0, 1);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, Math.min(len, 4096));
            if (n < 0) {
                throw new IOException("the connection dropped");
            }
            return n;
        }
    }

    @Test
    void theDecryptingStreamReleasesChunksAsTheyArrive() throws Exception {
        byte[] plain = pattern(10 * CHUNK + 5);
        byte[] sealed = ParcryptCobblestone.DEFAULT.encrypt(plain, KEY128, CONTEXT);
        for (ParcryptCobblestone c : SCHEDULES) {
            // Two and a half chunks arrive, then the source fails: the two whole chunks
            // were returned before, authenticated, and nothing of the third.
            Drained d = drain(c.decryptingStream(new Stalls(sealed, HEADER + 2 * SEALED + 100), KEY128, CONTEXT),
                    65536);
            assertEquals("the connection dropped", d.failure.getMessage());
            assertArrayEquals(Arrays.copyOf(plain, 2 * CHUNK), d.got.toByteArray());
        }
    }

    @Test
    void exchangedWithTheCliBothWays(@TempDir Path dir) throws Exception {
        Path cli = Cli.require();
        String context = "parcrypt java cli";
        byte[] ctx = context.getBytes(StandardCharsets.UTF_8);
        for (byte[] key : new byte[][] {KEY128, KEY256}) {
            String format = "cobblestone-" + (key.length * 8);
            Path keyFile = dir.resolve("key" + key.length);
            Files.write(keyFile, key);
            for (int size : new int[] {0, 40000, 3 * MIB + 5}) {
                byte[] plain = pattern(size);
                Path in = writeTemp(dir, plain);
                // CLI → Java, every path.
                Path byCli = dir.resolve("by-cli-" + format + "-" + size + ".cob");
                Cli.run(cli, "encrypt", "--format", format, "--key-file", keyFile.toString(), "--context", context,
                        "-i", in.toString(), "-o", byCli.toString());
                byte[] sealed = Files.readAllBytes(byCli);
                assertArrayEquals(plain, ParcryptCobblestone.DEFAULT.decrypt(sealed, key, ctx), format);
                Path opened = dir.resolve("opened");
                ParcryptCobblestone.DEFAULT.decrypt(byCli, opened, key, ctx);
                assertArrayEquals(plain, Files.readAllBytes(opened), format);
                assertArrayEquals(plain, viaStream(ParcryptCobblestone.DEFAULT, sealed, key, ctx, 0, 65536), format);
                // Java → CLI: memory, file and stream.
                Path byJava = dir.resolve("by-java.cob");
                Files.write(byJava, new ParcryptCobblestone(1).encrypt(plain, key, ctx));
                assertArrayEquals(plain, cliDecrypt(cli, dir, format, keyFile, context, byJava), format);
                ParcryptCobblestone.DEFAULT.encrypt(in, byJava, key, ctx);
                assertArrayEquals(plain, cliDecrypt(cli, dir, format, keyFile, context, byJava), format);
                Files.write(byJava, viaStream(ParcryptCobblestone.DEFAULT, plain, key, ctx));
                assertArrayEquals(plain, cliDecrypt(cli, dir, format, keyFile, context, byJava), format);
            }
        }
    }

    private static byte[] cliDecrypt(Path cli, Path dir, String format, Path keyFile, String context, Path in)
            throws Exception {
        Path out = dir.resolve("cli-opened");
        Files.deleteIfExists(out);
        Cli.run(cli, "decrypt", "--format", format, "--key-file", keyFile.toString(), "--context", context, "-i",
                in.toString(), "-o", out.toString());
        return Files.readAllBytes(out);
    }

    @Test
    void theFixturesAreWhatTheReadmeSays() throws Exception {
        // The 16383-byte file: one short chunk; 16384: a full chunk and an empty final one.
        assertEquals(HEADER + 16383 + 16, resource("pyca-128-16383.cob").length);
        assertEquals(HEADER + SEALED + 16, resource("pyca-256-16384.cob").length);
        if (resource("make_pyca_fixtures.py").length == 0) {
            fail("the script that made the fixtures is missing");
        }
    }
}
