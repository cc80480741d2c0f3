package dev.parcrypt.bench;

import dev.parcrypt.jca.ParcryptEcdsa;
import dev.parcrypt.jca.ParcryptProvider;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Random;
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
 * ECDSA P-256 (SHA256withECDSA): one signature and one verification (latency),
 * and 1,024 verifications: a loop of {@code Signature.verify} on the named
 * provider ({@code verifyLoop}) against {@code ParcryptEcdsa.verifyBatch}
 * ({@code verifyBatch}, on the provider's threads; run only for Parcrypt
 * configurations). The keys and signatures come from SunEC, so every provider
 * checks the same inputs.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class EcdsaBench {
    static final int BATCH = 1024;

    @Param({"Parcrypt", "ACCP", "JDK", "BC"})
    public String provider;

    private Provider p;
    private KeyPair keys;
    private byte[][] messages;
    private byte[][] signatures;
    private Signature signer;
    private Signature verifier;
    private PublicKey[] publicKeys;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        p = Providers.get(provider, Providers.Kind.EC);
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", "SunEC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        keys = g.generateKeyPair();
        Signature s = Signature.getInstance("SHA256withECDSA", "SunEC");
        s.initSign(keys.getPrivate());
        Random r = new Random(1);
        messages = new byte[BATCH][64];
        signatures = new byte[BATCH][];
        for (int i = 0; i < BATCH; i++) {
            r.nextBytes(messages[i]);
            s.update(messages[i]);
            signatures[i] = s.sign();
        }
        signer = Signature.getInstance("SHA256withECDSA", p);
        signer.initSign(keys.getPrivate());
        verifier = Signature.getInstance("SHA256withECDSA", p);
        verifier.initVerify(keys.getPublic());
        publicKeys = new PublicKey[BATCH];
        Arrays.fill(publicKeys, keys.getPublic());
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public byte[] sign() throws Exception {
        signer.update(messages[0]);
        return signer.sign();
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public boolean verify() throws Exception {
        verifier.update(messages[0]);
        if (!verifier.verify(signatures[0])) {
            throw new IllegalStateException("a valid signature failed");
        }
        return true;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int verifyLoop() throws Exception {
        int ok = 0;
        for (int i = 0; i < BATCH; i++) {
            verifier.update(messages[i]);
            ok += verifier.verify(signatures[i]) ? 1 : 0;
        }
        if (ok != BATCH) {
            throw new IllegalStateException(ok + " of " + BATCH + " verified");
        }
        return ok;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int verifyBatch() throws Exception {
        if (!(p instanceof ParcryptProvider)) {
            throw new UnsupportedOperationException("verifyBatch is Parcrypt's own API");
        }
        boolean[] ok = ParcryptEcdsa.verifyBatch(publicKeys, messages, signatures, false, (ParcryptProvider) p);
        for (boolean b : ok) {
            if (!b) {
                throw new IllegalStateException("a valid signature failed");
            }
        }
        return ok.length;
    }
}
