package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.MIB;
import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files whose end is damaged (cut by 1,000 bytes or by 1, extended by a
 * byte, the last tag changed), decrypted on one thread, where they span
 * several batches (issue #48): the native side opens the final chunk first
 * and fails before writing, and the output file never appears (nor a
 * temporary one). Java writes only to paths, atomically, so this held
 * before the check ahead too; it pins the rule for the file paths.
 */
class CheckAheadTest {
    private static final int SIZE = 10 * MIB + 123;

    private static Map<String, byte[]> damaged(byte[] good) {
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("cut by 1000", Arrays.copyOf(good, good.length - 1000));
        cases.put("cut by 1", Arrays.copyOf(good, good.length - 1));
        cases.put("extended by 1", Arrays.copyOf(good, good.length + 1));
        byte[] flipped = good.clone();
        flipped[flipped.length - 1] ^= 1;
        cases.put("last tag flipped", flipped);
        return cases;
    }

    private static void assertNothingLeft(Path dir, Path out, String what) throws Exception {
        assertFalse(Files.exists(out), what + ": a failed decryption leaves no output file");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith(".parcrypt-")).count(),
                    what + ": no temporary files left behind");
        }
    }

    @Test
    void aStreamFileWithADamagedEndWritesNothing(@TempDir Path dir) throws Exception {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 7);
        Path plain = dir.resolve("plain");
        Path sealed = dir.resolve("sealed.pc");
        Files.write(plain, pattern(SIZE));
        ParcryptStream one = new ParcryptStream(1, "seq", 1 << 16);
        assertEquals(SIZE, one.encryptWithKey(plain, sealed, key));
        byte[] good = Files.readAllBytes(sealed);
        Path out = dir.resolve("out");
        for (Map.Entry<String, byte[]> c : damaged(good).entrySet()) {
            Path bad = dir.resolve("bad.pc");
            Files.write(bad, c.getValue());
            assertThrows(GeneralSecurityException.class, () -> one.decryptWithKey(bad, out, key), c.getKey());
            assertNothingLeft(dir, out, c.getKey());
        }
        assertEquals(SIZE, one.decryptWithKey(sealed, out, key));
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(out));
    }

    @Test
    void aCobblestoneFileWithADamagedEndWritesNothing(@TempDir Path dir) throws Exception {
        byte[] key = new byte[16];
        Arrays.fill(key, (byte) 9);
        byte[] context = "check ahead".getBytes(StandardCharsets.US_ASCII);
        Path plain = dir.resolve("plain");
        Path sealed = dir.resolve("sealed.cob");
        Files.write(plain, pattern(SIZE));
        ParcryptCobblestone one = new ParcryptCobblestone(1);
        assertEquals(SIZE, one.encrypt(plain, sealed, key, context));
        byte[] good = Files.readAllBytes(sealed);
        Path out = dir.resolve("out");
        for (Map.Entry<String, byte[]> c : damaged(good).entrySet()) {
            Path bad = dir.resolve("bad.cob");
            Files.write(bad, c.getValue());
            assertThrows(GeneralSecurityException.class, () -> one.decrypt(bad, out, key, context), c.getKey());
            assertNothingLeft(dir, out, c.getKey());
        }
        assertEquals(SIZE, one.decrypt(sealed, out, key, context));
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(out));
    }
}
