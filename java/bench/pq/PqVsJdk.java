import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.crypto.KEM;

/**
 * One ML-DSA-65 keygen / sign / verify and one ML-KEM-768 keygen /
 * encapsulate / decapsulate, Parcrypt against the JDK's SUN / SunJCE, in
 * one JVM: rounds interleaved (who goes first alternates), each round
 * timing a batch of calls one after another on one thread by that thread's
 * CPU time; the medians of the per-call times are printed with the load
 * average.
 *
 *   $JDK25/bin/java -cp java/target/parcrypt-jca.jar java/bench/pq/PqVsJdk.java [ROUNDS] [CALLS]
 *
 * Not a JMH benchmark: a paired, same-run comparison (the JMH suite in
 * java/bench/src runs on Java 17, which has no SUN ML-DSA to compare with).
 */
public class PqVsJdk {
    interface Op {
        void run() throws Exception;
    }

    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * The calling thread's CPU time per call (µs): on a loaded machine the
     * wall clock counts the other processes' turns, this does not (every
     * operation here runs on the calling thread: Parcrypt with 1 thread).
     */
    static double perCallMicros(Op op, int calls) throws Exception {
        long t0 = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
            op.run();
        }
        return (THREADS.getCurrentThreadCpuTime() - t0) / 1e3 / calls;
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Provider parcrypt = (Provider) Class.forName("dev.parcrypt.jca.ParcryptProvider")
                .getConstructor(int.class, String.class).newInstance(1, "seq");
        Provider sun = Security.getProvider("SUN");
        Provider sunJce = Security.getProvider("SunJCE");
        byte[] msg = new byte[1024];
        String[] names = {"ML-DSA-65 keygen", "ML-DSA-65 sign", "ML-DSA-65 verify", "ML-KEM-768 keygen",
            "ML-KEM-768 encapsulate", "ML-KEM-768 decapsulate"};
        Provider[][] who = {{parcrypt, sun}, {parcrypt, sun}, {parcrypt, sun}, {parcrypt, sunJce}, {parcrypt, sunJce},
            {parcrypt, sunJce}};
        Op[][] ops = new Op[names.length][2];
        for (int p = 0; p < 2; p++) {
            Provider sig = who[0][p];
            Provider kem = who[3][p];
            KeyPairGenerator dsaGen = KeyPairGenerator.getInstance("ML-DSA-65", sig);
            KeyPair dsa = dsaGen.generateKeyPair();
            Signature signer = Signature.getInstance("ML-DSA", sig);
            signer.initSign(dsa.getPrivate());
            signer.update(msg);
            byte[] s = signer.sign();
            Signature verifier = Signature.getInstance("ML-DSA", sig);
            KeyPairGenerator kemGen = KeyPairGenerator.getInstance("ML-KEM-768", kem);
            KeyPair kp = kemGen.generateKeyPair();
            KEM.Encapsulator enc = KEM.getInstance("ML-KEM", kem).newEncapsulator(kp.getPublic());
            KEM.Decapsulator dec = KEM.getInstance("ML-KEM", kem).newDecapsulator(kp.getPrivate());
            byte[] ct = enc.encapsulate().encapsulation();
            PrivateKey dsaPriv = dsa.getPrivate();
            PublicKey dsaPub = dsa.getPublic();
            ops[0][p] = dsaGen::generateKeyPair;
            ops[1][p] = () -> {
                signer.initSign(dsaPriv);
                signer.update(msg);
                signer.sign();
            };
            ops[2][p] = () -> {
                verifier.initVerify(dsaPub);
                verifier.update(msg);
                if (!verifier.verify(s)) {
                    throw new AssertionError("verify failed");
                }
            };
            ops[3][p] = kemGen::generateKeyPair;
            ops[4][p] = enc::encapsulate;
            ops[5][p] = () -> dec.decapsulate(ct);
        }
        String loadBefore = load();
        List<List<List<Double>>> times = new ArrayList<>();
        for (int o = 0; o < names.length; o++) {
            times.add(List.of(new ArrayList<>(), new ArrayList<>()));
        }
        // Warm-up (JIT compilation of the JDK's Java code): ten rounds of each, not kept.
        for (int o = 0; o < names.length; o++) {
            for (int p = 0; p < 2; p++) {
                perCallMicros(ops[o][p], calls * 10);
            }
        }
        for (int r = 0; r < rounds; r++) {
            for (int o = 0; o < names.length; o++) {
                int first = r % 2; // alternate who goes first
                for (int k = 0; k < 2; k++) {
                    int p = (first + k) % 2;
                    times.get(o).get(p).add(perCallMicros(ops[o][p], calls));
                }
            }
        }
        System.out.printf(Locale.ROOT, "JDK %s, %d rounds x %d calls, one thread, thread CPU time; loadavg before: %s, after: %s%n",
                Runtime.version(), rounds, calls, loadBefore, load());
        System.out.println("| operation | Parcrypt µs | JDK µs (provider) | JDK / Parcrypt |");
        System.out.println("|---|---:|---:|---:|");
        for (int o = 0; o < names.length; o++) {
            double ours = median(times.get(o).get(0));
            double theirs = median(times.get(o).get(1));
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f (%s) | %.2f× |%n", names[o], ours, theirs,
                    who[o][1].getName(), theirs / ours);
        }
    }
}
