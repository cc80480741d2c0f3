package dev.parcrypt.bench;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.concurrent.TimeUnit;
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
 * RSA signature latency (SHA256withRSA, PKCS#1 v1.5): the CRT private
 * operation. The key comes from SunRsaSign, so every provider signs with the
 * same key. {@code bits} 2048 is the target; the paper table also
 * uses it as its Table 4 workload.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class RsaSignBench {
    @Param({"2048"})
    public int bits;

    @Param({"Parcrypt", "ACCP", "JDK", "BC"})
    public String provider;

    private final byte[] message = new byte[64];
    private Signature signer;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", "SunRsaSign");
        g.initialize(bits);
        KeyPair keys = g.generateKeyPair();
        signer = Signature.getInstance("SHA256withRSA", Providers.get(provider, Providers.Kind.RSA));
        signer.initSign(keys.getPrivate());
    }

    @Benchmark
    public byte[] sign() throws Exception {
        signer.update(message);
        return signer.sign();
    }
}
