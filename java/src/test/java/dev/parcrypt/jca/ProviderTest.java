package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.ProviderException;
import java.security.Security;
import java.security.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Registration, configuration, the native loader, misuse of handles, and concurrency. */
class ProviderTest {
    @Test
    void registeredThroughServiceLoaderAndSecurity() throws Exception {
        boolean found = false;
        for (Provider p : ServiceLoader.load(Provider.class)) {
            found |= p.getName().equals("Parcrypt");
        }
        assertTrue(found, "META-INF/services/java.security.Provider names ParcryptProvider");
        Security.addProvider(new ParcryptProvider());
        try {
            assertEquals("Parcrypt", Cipher.getInstance("AES/GCM/NoPadding", "Parcrypt").getProvider().getName());
            for (Provider.Service s : Security.getProvider("Parcrypt").getServices()) {
                assertNotNull(s.newInstance(null), s.getType() + "." + s.getAlgorithm());
            }
            // 19 classic services; ML-DSA 3 types x (family + 3 sets), SLH-DSA 3 x (1 + 12), ML-KEM 2 x (1 + 3),
            // and ML-KEM's KEM (1 + 3) where the runtime has KEMSpi (Java 21+).
            int kem = Runtime.version().feature() >= 21 ? 4 : 0;
            assertEquals(19 + 12 + 39 + 8 + kem, Security.getProvider("Parcrypt").getServices().size());
            assertEquals("Parcrypt", Cipher.getInstance("RSA/ECB/OAEPWithSHA1AndMGF1Padding", "Parcrypt").getProvider().getName());
        } finally {
            Security.removeProvider("Parcrypt");
        }
    }

