package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.AES_SIZES;
import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Provider;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** AES-GCM, -CTR and -CBC against SunJCE, both ways, across the parallel threshold and every strategy. */
class AesTest {
    private static final Provider SUN = TestSupport.jdk("SunJCE");

    private static SecretKeySpec key(int bytes, int seed) {
        byte[] k = new byte[bytes];
        new Random(seed).nextBytes(k);
        return new SecretKeySpec(k, "AES");
    }

    private static byte[] run(String transformation, Provider p, int mode, SecretKeySpec key,
            java.security.spec.AlgorithmParameterSpec spec, byte[] aad, byte[] data) throws Exception {
        Cipher c = Cipher.getInstance(transformation, p);
        c.init(mode, key, spec);
        if (aad != null) {
            c.updateAAD(aad);
        }
        return c.doFinal(data);
    }

    @Test
    void gcmMatchesSunJceBothWays() throws Exception {
        byte[] aad = pattern(37);
        for (int keyLen : new int[] {16, 32}) {
            SecretKeySpec k = key(keyLen, keyLen);
            for (int size : AES_SIZES) {
                byte[] msg = pattern(size);
                GCMParameterSpec spec = new GCMParameterSpec(128, Arrays.copyOf(pattern(size + 12), 12));
                byte[] sunCt = run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, spec, aad, msg);
                for (Provider p : TestSupport.ALL_STRATEGIES) {
                    byte[] ours = run("AES/GCM/NoPadding", p, Cipher.ENCRYPT_MODE, k, spec, aad, msg);
                    assertArrayEquals(sunCt, ours, "GCM seal, " + size + " bytes, " + p);
                    assertArrayEquals(msg, run("AES/GCM/NoPadding", p, Cipher.DECRYPT_MODE, k, spec, aad, sunCt),
                            "GCM open of SunJCE's, " + size + " bytes");
                }
                assertArrayEquals(msg, run("AES/GCM/NoPadding", SUN, Cipher.DECRYPT_MODE, k, spec, aad, sunCt));
            }
        }
    }

    @Test
    void gcmIncrementalUpdatesAndAad() throws Exception {
        SecretKeySpec k = key(32, 1);
        GCMParameterSpec spec = new GCMParameterSpec(128, new byte[12]);
        byte[] msg = pattern(3 * TestSupport.MIB + 5);
        Cipher ours = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        ours.init(Cipher.ENCRYPT_MODE, k, spec);
        ours.updateAAD(new byte[] {1, 2});
        ours.updateAAD(new byte[] {3});
        ours.update(msg, 0, 1000);
        ours.update(msg, 1000, TestSupport.MIB);
        byte[] ct = ours.doFinal(msg, 1000 + TestSupport.MIB, msg.length - 1000 - TestSupport.MIB);
        assertArrayEquals(run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, spec, new byte[] {1, 2, 3}, msg), ct);
        // AAD after data is refused, as SunJCE does.
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        dec.init(Cipher.DECRYPT_MODE, k, spec);
        dec.update(ct, 0, 10);
        assertThrows(IllegalStateException.class, () -> dec.updateAAD(new byte[1]));
    }

    @Test
    void gcmTamperedTagOrDataOrAadThrowsAndReleasesNothing() throws Exception {
        SecretKeySpec k = key(16, 2);
        GCMParameterSpec spec = new GCMParameterSpec(128, new byte[12]);
        for (int size : new int[] {0, 100, 2 * TestSupport.MIB + 1}) {
            byte[] ct = run("AES/GCM/NoPadding", PARCRYPT, Cipher.ENCRYPT_MODE, k, spec, new byte[] {9}, pattern(size));
            for (int flip : new int[] {0, ct.length / 2, ct.length - 1}) {
                byte[] bad = ct.clone();
                bad[flip] ^= 1;
                Cipher c = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
                c.init(Cipher.DECRYPT_MODE, k, spec);
                c.updateAAD(new byte[] {9});
                byte[] out = new byte[Math.max(1, size)];
                Arrays.fill(out, (byte) 0x55);
                assertEquals(0, c.update(bad, 0, bad.length, out, 0), "update releases no plaintext");
                assertThrows(AEADBadTagException.class, () -> c.doFinal(out, 0));
                // Opened in one pass, a large message's output is wiped on a
                // bad tag; a small one's is never written. Never plaintext.
                assertAllOneOf(out, 0, out.length, (byte) 0x55, "bad tag");
            }
            Cipher wrongAad = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
            wrongAad.init(Cipher.DECRYPT_MODE, k, spec);
            wrongAad.updateAAD(new byte[] {8});
            assertThrows(AEADBadTagException.class, () -> wrongAad.doFinal(ct));
        }
        // Shorter than a tag.
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        c.init(Cipher.DECRYPT_MODE, k, spec);
        assertThrows(AEADBadTagException.class, () -> c.doFinal(new byte[15]));
    }

    @Test
    void gcmNonceReuseOnOneInstanceIsRefusedAsSunJceDoes() throws Exception {
        SecretKeySpec k = key(16, 3);
        GCMParameterSpec spec = new GCMParameterSpec(128, new byte[12]);
        for (Provider p : new Provider[] {SUN, PARCRYPT}) {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
            c.init(Cipher.ENCRYPT_MODE, k, spec);
            c.doFinal(new byte[5]);
            assertThrows(IllegalStateException.class, () -> c.doFinal(new byte[5]), p.getName());
            assertThrows(InvalidAlgorithmParameterException.class, () -> c.init(Cipher.ENCRYPT_MODE, k, spec),
                    p.getName());
            c.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(128, new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
            c.doFinal(new byte[5]);
        }
        // Without parameters, encryption draws a random nonce, which getIV reports.
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        c.init(Cipher.ENCRYPT_MODE, k);
        byte[] ct = c.doFinal(pattern(50));
        assertEquals(12, c.getIV().length);
        assertArrayEquals(pattern(50), run("AES/GCM/NoPadding", SUN, Cipher.DECRYPT_MODE, k,
                new GCMParameterSpec(128, c.getIV()), null, ct));
    }

    /** A key whose bytes its owner may change between two inits. */
    private static final class MutableKey implements java.security.Key {
        byte[] bytes;

        MutableKey(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public String getAlgorithm() {
            return "AES";
        }

        @Override
        public String getFormat() {
            return "RAW";
        }

        @Override
        public byte[] getEncoded() {
            return bytes.clone();
        }
    }

    /**
     * Re-init with the same {@code SecretKeySpec} object skips reading its
     * bytes again: the results stay SunJCE's, nonce reuse is refused
     * whichever object carries the key, and a key of another class is read
     * again on every init (its bytes may have changed).
     */
    @Test
    void gcmReinitWithTheSameKeyObjectOrOtherBytes() throws Exception {
        SecretKeySpec k = key(32, 11);
        SecretKeySpec sameBytes = new SecretKeySpec(k.getEncoded(), "AES");
        SecretKeySpec other = key(32, 12);
        GCMParameterSpec a = new GCMParameterSpec(128, Arrays.copyOf(pattern(3), 12));
        GCMParameterSpec b = new GCMParameterSpec(128, Arrays.copyOf(pattern(5), 12));
        byte[] msg = pattern(300);
        for (Provider p : new Provider[] {SUN, PARCRYPT}) {
            String at = p.getName();
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
            c.init(Cipher.ENCRYPT_MODE, k, a);
            assertArrayEquals(run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, a, null, msg), c.doFinal(msg), at);
            assertThrows(InvalidAlgorithmParameterException.class, () -> c.init(Cipher.ENCRYPT_MODE, k, a), at);
            assertThrows(InvalidAlgorithmParameterException.class, () -> c.init(Cipher.ENCRYPT_MODE, sameBytes, a), at);
            // Decrypting with another key in between does not forget the last encryption.
            c.init(Cipher.DECRYPT_MODE, other, a);
            assertThrows(InvalidAlgorithmParameterException.class, () -> c.init(Cipher.ENCRYPT_MODE, k, a), at);
            c.init(Cipher.DECRYPT_MODE, k, a);
            assertThrows(InvalidAlgorithmParameterException.class, () -> c.init(Cipher.ENCRYPT_MODE, k, a), at);
            c.init(Cipher.ENCRYPT_MODE, other, a);
            assertArrayEquals(run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, other, a, null, msg), c.doFinal(msg), at);
            c.init(Cipher.ENCRYPT_MODE, k, a);
            assertArrayEquals(run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, a, null, msg), c.doFinal(msg), at);
            c.init(Cipher.ENCRYPT_MODE, k, b);
            byte[] ct = c.doFinal(msg);
            assertArrayEquals(run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, b, null, msg), ct, at);
            c.init(Cipher.DECRYPT_MODE, k, b);
            assertArrayEquals(msg, c.doFinal(ct), at);

            // The same Key object with new bytes: the new key (and the
            // same nonce again is no reuse).
            GCMParameterSpec fresh = new GCMParameterSpec(128, Arrays.copyOf(pattern(7), 12));
            MutableKey mutable = new MutableKey(k.getEncoded());
            c.init(Cipher.ENCRYPT_MODE, mutable, fresh);
            assertArrayEquals(run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, fresh, null, msg), c.doFinal(msg), at);
            mutable.bytes = other.getEncoded();
            c.init(Cipher.ENCRYPT_MODE, mutable, fresh);
            assertArrayEquals(run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, other, fresh, null, msg), c.doFinal(msg), at);
            assertThrows(InvalidAlgorithmParameterException.class, () -> c.init(Cipher.ENCRYPT_MODE, mutable, fresh), at);
        }
    }

    @Test
    void gcmWrapsKeysBothWays() throws Exception {
        SecretKeySpec kek = key(32, 9);
        SecretKeySpec payload = key(16, 10);
        GCMParameterSpec spec = new GCMParameterSpec(128, pattern(12));
        Cipher w = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        w.init(Cipher.WRAP_MODE, kek, spec);
        byte[] wrapped = w.wrap(payload);
        Cipher u = Cipher.getInstance("AES/GCM/NoPadding", SUN);
        u.init(Cipher.UNWRAP_MODE, kek, spec);
        assertArrayEquals(payload.getEncoded(), u.unwrap(wrapped, "AES", Cipher.SECRET_KEY).getEncoded());
        Cipher ours = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        ours.init(Cipher.UNWRAP_MODE, kek, spec);
        assertArrayEquals(payload.getEncoded(), ours.unwrap(wrapped, "AES", Cipher.SECRET_KEY).getEncoded());
        wrapped[0] ^= 1;
        assertThrows(InvalidKeyException.class, () -> ours.unwrap(wrapped, "AES", Cipher.SECRET_KEY));
    }

    @Test
    void gcmBadKeysAndParameters() throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        GCMParameterSpec spec = new GCMParameterSpec(128, new byte[12]);
        assertThrows(InvalidKeyException.class, () -> c.init(Cipher.ENCRYPT_MODE, key(24, 0), spec), "AES-192");
        assertThrows(InvalidKeyException.class, () -> c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "DES"), spec));
        assertThrows(InvalidKeyException.class, () -> c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[17], "AES"), spec));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> c.init(Cipher.ENCRYPT_MODE, key(16, 0), new GCMParameterSpec(96, new byte[12])));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> c.init(Cipher.ENCRYPT_MODE, key(16, 0), new GCMParameterSpec(128, new byte[16])));
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> c.init(Cipher.DECRYPT_MODE, key(16, 0), new IvParameterSpec(new byte[12])));
        assertThrows(InvalidKeyException.class, () -> c.init(Cipher.DECRYPT_MODE, key(16, 0)), "decryption needs the nonce");
        c.init(Cipher.ENCRYPT_MODE, key(16, 0), spec);
        assertThrows(ShortBufferException.class, () -> c.doFinal(new byte[10], 0, 10, new byte[25], 0));
        // The short buffer consumed nothing: a retry works.
        byte[] out = new byte[26];
        assertEquals(26, c.doFinal(new byte[10], 0, 10, out, 0));
    }

    /** A new cipher, initialised: each encryption needs one (a nonce is used once per instance). */
    private static Cipher gcm(Provider p, int mode, SecretKeySpec k, GCMParameterSpec spec, byte[] aad) throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
        c.init(mode, k, spec);
        c.updateAAD(aad);
        return c;
    }

    /** {@code data} at {@code at} in an array of {@code size} bytes filled with 0x77 elsewhere. */
    private static byte[] placed(byte[] data, int at, int size) {
        byte[] a = new byte[size];
        Arrays.fill(a, (byte) 0x77);
        System.arraycopy(data, 0, a, at, data.length);
        return a;
    }

    private static void assertRegion(byte[] expected, byte[] array, int at, String what) {
        assertArrayEquals(expected, Arrays.copyOfRange(array, at, at + expected.length), what);
    }

    /**
     * The output of a failed open: untouched ({@code before} everywhere) or
     * wiped (zero everywhere), never anything else (never plaintext).
     */
    private static void assertAllOneOf(byte[] array, int from, int to, byte before, String what) {
        boolean untouched = true;
        boolean wiped = true;
        for (int i = from; i < to; i++) {
            untouched &= array[i] == before;
            wiped &= array[i] == 0;
        }
        assertTrue(untouched || wiped, what + ": the output is neither untouched nor wiped");
    }

    private static void assertUntouched(byte[] array, int from, int to, String what) {
        for (int i = from; i < to; i++) {
            assertEquals((byte) 0x77, array[i], what + ": byte " + i + " changed");
        }
    }

    /**
     * doFinal between byte arrays at offsets (native code works on a copy
     * on the stack up to 1 KiB sealed and 2 KiB opened, on the pinned arrays
     * above), empty, small, around those sizes and the one up to which
     * opening is one AWS-LC call, and parallel: separate arrays, one array in place,
     * one array with the ranges apart, and one with them overlapping
     * shifted either way (a native copy); a short output (nothing written,
     * the call can be retried) and a tampered tag (no plaintext anywhere).
     * Every result is SunJCE's.
     */
    @Test
    void gcmArrayOffsetsInPlaceOverlapsAndShortOutput() throws Exception {
        SecretKeySpec k = key(32, 6);
        GCMParameterSpec spec = new GCMParameterSpec(128, Arrays.copyOf(pattern(40), 12));
        byte[] aad = pattern(19);
        // 1 KiB and 2 KiB: the largest messages sealed and opened on a copy
        // on the stack rather than on the pinned arrays.
        for (int n : new int[] {0, 1, 15, 16, 17, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 4096, 4097,
                TestSupport.MIB + 7, 2 * TestSupport.MIB + 17}) {
            byte[] msg = pattern(n);
            byte[] ct = run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, spec, aad, msg);
            for (Provider p : TestSupport.ALL_STRATEGIES) {
                String at = n + " bytes, " + p;
                // Separate arrays, both at offsets.
                byte[] in = placed(msg, 5, n + 8);
                byte[] out = placed(new byte[0], 0, n + 16 + 13);
                assertEquals(n + 16, gcm(p, Cipher.ENCRYPT_MODE, k, spec, aad).doFinal(in, 5, n, out, 9), at);
                assertRegion(ct, out, 9, "seal at offsets, " + at);
                assertUntouched(out, 0, 9, at);
                assertUntouched(out, 9 + n + 16, out.length, at);
                in = placed(ct, 7, n + 16 + 9);
                out = placed(new byte[0], 0, n + 8);
                assertEquals(n, gcm(p, Cipher.DECRYPT_MODE, k, spec, aad).doFinal(in, 7, n + 16, out, 3), at);
                assertRegion(msg, out, 3, "open at offsets, " + at);
                assertUntouched(out, 0, 3, at);
                assertUntouched(out, 3 + n, out.length, at);

                // One array: in place (the same offset), ranges apart either
                // way round, and ranges overlapping shifted either way.
                int base = 40;
                int size = 2 * n + 120;
                for (int outAt : new int[] {base, base - 17, base - 1, base + 3, base + 16, base + 33,
                        base + n + 20, 0}) {
                    String how = "one array, input at " + base + ", output at " + outAt + ", " + at;
                    byte[] both = placed(msg, base, size);
                    assertEquals(n + 16, gcm(p, Cipher.ENCRYPT_MODE, k, spec, aad).doFinal(both, base, n, both, outAt), how);
                    assertRegion(ct, both, outAt, "seal, " + how);
                    both = placed(ct, base, size);
                    assertEquals(n, gcm(p, Cipher.DECRYPT_MODE, k, spec, aad).doFinal(both, base, n + 16, both, outAt), how);
                    assertRegion(msg, both, outAt, "open, " + how);
                }

                // A short output: ShortBufferException, nothing written, and
                // the same cipher then finishes into a big enough one.
                Cipher enc = gcm(p, Cipher.ENCRYPT_MODE, k, spec, aad);
                byte[] shortOut = placed(new byte[0], 0, n + 16 + 2);
                assertThrows(ShortBufferException.class, () -> enc.doFinal(msg, 0, n, shortOut, 3), at);
                assertUntouched(shortOut, 0, shortOut.length, "short output, " + at);
                assertEquals(n + 16, enc.doFinal(msg, 0, n, shortOut, 2), at);
                assertRegion(ct, shortOut, 2, "seal after a short output, " + at);
                Cipher dec = gcm(p, Cipher.DECRYPT_MODE, k, spec, aad);
                byte[] shortPlain = placed(new byte[0], 0, n + 4);
                assertThrows(ShortBufferException.class, () -> dec.doFinal(ct, 0, n + 16, shortPlain, 5), at);
                assertUntouched(shortPlain, 0, shortPlain.length, "short output, " + at);
                assertEquals(n, dec.doFinal(ct, 0, n + 16, shortPlain, 4), at);
                assertRegion(msg, shortPlain, 4, "open after a short output, " + at);

                // A tampered tag: AEADBadTagException, no plaintext written,
                // separate or in place.
                byte[] bad = placed(ct, 6, n + 16 + 6);
                bad[6 + n + 15] ^= 0x40;
                byte[] badOut = placed(new byte[0], 0, n + 1);
                byte[] badCopy = bad.clone();
                assertThrows(AEADBadTagException.class,
                        () -> gcm(p, Cipher.DECRYPT_MODE, k, spec, aad).doFinal(bad, 6, n + 16, badOut, 1), at);
                // The output region (from offset 1) is untouched or wiped;
                // the byte before it is never written.
                assertUntouched(badOut, 0, 1, "bad tag, before the output, " + at);
                assertAllOneOf(badOut, 1, badOut.length, (byte) 0x77, "bad tag, " + at);
                assertArrayEquals(badCopy, bad, "bad tag: the input changed, " + at);
                assertThrows(AEADBadTagException.class,
                        () -> gcm(p, Cipher.DECRYPT_MODE, k, spec, aad).doFinal(bad, 6, n + 16, bad, 6), at);
                assertArrayEquals(badCopy, bad, "bad tag in place: the ciphertext changed, " + at);
                assertThrows(AEADBadTagException.class,
                        () -> gcm(p, Cipher.DECRYPT_MODE, k, spec, aad).doFinal(bad, 6, n + 16, bad, 0), at);
                assertArrayEquals(badCopy, bad, "bad tag shifted: the ciphertext changed, " + at);
            }
        }
    }

    @Test
    void gcmDirectBuffersInPlaceAndSeparate() throws Exception {
        SecretKeySpec k = key(32, 4);
        GCMParameterSpec spec = new GCMParameterSpec(128, new byte[12]);
        int n = 2 * TestSupport.MIB + 33;
        byte[] msg = pattern(n);
        byte[] expected = run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, spec, null, msg);
        ByteBuffer in = ByteBuffer.allocateDirect(n).put(msg).flip();
        ByteBuffer out = ByteBuffer.allocateDirect(n + 16);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        c.init(Cipher.ENCRYPT_MODE, k, spec);
        assertEquals(n + 16, c.doFinal(in, out));
        byte[] got = new byte[n + 16];
        out.flip().get(got);
        assertArrayEquals(expected, got);
        // Decrypt in place.
        ByteBuffer both = ByteBuffer.allocateDirect(n + 16).put(expected).flip();
        Cipher d = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        d.init(Cipher.DECRYPT_MODE, k, spec);
        assertEquals(n, d.doFinal(both.duplicate(), both.duplicate()));
        byte[] plain = new byte[n];
        both.get(plain);
        assertArrayEquals(msg, plain);
    }

    /** The bytes of a direct buffer from {@code from} to {@code to}, whatever its position and limit. */
    private static byte[] contents(ByteBuffer b, int from, int to) {
        byte[] out = new byte[to - from];
        b.get(from, out);
        return out;
    }

    /**
     * The output of a failed open in place: each byte the ciphertext's again
     * or zero, never plaintext.
     */
    private static void assertCiphertextOrZero(byte[] ct, byte[] got, String what) {
        for (int i = 0; i < got.length; i++) {
            assertTrue(got[i] == ct[i] || got[i] == 0, what + ": byte " + i + " is neither ciphertext nor zero");
        }
    }

    /**
     * GCM on direct buffers, which native code reads and writes in place:
     * decryption in place (one buffer object as input and output through the
     * native call, since {@code Cipher} refuses one object twice; two views of
     * one buffer through {@code Cipher}), between separate buffers, and
     * between two views of one buffer that overlap without starting at the
     * same byte, which both directions refuse (IllegalArgumentException)
     * before a byte is read or written. A tampered tag leaves no plaintext
     * in either output. Small, stack-copy-sized and parallel messages, every
     * strategy; the plaintexts are SunJCE's.
     */
    @Test
    void gcmDirectBuffersInPlaceApartAndPartialOverlap() throws Exception {
        SecretKeySpec k = key(32, 7);
        // The all-zero nonce: Native takes it as nonceHead 0, nonceTail 0.
        GCMParameterSpec spec = new GCMParameterSpec(128, new byte[12]);
        for (int n : new int[] {0, 1, 1000, 4097, 2 * TestSupport.MIB + 33}) {
            byte[] msg = pattern(n);
            byte[] ct = run("AES/GCM/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, spec, null, msg);
            for (ParcryptProvider p : TestSupport.ALL_STRATEGIES) {
                String at = n + " bytes, " + p;

                // In place, the very same buffer object as input and output.
                ByteBuffer same = ByteBuffer.allocateDirect(n + 16).put(ct).flip();
                long h = Native.gcmNew(k.getEncoded());
                NativeRef ref = new NativeRef(h, Native::gcmFree);
                try {
                    assertEquals(n, Native.gcmOpenDirect(h, 0L, 0, null, same, 0, n + 16, same, 0, p.threads(),
                            p.strategyCode()), at);
                } finally {
                    ref.close();
                }
                assertArrayEquals(msg, contents(same, 0, n), "one buffer in place, " + at);

                // In place through Cipher: two views of one buffer.
                ByteBuffer both = ByteBuffer.allocateDirect(n + 16).put(ct).flip();
                assertEquals(n, gcm(p, Cipher.DECRYPT_MODE, k, spec, new byte[0]).doFinal(both.duplicate(),
                        both.duplicate()), at);
                assertArrayEquals(msg, contents(both, 0, n), "two views in place, " + at);

                // Separate buffers.
                ByteBuffer in = ByteBuffer.allocateDirect(n + 16).put(ct).flip();
                ByteBuffer out = ByteBuffer.allocateDirect(n);
                assertEquals(n, gcm(p, Cipher.DECRYPT_MODE, k, spec, new byte[0]).doFinal(in, out), at);
                assertArrayEquals(msg, contents(out, 0, n), "separate buffers, " + at);
                assertArrayEquals(ct, contents(in, 0, n + 16), "separate buffers: the input changed, " + at);

                // A tampered tag: the separate output zeroed, the one in
                // place ciphertext or zero; never plaintext.
                ByteBuffer bad = ByteBuffer.allocateDirect(n + 16).put(ct).flip();
                bad.put(n + 15, (byte) (ct[n + 15] ^ 1));
                byte[] badCt = contents(bad, 0, n + 16);
                ByteBuffer badOut = ByteBuffer.allocateDirect(n);
                assertThrows(AEADBadTagException.class,
                        () -> gcm(p, Cipher.DECRYPT_MODE, k, spec, new byte[0]).doFinal(bad.duplicate(), badOut), at);
                assertArrayEquals(new byte[n], contents(badOut, 0, n), "bad tag, separate output, " + at);
                assertThrows(AEADBadTagException.class, () -> gcm(p, Cipher.DECRYPT_MODE, k, spec, new byte[0])
                        .doFinal(bad.duplicate(), bad.duplicate()), at);
                assertCiphertextOrZero(badCt, contents(bad, 0, n), "bad tag in place, " + at);

                if (n < 6) {
                    continue; // ranges 5 bytes apart overlap both ways from 6 bytes on
                }
                // Two views of one buffer, the output starting 5 bytes into
                // the input (or the input 5 bytes into the output): refused,
                // and nothing read or written.
                for (int shift : new int[] {5, -5}) {
                    String how = "partial overlap by " + shift + ", " + at;
                    int inAt = Math.max(0, -shift);
                    int outAt = Math.max(0, shift);
                    ByteBuffer whole = ByteBuffer.allocateDirect(n + 16 + 5);
                    whole.put(inAt, ct);
                    byte[] before = contents(whole, 0, whole.capacity());
                    ByteBuffer src = whole.duplicate().position(inAt).limit(inAt + n + 16);
                    ByteBuffer dst = whole.duplicate().position(outAt).limit(outAt + n);
                    assertThrows(IllegalArgumentException.class,
                            () -> gcm(p, Cipher.DECRYPT_MODE, k, spec, new byte[0]).doFinal(src, dst), how);
                    assertArrayEquals(before, contents(whole, 0, whole.capacity()), "open, " + how);
                    ByteBuffer plain = whole.duplicate().position(inAt).limit(inAt + n);
                    ByteBuffer sealed = whole.duplicate().position(outAt).limit(outAt + n + 16);
                    assertThrows(IllegalArgumentException.class,
                            () -> gcm(p, Cipher.ENCRYPT_MODE, k, spec, new byte[0]).doFinal(plain, sealed), how);
                    assertArrayEquals(before, contents(whole, 0, whole.capacity()), "seal, " + how);
                }
            }
        }
    }

    @Test
    void ctrMatchesSunJceBothWaysIncludingCounterWrap() throws Exception {
        byte[][] ivs = {new byte[16], TestSupport.unhex("ffffffffffffffffffffffffffffffff"),
                TestSupport.unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")};
        for (int keyLen : new int[] {16, 24, 32}) {
            SecretKeySpec k = key(keyLen, keyLen);
            for (byte[] iv : ivs) {
                for (int size : AES_SIZES) {
                    byte[] msg = pattern(size);
                    IvParameterSpec spec = new IvParameterSpec(iv);
                    byte[] sun = run("AES/CTR/NoPadding", SUN, Cipher.ENCRYPT_MODE, k, spec, null, msg);
                    for (Provider p : TestSupport.ALL_STRATEGIES) {
                        assertArrayEquals(sun, run("AES/CTR/NoPadding", p, Cipher.ENCRYPT_MODE, k, spec, null, msg),
                                "CTR " + size + " bytes " + p);
                        assertArrayEquals(msg, run("AES/CTR/NoPadding", p, Cipher.DECRYPT_MODE, k, spec, null, sun));
                    }
                }
            }
        }
    }

    @Test
    void ctrAndCbcStreamInOddPieces() throws Exception {
        SecretKeySpec k = key(16, 5);
        IvParameterSpec spec = new IvParameterSpec(pattern(16));
        byte[] msg = pattern(3 * TestSupport.MIB + 7);
        for (String t : new String[] {"AES/CTR/NoPadding", "AES/CBC/PKCS5Padding"}) {
            byte[] sun = run(t, SUN, Cipher.ENCRYPT_MODE, k, spec, null, msg);
            for (int mode : new int[] {Cipher.ENCRYPT_MODE, Cipher.DECRYPT_MODE}) {
                byte[] input = mode == Cipher.ENCRYPT_MODE ? msg : sun;
                byte[] want = mode == Cipher.ENCRYPT_MODE ? sun : msg;
                Cipher c = Cipher.getInstance(t, PARCRYPT);
                c.init(mode, k, spec);
                java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
                int[] pieces = {1, 15, 17, 2 * TestSupport.MIB + 3, 5};
                int at = 0;
                for (int piece : pieces) {
                    byte[] o = c.update(input, at, piece);
                    if (o != null) {
                        got.write(o);
                    }
                    at += piece;
                }
                got.write(c.doFinal(input, at, input.length - at));
                assertArrayEquals(want, got.toByteArray(), t + " mode " + mode);
                // doFinal resets to the initialised state: the same message again.
                assertArrayEquals(want, c.doFinal(input), t + " after reset");
            }
        }
    }

    @Test
    void cbcMatchesSunJceBothWays() throws Exception {
        for (int keyLen : new int[] {16, 24, 32}) {
            SecretKeySpec k = key(keyLen, keyLen + 100);
            IvParameterSpec spec = new IvParameterSpec(pattern(16));
            for (int size : AES_SIZES) {
                byte[] msg = pattern(size);
                byte[] sun = run("AES/CBC/PKCS5Padding", SUN, Cipher.ENCRYPT_MODE, k, spec, null, msg);
                for (Provider p : TestSupport.ALL_STRATEGIES) {
                    assertArrayEquals(sun, run("AES/CBC/PKCS5Padding", p, Cipher.ENCRYPT_MODE, k, spec, null, msg));
                    assertArrayEquals(msg, run("AES/CBC/PKCS5Padding", p, Cipher.DECRYPT_MODE, k, spec, null, sun),
                            "CBC decrypt " + size + " " + p);
                }
            }
        }
    }

    @Test
    void cbcBadPaddingAndTruncationAreTheJcaExceptions() throws Exception {
        SecretKeySpec k = key(16, 6);
        IvParameterSpec spec = new IvParameterSpec(new byte[16]);
        byte[] ct = run("AES/CBC/PKCS5Padding", SUN, Cipher.ENCRYPT_MODE, k, spec, null, pattern(100));
        Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding", PARCRYPT);
        c.init(Cipher.DECRYPT_MODE, key(16, 7), spec);
        assertThrows(BadPaddingException.class, () -> c.doFinal(ct), "wrong key");
        c.init(Cipher.DECRYPT_MODE, k, spec);
        assertThrows(IllegalBlockSizeException.class, () -> c.doFinal(Arrays.copyOf(ct, ct.length - 1)));
        // After a failure the cipher is usable again.
        assertArrayEquals(pattern(100), c.doFinal(ct));
        assertTrue(c.getOutputSize(10) >= 10);
        assertThrows(InvalidAlgorithmParameterException.class,
                () -> c.init(Cipher.DECRYPT_MODE, k, new IvParameterSpec(new byte[8])));
        assertThrows(InvalidKeyException.class, () -> c.init(Cipher.DECRYPT_MODE, k), "no IV");
        assertThrows(java.security.InvalidParameterException.class, () -> c.init(Cipher.WRAP_MODE, k, spec));
    }
}
