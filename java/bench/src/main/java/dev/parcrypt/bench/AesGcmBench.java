package dev.parcrypt.bench;

import java.security.Provider;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * AES-256-GCM of one message: init (a fresh nonce each time, as a caller
 * must) and doFinal into a preallocated output. Decryption checks the tag.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class AesGcmBench {
    @Param({"1024", "67108864"})
    public int size;

    @Param({"Parcrypt", "ACCP", "JDK", "BC"})
    public String provider;

    private final SecretKeySpec key = new SecretKeySpec(new byte[32], "AES");
    private final byte[] nonce = new byte[12];
    private Cipher cipher;
    private byte[] plain;
    private byte[] sealed;
    private byte[] out;
    private long counter;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        Provider p = Providers.get(provider, Providers.Kind.CIPHER);
        cipher = Cipher.getInstance("AES/GCM/NoPadding", p);
        plain = new byte[size];
        new Random(1).nextBytes(plain);
        cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
        sealed = cipher.doFinal(plain);
        out = new byte[size + 16];
    }

    @Benchmark
    public int encrypt() throws Exception {
        counter++;
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (counter >>> (8 * i));
        }
        cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
        return cipher.doFinal(plain, 0, plain.length, out, 0);
    }

    @Benchmark
    public int decrypt() throws Exception {
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, new byte[12]));
        return cipher.doFinal(sealed, 0, sealed.length, out, 0);
    }
}