    @Test
    void threadsAndStrategyFromConstructorAndSystemProperties() {
        ParcryptProvider p = new ParcryptProvider(3, "static");
        assertEquals(3, p.threads());
        assertEquals("static", p.strategy());
        String oldT = System.getProperty("parcrypt.threads");
        String oldS = System.getProperty("parcrypt.strategy");
        try {
            System.setProperty("parcrypt.threads", "2");
            System.setProperty("parcrypt.strategy", "seq");
            ParcryptProvider q = new ParcryptProvider();
            assertEquals(2, q.threads());
            assertEquals("seq", q.strategy());
            System.setProperty("parcrypt.strategy", "fastest");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ParcryptProvider::new);
            assertTrue(e.getMessage().contains("fastest"));
            System.setProperty("parcrypt.strategy", "steal");
            System.setProperty("parcrypt.threads", "many");
            assertThrows(IllegalArgumentException.class, ParcryptProvider::new);
        } finally {
            restore("parcrypt.threads", oldT);
            restore("parcrypt.strategy", oldS);
        }
        assertThrows(IllegalArgumentException.class, () -> new ParcryptProvider(-1, "steal"));
        assertThrows(IllegalArgumentException.class, () -> new ParcryptProvider(1, "omp"));
    }

    /**
     * Issue 39: threads 0 means every available core, in the Java provider as on every surface. A
     * provider and a {@link ParcryptMerkle} built with 0 work (on the parallel path: the inputs are
     * past the grain where work is cut) and give exactly what one thread gives; a negative count is an
     * {@code IllegalArgumentException} that names it.
     */
    @Test
    void threadsZeroMeansEveryCoreAndMatchesOneThread() throws Exception {
        ParcryptProvider every = new ParcryptProvider(0, "steal");
        ParcryptProvider one = new ParcryptProvider(1, "steal");
        assertEquals(0, every.threads());
        SecretKeySpec key = new SecretKeySpec(pattern(32), "AES");
        GCMParameterSpec spec = new GCMParameterSpec(128, pattern(12));
        byte[] plain = pattern(4 * TestSupport.MIB + 5);
        byte[] sealedEvery = gcm(every, Cipher.ENCRYPT_MODE, key, spec, plain);
        byte[] sealedOne = gcm(one, Cipher.ENCRYPT_MODE, key, spec, plain);
        assertArrayEquals(sealedOne, sealedEvery);
        assertArrayEquals(plain, gcm(every, Cipher.DECRYPT_MODE, key, spec, sealedOne));

        byte[] data = pattern(TestSupport.MIB + 1);
        assertArrayEquals(new ParcryptMerkle(1, "steal").rfc6962Root(data, 4096),
                new ParcryptMerkle(0, "steal").rfc6962Root(data, 4096));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ParcryptProvider(-1, "steal"));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ParcryptMerkle(-1, "steal"));
    }

    private static byte[] gcm(Provider provider, int mode, SecretKeySpec key, GCMParameterSpec spec, byte[] in)
            throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", provider);
        c.init(mode, key, spec);
        return c.doFinal(in);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void loaderPicksByOsArchAndCarriesLinuxX8664() {
        assertEquals("linux-x86_64", NativeLoader.platformOf("Linux", "amd64"));
        assertEquals("linux-x86_64", NativeLoader.platformOf("Linux", "x86_64"));
        assertEquals("linux-aarch64", NativeLoader.platformOf("Linux", "aarch64"));
        assertEquals("linux-aarch64", NativeLoader.platformOf("Linux", "arm64"));
        assertNull(NativeLoader.platformOf("Mac OS X", "aarch64"));
        assertNull(NativeLoader.platformOf("Linux", "riscv64"));
        List<String> both = List.of("linux-x86_64", "linux-aarch64");
        assertEquals("linux-aarch64", NativeLoader.requirePlatform("Linux", "aarch64", both));
        assertEquals("linux-x86_64", NativeLoader.requirePlatform("Linux", "amd64", both));
        assertNotNull(NativeLoader.class.getResource("/native/linux-x86_64/libparcrypt_jni.so"),
                "the build packages the native library under native/linux-x86_64/");
        assertTrue(NativeLoader.carried().contains("linux-x86_64"), NativeLoader.carried().toString());
        assertEquals(NativeLoader.carried(), ParcryptProvider.nativePlatforms());
    }

    @Test
    void loaderNamesThePlatformsItCarriesWhenNoneFits() {
        // An unknown platform: the message names it and every platform carried.
        ProviderException e = assertThrows(ProviderException.class,
                () -> NativeLoader.requirePlatform("Windows 11", "amd64", List.of("linux-x86_64", "linux-aarch64")));
        assertEquals("Parcrypt has no native library for this platform (os.name=Windows 11, os.arch=amd64); "
                + "this jar carries one for: linux-x86_64, linux-aarch64", e.getMessage());
        // A platform parcrypt builds for, in a jar built without it (mvn package on x86-64, run on ARM).
        e = assertThrows(ProviderException.class,
                () -> NativeLoader.requirePlatform("Linux", "aarch64", List.of("linux-x86_64")));
        assertEquals("Parcrypt has no native library for this platform (os.name=Linux, os.arch=aarch64); "
                + "this jar carries one for: linux-x86_64 "
                + "(the jar scripts/dist.py builds carries linux-x86_64, linux-aarch64)", e.getMessage());
        e = assertThrows(ProviderException.class,
                () -> NativeLoader.requirePlatform("Linux", "amd64", List.of()));
        assertTrue(e.getMessage().endsWith("this jar carries one for: no platform "
                + "(the jar scripts/dist.py builds carries linux-x86_64, linux-aarch64)"), e.getMessage());
    }

    @Test
    void extractedLibraryIsPrivateToItsOwner() throws Exception {
        java.nio.file.Path lib = NativeLoader.extract("linux-x86_64");
        try {
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(lib.getParent())));
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(lib)));
            assertTrue(java.nio.file.Files.size(lib) > 100_000);
        } finally {
            java.nio.file.Files.deleteIfExists(lib);
            java.nio.file.Files.deleteIfExists(lib.getParent());
        }
        assertThrows(ProviderException.class, () -> NativeLoader.extract("plan9-mips"));
    }

    @Test
    void misusedHandlesAndNullsAreExceptionsNotCrashes() throws Exception {
        assertThrows(IllegalStateException.class,
                () -> Native.gcmSeal(0, 0L, 0, null, new byte[1], 0, 1, new byte[17], 0, 1, 0));
        assertThrows(NullPointerException.class, () -> Native.gcmNew(null));
        assertThrows(IllegalArgumentException.class, () -> Native.hasherNew(7));
        long h = Native.gcmNew(new byte[16]);
        NativeRef ref = new NativeRef(h, Native::gcmFree);
        // Out of bounds, on the stack copy (small) and on the pinned arrays
        // (large): ArrayIndexOutOfBoundsException, and nothing written.
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> Native.gcmSeal(h, 0L, 0, null, new byte[4], 2, 5, new byte[30], 0, 1, 0));
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> Native.gcmSeal(h, 0L, 0, null, new byte[5000], 2, 4999, new byte[6000], 0, 1, 0));
        byte[] tooShort = new byte[19];
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> Native.gcmSeal(h, 0L, 0, null, new byte[4], 0, 4, tooShort, 0, 1, 0));
        byte[] sealed = new byte[40];
        assertEquals(40, Native.gcmSeal(h, 0L, 0, null, new byte[24], 0, 24, sealed, 0, 1, 0));
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> Native.gcmOpen(h, 0L, 0, null, sealed, 0, 40, tooShort, 0, 1, 0));
        assertArrayEquals(new byte[19], tooShort);
        assertThrows(IllegalArgumentException.class,
                () -> Native.gcmSeal(h, 0L, 0, null, new byte[4], 0, -1, new byte[30], 0, 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> Native.gcmSeal(h, 0L, 0, null, new byte[4], 0, 4, new byte[30], 0, 1, 9));
        ProviderException panic = assertThrows(ProviderException.class, Native::panicForTest);
        assertTrue(panic.getMessage().contains("panic"), panic.getMessage());
        assertEquals(32, Native.merkleLeafHash(new byte[3]).length, "the JVM and the library carry on after a panic");
        ref.close();
        ref.close();
        assertThrows(IllegalStateException.class, ref::acquire);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        assertThrows(IllegalStateException.class, () -> c.update(new byte[1]));
    }

    @Test
    void sixteenThreadsShareOneProviderAndItsKeys() throws Exception {
        SecretKeySpec key = new SecretKeySpec(pattern(32), "AES");
        int size = 2 * TestSupport.MIB + 1;
        KeyPairGenerator eg = KeyPairGenerator.getInstance("EC", PARCRYPT);
        KeyPair ec = eg.generateKeyPair();
        KeyPairGenerator rg = KeyPairGenerator.getInstance("RSA", PARCRYPT);
        rg.initialize(2048);
        KeyPair rsa = rg.generateKeyPair();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> jobs = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                final int id = t;
                jobs.add(pool.submit(() -> {
                    for (int round = 0; round < 3; round++) {
                        byte[] nonce = new byte[12];
                        nonce[0] = (byte) id;
                        nonce[1] = (byte) round;
                        byte[] msg = pattern(size - id);
                        GCMParameterSpec spec = new GCMParameterSpec(128, nonce);
                        Cipher sun = Cipher.getInstance("AES/GCM/NoPadding", TestSupport.jdk("SunJCE"));
                        sun.init(Cipher.ENCRYPT_MODE, key, spec);
                        Cipher ours = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
                        ours.init(Cipher.ENCRYPT_MODE, key, spec);
                        byte[] ct = ours.doFinal(msg);
                        assertArrayEquals(sun.doFinal(msg), ct);
                        ours.init(Cipher.DECRYPT_MODE, key, spec);
                        assertArrayEquals(msg, ours.doFinal(ct));
                        Signature s = Signature.getInstance("SHA256withECDSA", PARCRYPT);
                        s.initSign(ec.getPrivate());
                        s.update(msg, 0, 1000);
                        byte[] sig = s.sign();
                        Signature v = Signature.getInstance("SHA256withECDSA", TestSupport.jdk("SunEC"));
                        v.initVerify(ec.getPublic());
                        v.update(msg, 0, 1000);
                        assertTrue(v.verify(sig));
                        Signature r = Signature.getInstance("SHA256withRSA", PARCRYPT);
                        r.initSign(rsa.getPrivate());
                        r.update(msg, 0, 100);
                        Signature rv = Signature.getInstance("SHA256withRSA", TestSupport.jdk("SunRsaSign"));
                        rv.initVerify(rsa.getPublic());
                        rv.update(msg, 0, 100);
                        assertTrue(rv.verify(r.sign()));
                    }
                    return null;
                }));
            }
            for (Future<?> f : jobs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
