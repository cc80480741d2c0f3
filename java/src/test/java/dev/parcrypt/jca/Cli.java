package dev.parcrypt.jca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/** Runs the real parcrypt CLI for interop tests. */
final class Cli {
    private Cli() {}

    /**
     * The CLI, or: a failure when PARCRYPT_REQUIRE_TOOLS=1 (CI), a skipped test otherwise.
     */
    static Path require() {
        Path cli = TestSupport.cli();
        if (cli == null) {
            String why = "the parcrypt CLI was not found (-Dparcrypt.cli, $PARCRYPT_CLI, or target/{release,debug}/parcrypt)";
            if (TestSupport.requireTools()) {
                fail(why + " and PARCRYPT_REQUIRE_TOOLS=1");
            }
            Assumptions.abort(why);
        }
        return cli;
    }

    /** Runs the CLI; returns stdout; fails on a non-zero exit. */
    static String run(Path cli, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(cli.toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = p.waitFor();
        assertEquals(0, rc, "parcrypt " + String.join(" ", args) + ": " + err);
        return new String(out, StandardCharsets.UTF_8);
    }
}
