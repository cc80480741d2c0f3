package dev.parcrypt.bench;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
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
 * RSA key generation: one key per shot, so the median and p90 over the
 * shots are the distribution (it is heavy-tailed: the time depends on how
 * far the next primes lie). run.sh sets the number of shots.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class RsaKeyGenBench {
    @Param({"2048", "3072"})
    public int bits;

    @Param({"Parcrypt", "ACCP", "JDK", "BC"})
    public String provider;

    private KeyPairGenerator generator;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        generator = KeyPairGenerator.getInstance("RSA", Providers.get(provider, Providers.Kind.RSA));
        generator.initialize(bits);
    }

    @Benchmark
    public KeyPair generate() {
        return generator.generateKeyPair();
    }
}
