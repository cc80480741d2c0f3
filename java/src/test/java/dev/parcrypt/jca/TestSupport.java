package dev.parcrypt.jca;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Provider;
import java.util.List;

/** Shared fixtures: providers in every strategy, inputs, paths. */
final class TestSupport {
    private TestSupport() {}

    /** The default provider (every core, work stealing). */
    static final ParcryptProvider PARCRYPT = new ParcryptProvider();

    /** One provider per strategy, with more than one thread where it matters. */
    static final List<ParcryptProvider> ALL_STRATEGIES = List.of(
            new ParcryptProvider(1, "seq"), new ParcryptProvider(2, "static"), new ParcryptProvider(3, "steal"));

    static final int MIB = 1 << 20;

    /** Sizes around AES's parallel threshold (parts of at least 1 MiB: parallel from 2 MiB). */
    static final int[] AES_SIZES = {0, 1, 15, 16, 17, 4095, 2 * MIB - 1, 2 * MIB, 2 * MIB + 1, 2 * MIB + 17, 5 * MIB + 3};

    /** {@code i % 251}, the repository's test pattern. */
    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i % 251);
        }
        return b;
    }

    static Provider jdk(String name) {
        Provider p = java.security.Security.getProvider(name);
        if (p == null) {
            throw new AssertionError("the JDK provider " + name + " is missing");
        }
        return p;
    }

    /** The repository root (set by the Maven build; the parent of java/ otherwise). */
    static Path repo() {
        String p = System.getProperty("parcrypt.repo");
        return (p != null ? Path.of(p) : Path.of("..")).toAbsolutePath().normalize();
    }

    static Path cargoTarget() {
        String p = System.getProperty("parcrypt.cargo.target");
        return p != null ? Path.of(p) : repo().resolve("target");
    }

    static boolean requireTools() {
        return "1".equals(System.getenv("PARCRYPT_REQUIRE_TOOLS"));
    }

    /** The parcrypt CLI: -Dparcrypt.cli, $PARCRYPT_CLI, or the cargo target's release (then debug) build. */
    static Path cli() {
        String prop = System.getProperty("parcrypt.cli");
        if (prop == null || prop.isEmpty()) {
            prop = System.getenv("PARCRYPT_CLI");
        }
        if (prop != null && !prop.isEmpty()) {
            return Path.of(prop);
        }
        for (String profile : new String[] {"release", "debug"}) {
            Path p = cargoTarget().resolve(profile).resolve("parcrypt");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }

    static byte[] unhex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
