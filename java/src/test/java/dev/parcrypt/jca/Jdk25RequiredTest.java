package dev.parcrypt.jca;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The cross-provider tests with the JDK 25 (ML-DSA and ML-KEM against SUN
 * and SunJCE, the KEM service) run in Maven's {@code jdk25} execution,
 * given {@code -Dparcrypt.jdk25=JDK_HOME}. Under {@code
 * PARCRYPT_REQUIRE_TOOLS=1} a build without that JDK fails here instead of
 * leaving them out silently.
 */
class Jdk25RequiredTest {
    @Test
    void theJdk25TestsRunWhereToolsAreRequired() {
        String home = System.getProperty("parcrypt.jdk25", "");
        if (home.isEmpty()) {
            if (TestSupport.requireTools()) {
                fail("PARCRYPT_REQUIRE_TOOLS=1 but no JDK 25 was given: "
                        + "mvn -Dparcrypt.jdk25=JDK_HOME verify runs the JDK 25 interop and KEM tests");
            }
            return;
        }
        assertTrue(Files.isExecutable(Path.of(home, "bin", "java")), "-Dparcrypt.jdk25=" + home + ": no bin/java there");
    }
}
