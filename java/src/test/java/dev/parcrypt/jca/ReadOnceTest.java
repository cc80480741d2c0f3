package dev.parcrypt.jca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Authenticated decryption of arrays and direct buffers that another Java
 * thread writes during the call: the only results allowed are the
 * authentication error and the original plaintext (docs/SECURITY.md, "read
 * once"). AWS-LC reads a chunk twice (to authenticate it, then to decrypt
 * it) where its GCM has no VAES code, so the library copies a pinned array's
 * chunks (and GCM's pieces) into private memory once before opening them.
 * Each case runs in a child JVM ({@link MutateWhileDecrypting}) as the CPU
 * is and masked to x86-64-v3 ({@code PARCRYPT_CPU_MASK}, which masks
 * AWS-LC too): on a CPU with VAES only the masked run reads twice. Before
 * the Cobblestone fix the masked runs returned wrong plaintexts.
 */
class ReadOnceTest {
    @ParameterizedTest
    @CsvSource({"cobDecrypt,1,''", "cobDecrypt,2,''", "cobDecrypt,1,x86-64-v3", "cobDecrypt,2,x86-64-v3",
        "cobRange,2,''", "cobRange,1,x86-64-v3", "cobRange,2,x86-64-v3",
        "cobUpdate,2,''", "cobUpdate,1,x86-64-v3", "cobUpdate,2,x86-64-v3",
        "gcmArray,2,''", "gcmArray,2,x86-64-v3", "gcmDirect,2,''", "gcmDirect,2,x86-64-v3"})
    void decryptingAChangingBufferGivesThePlaintextOrTheError(String what, int threads, String mask,
            @TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Djava.library.path=" + System.getProperty("java.library.path", "")));
        String nativePath = System.getProperty("parcrypt.native.path");
        if (nativePath != null) {
            cmd.add("-Dparcrypt.native.path=" + nativePath);
        }
        cmd.addAll(List.of(MutateWhileDecrypting.class.getName(), what, Integer.toString(threads)));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(dir.resolve("err").toFile());
        pb.environment().remove("PARCRYPT_CPU_MASK");
        if (mask != null && !mask.isEmpty()) {
            pb.environment().put("PARCRYPT_CPU_MASK", mask);
        }
        Process child = pb.start();
        child.getOutputStream().close();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(child.waitFor(300, TimeUnit.SECONDS), "the child hangs");
        String report = what + ", threads " + threads + ", mask " + mask + ": " + out + "\n"
                + Files.readString(dir.resolve("err"));
        assertEquals(0, child.exitValue(), report);
        System.out.println("read once: " + report.strip());
        String[] f = out.split(" ");
        assertEquals(6, f.length, report);
        assertEquals(MutateWhileDecrypting.CALLS, Integer.parseInt(f[1]) + Integer.parseInt(f[3]) + Integer.parseInt(f[5]),
                report);
        assertEquals(0, Integer.parseInt(f[5]), "plaintexts that are not the original passed authentication: " + report);
    }
}
