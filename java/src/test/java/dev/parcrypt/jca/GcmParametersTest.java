package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.PARCRYPT;
import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.security.AlgorithmParameters;
import java.security.Provider;
import java.security.spec.InvalidParameterSpecException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** {@code AlgorithmParameters.GCM}: the round trip through {@code Cipher.getParameters()}, and SunJCE's encoding both ways. */
class GcmParametersTest {
    private static final Provider SUN = TestSupport.jdk("SunJCE");
    private static final SecretKeySpec KEY = new SecretKeySpec(pattern(32), "AES");

    @Test
    void cipherParametersRoundTrip() throws Exception {
        byte[] nonce = java.util.Arrays.copyOf(pattern(50), 12);
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        enc.init(Cipher.ENCRYPT_MODE, KEY, new GCMParameterSpec(128, nonce));
        AlgorithmParameters params = enc.getParameters();
        assertEquals("Parcrypt", params.getProvider().getName());
        assertEquals("GCM", params.getAlgorithm());
        GCMParameterSpec spec = params.getParameterSpec(GCMParameterSpec.class);
        assertArrayEquals(nonce, spec.getIV());
        assertEquals(128, spec.getTLen());
        byte[] ct = enc.doFinal(pattern(1000));

        // The parameters (and their encoding, read back by a new object) open the message.
        AlgorithmParameters decoded = AlgorithmParameters.getInstance("GCM", PARCRYPT);
        decoded.init(params.getEncoded());
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        dec.init(Cipher.DECRYPT_MODE, KEY, decoded);
        assertArrayEquals(pattern(1000), dec.doFinal(ct));
    }

    @Test
    void generatedNonceComesBackThroughGetParameters() throws Exception {
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding", PARCRYPT);
        enc.init(Cipher.ENCRYPT_MODE, KEY);
        byte[] ct = enc.doFinal(pattern(100));
        AlgorithmParameters params = enc.getParameters();
        assertArrayEquals(enc.getIV(), params.getParameterSpec(GCMParameterSpec.class).getIV());
        Cipher sun = Cipher.getInstance("AES/GCM/NoPadding", SUN);
        sun.init(Cipher.DECRYPT_MODE, KEY, params.getParameterSpec(GCMParameterSpec.class));
        assertArrayEquals(pattern(100), sun.doFinal(ct));
    }

    @Test
    void encodingMatchesSunJceBothWays() throws Exception {
        for (int tagBits : new int[] {96, 104, 128}) {
            for (int nonceLen : new int[] {1, 12, 16, 200}) {
                GCMParameterSpec spec = new GCMParameterSpec(tagBits, pattern(nonceLen));
                AlgorithmParameters sun = AlgorithmParameters.getInstance("GCM", SUN);
                sun.init(spec);
                AlgorithmParameters ours = AlgorithmParameters.getInstance("GCM", PARCRYPT);
                ours.init(spec);
                String what = tagBits + "-bit tag, " + nonceLen + "-byte nonce";
                // SunJCE always writes the tag length; DER leaves out the default (12 bytes).
                if (tagBits != 96) {
                    assertArrayEquals(sun.getEncoded(), ours.getEncoded(), what);
                }
                AlgorithmParameters fromSun = AlgorithmParameters.getInstance("GCM", PARCRYPT);
                fromSun.init(sun.getEncoded());
                assertEquals(tagBits, fromSun.getParameterSpec(GCMParameterSpec.class).getTLen(), what);
                assertArrayEquals(spec.getIV(), fromSun.getParameterSpec(GCMParameterSpec.class).getIV(), what);
                AlgorithmParameters fromOurs = AlgorithmParameters.getInstance("GCM", SUN);
                fromOurs.init(ours.getEncoded());
                assertEquals(tagBits, fromOurs.getParameterSpec(GCMParameterSpec.class).getTLen(), what);
                assertArrayEquals(spec.getIV(), fromOurs.getParameterSpec(GCMParameterSpec.class).getIV(), what);
            }
        }
    }

    @Test
    void refusesWhatIsNotGcmParameters() throws Exception {
        AlgorithmParameters p = AlgorithmParameters.getInstance("GCM", PARCRYPT);
        assertThrows(InvalidParameterSpecException.class, () -> p.init(new IvParameterSpec(new byte[12])));
        assertThrows(InvalidParameterSpecException.class, () -> p.init(new GCMParameterSpec(64, new byte[12])));
        byte[][] bad = {
            {},
            {0x30, 0x00},                                    // no nonce
            {0x30, 0x02, 0x04, 0x00},                        // empty nonce
            {0x30, 0x05, 0x04, 0x01, 0x07, 0x02, 0x01},      // truncated INTEGER
            {0x30, 0x06, 0x04, 0x01, 0x07, 0x02, 0x01, 0x11}, // 17-byte tag
            {0x30, 0x03, 0x04, 0x01, 0x07, 0x00},            // bytes after the SEQUENCE
            {0x31, 0x03, 0x04, 0x01, 0x07},                  // SET, not SEQUENCE
        };
        for (byte[] der : bad) {
            AlgorithmParameters q = AlgorithmParameters.getInstance("GCM", PARCRYPT);
            assertThrows(IOException.class, () -> q.init(der), java.util.HexFormat.of().formatHex(der));
        }
        AlgorithmParameters fresh = AlgorithmParameters.getInstance("GCM", PARCRYPT);
        fresh.init(new byte[] {0x30, 0x03, 0x04, 0x01, 0x07});
        assertEquals(96, fresh.getParameterSpec(GCMParameterSpec.class).getTLen());
        assertThrows(InvalidParameterSpecException.class,
                () -> fresh.getParameterSpec(IvParameterSpec.class));
    }
}
