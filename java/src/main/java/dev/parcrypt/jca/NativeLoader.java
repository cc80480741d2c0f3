package dev.parcrypt.jca;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.ProviderException;
import java.util.Locale;

/**
 * Finds the native library for this platform inside the jar, copies it into
 * a new private temporary directory (owner-only permissions), loads it and
 * deletes the copy (the loaded mapping stays valid).
 *
 * <p>The system property {@code parcrypt.native.path} names a library file to
 * load instead (development builds).
 */
final class NativeLoader {
    /** The platforms this jar carries a library for. */
    static final String BUNDLED = "linux-x86_64";
    static final String LIBRARY = "libparcrypt_jni.so";

    private static boolean loaded;
    private static ProviderException failure;

    private NativeLoader() {}

    /** The jar's name for a platform, or null when none is carried for it. */
    static String platformOf(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
            return "linux-x86_64";
        }
        return null;
    }

    /** The platform's folder in the jar, or a ProviderException naming the platform. */
    static String requirePlatform(String osName, String osArch) {
        String platform = platformOf(osName, osArch);
        if (platform == null) {
            throw new ProviderException("Parcrypt has no native library for this platform (os.name=" + osName
                    + ", os.arch=" + osArch + "); this jar carries one for: " + BUNDLED);
        }
        return platform;
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
                extractAndLoad(requirePlatform(System.getProperty("os.name"), System.getProperty("os.arch")));
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
        String resource = "/native/" + platform + "/" + LIBRARY;
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
