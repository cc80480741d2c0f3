package dev.parcrypt.jca;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.ProviderException;
import java.util.List;
import java.util.Locale;

/**
 * Finds the native library for this platform inside the jar, copies it into
 * a new private temporary directory (owner-only permissions), loads it and
 * deletes the copy (the loaded mapping stays valid).
 *
 * <p>A jar carries {@code native/<platform>/libparcrypt_jni.so} for one or
 * more of {@link #PLATFORMS}: {@code mvn package} for the machine it runs
 * on ({@code linux-x86_64}), {@code scripts/dist.py} for both. The platform
 * is chosen by {@code os.name} and {@code os.arch}; when the jar has none
 * for them, the error names the platforms it does carry.
 *
 * <p>The system property {@code parcrypt.native.path} names a library file to
 * load instead (development builds).
 */
final class NativeLoader {
    /** Every platform a jar may carry a library for, by its folder name under {@code native/}. */
    static final List<String> PLATFORMS = List.of("linux-x86_64", "linux-aarch64");
    static final String LIBRARY = "libparcrypt_jni.so";

    private static boolean loaded;
    private static ProviderException failure;

    private NativeLoader() {}

    /**
     * The folder name of a platform (one of {@link #PLATFORMS}), or null for
     * a platform parcrypt is not built for. {@code os.arch} is {@code amd64}
     * on x86-64 HotSpot JVMs and {@code aarch64} on 64-bit ARM.
     */
    static String platformOf(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            return null;
        }
        switch (arch) {
            case "amd64":
            case "x86_64":
                return "linux-x86_64";
            case "aarch64":
            case "arm64":
                return "linux-aarch64";
            default:
                return null;
        }
    }

    /** The platforms whose library is in this jar, in {@link #PLATFORMS} order. */
    static List<String> carried() {
        return PLATFORMS.stream()
                .filter(p -> NativeLoader.class.getResource(resource(p)) != null)
                .toList();
    }

    /**
     * The platform's folder in the jar, or a ProviderException naming the
     * platform ({@code os.name}, {@code os.arch}) and the platforms the jar
     * carries ({@code carried}).
     */
    static String requirePlatform(String osName, String osArch, List<String> carried) {
        String platform = platformOf(osName, osArch);
        if (platform == null || !carried.contains(platform)) {
            throw new ProviderException("Parcrypt has no native library for this platform (os.name=" + osName
                    + ", os.arch=" + osArch + "); this jar carries one for: "
                    + (carried.isEmpty() ? "no platform" : String.join(", ", carried))
                    + (platform == null ? "" : " (the jar scripts/dist.py builds carries " + String.join(", ", PLATFORMS) + ")"));
        }
        return platform;
    }

    private static String resource(String platform) {
        return "/native/" + platform + "/" + LIBRARY;
    }

    static synchronized void load() {
        if (loaded) {
            return;
        }
        if (failure != null) {
            throw failure;
        }
        try {
            String override = System.getProperty("parcrypt.native.path");
            if (override != null && !override.isEmpty()) {
                System.load(Path.of(override).toAbsolutePath().toString());
            } else {
                extractAndLoad(requirePlatform(System.getProperty("os.name"), System.getProperty("os.arch"), carried()));
            }
            loaded = true;
        } catch (ProviderException e) {
            failure = e;
            throw e;
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            failure = new ProviderException("Parcrypt could not load its native library: " + e, e);
            throw failure;
        }
    }

    private static void extractAndLoad(String platform) throws IOException {
        Path lib = extract(platform);
        try {
            System.load(lib.toString());
        } finally {
            // Loaded (or failed): the file is no longer needed on Linux.
            Files.deleteIfExists(lib);
            Files.deleteIfExists(lib.getParent());
        }
    }

    /**
     * Copies the platform's library out of the jar into a new temporary
     * directory only its owner may enter (0700), as a file only its owner
     * may read (0600); returns the file.
     */
    static Path extract(String platform) throws IOException {
        String resource = resource(platform);
        try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new ProviderException("Parcrypt's jar lacks " + resource + " for platform " + platform
                        + " (was it built with `mvn package` in java/?)");
            }
            Path dir = Files.createTempDirectory("parcrypt-jca-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path lib = dir.resolve(LIBRARY);
            try (OutputStream out = Files.newOutputStream(
                    Files.createFile(lib, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))),
                    StandardOpenOption.WRITE)) {
                in.transferTo(out);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(lib);
                Files.deleteIfExists(dir);
                throw e;
            }
            return lib;
        }
    }
}
