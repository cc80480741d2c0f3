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
 * One ML-DSA-44/65/87 keygen / sign / verify and one ML-KEM-512/768/1024
 * keygen / encapsulate / decapsulate, Parcrypt (its default: every core,
 * work stealing) against the JDK's SUN / SunJCE, in one JVM. Run it with
 * java/bench/pq/run.sh (docs/JAVA.md), or by hand on a JDK 25:
 *
 *   $JDK25/bin/java --enable-native-access=ALL-UNNAMED -cp java/target/parcrypt-jca.jar \
 *       java/bench/pq/PqVsJdk.java [ROUNDS [CALLS]]
 *
 * Each call is one operation as an application does it once: {@code
 * generateKeyPair()} on an initialised generator; {@code initSign} +
 * {@code update} (1 KiB) + {@code sign}; {@code initVerify} + {@code
 * update} + {@code verify}; {@code newEncapsulator(pk).encapsulate()};
 * {@code newDecapsulator(sk).decapsulate(ct)}. Every pair is warmed up
 * first (JIT), then ROUNDS rounds (default 31) time CALLS calls (default
 * 40) of each operation of each provider back to back, who goes first
 * alternating, so both see the same machine. Printed: the median over the
 * rounds of the time per call, and of each round's JDK / Parcrypt, by two
 * clocks — wall (what a user waits for: the number to compare, on a quiet
 * machine) and the calling thread's CPU time (which a loaded machine
 * disturbs less, but which leaves out what other threads do for the
 * caller: the JDK's collector, Parcrypt's Cleaner freeing native keys) —
 * with the CPU model and the load average before and after. ML-DSA
 * signing loops a random number of times (rejection sampling, about 4–5
 * rounds on average for both): its medians move more from run to run
 * than the others'; raise CALLS to steady them.
 *
 * Not a JMH benchmark: a paired, same-run comparison (the JMH suite in
 * java/bench/src runs on Java 17, which has no ML-DSA or ML-KEM of its own).
 */
public class PqVsJdk {
    interface Op {
        void run() throws Exception;
    }

    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** The clocks, per call (µs): wall, this thread's CPU. */
    static double[] perCall(Op op, int calls) throws Exception {
        long w0 = System.nanoTime();
        long t0 = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
            op.run();
        }
        long t1 = THREADS.getCurrentThreadCpuTime();
        long w1 = System.nanoTime();
        return new double[] {(w1 - w0) / 1e3 / calls, (t1 - t0) / 1e3 / calls};
    }

    static double median(double[] a) {
        a = a.clone();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static double median(List<double[]> xs, int clock) {
        return median(xs.stream().mapToDouble(x -> x[clock]).toArray());
    }

    /** The median over the rounds of JDK / Parcrypt, each round's pair measured back to back. */
    static double ratio(List<double[]> ours, List<double[]> theirs, int clock) {
        double[] r = new double[ours.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = theirs.get(i)[clock] / ours.get(i)[clock];
        }
        return median(r);
    }

    static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (Exception e) {
            return "";
        }
    }

    static String load() {
        String s = read("/proc/loadavg").trim();
        return s.isEmpty() ? "unknown" : s;
    }

    static String cpuModel() {
        for (String line : read("/proc/cpuinfo").split("\n")) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return System.getProperty("os.arch");
    }

    /** One operation of both providers: index 0 Parcrypt, 1 the JDK. */
    record Pair(String name, String jdkProvider, Op[] ops) {}

    static void signatures(String set, Provider[] providers, byte[] msg, List<Pair> out) throws Exception {
        Op[] keygen = new Op[2];
        Op[] sign = new Op[2];
        Op[] verify = new Op[2];
        for (int p = 0; p < 2; p++) {
            Provider provider = providers[p];
            KeyPairGenerator gen = KeyPairGenerator.getInstance(set, provider);
            KeyPair kp = gen.generateKeyPair();
            PrivateKey priv = kp.getPrivate();
            PublicKey pub = kp.getPublic();
            Signature signer = Signature.getInstance("ML-DSA", provider);
            Signature verifier = Signature.getInstance("ML-DSA", provider);
            signer.initSign(priv);
            signer.update(msg);
            byte[] sig = signer.sign();
            keygen[p] = gen::generateKeyPair;
            sign[p] = () -> {
                signer.initSign(priv);
                signer.update(msg);
                signer.sign();
            };
            verify[p] = () -> {
                verifier.initVerify(pub);
                verifier.update(msg);
                if (!verifier.verify(sig)) {
                    throw new AssertionError(set + " signature did not verify");
                }
            };
        }
        String jdk = providers[1].getName();
        out.add(new Pair(set + " keygen", jdk, keygen));
        out.add(new Pair(set + " sign", jdk, sign));
        out.add(new Pair(set + " verify", jdk, verify));
    }

    static void kems(String set, Provider[] providers, List<Pair> out) throws Exception {
        Op[] keygen = new Op[2];
        Op[] encaps = new Op[2];
        Op[] decaps = new Op[2];
        for (int p = 0; p < 2; p++) {
            Provider provider = providers[p];
            KeyPairGenerator gen = KeyPairGenerator.getInstance(set, provider);
            KeyPair kp = gen.generateKeyPair();
            PrivateKey priv = kp.getPrivate();
            PublicKey pub = kp.getPublic();
            KEM kem = KEM.getInstance("ML-KEM", provider);
            KEM.Encapsulated e = kem.newEncapsulator(pub).encapsulate();
            byte[] ct = e.encapsulation();
            byte[] secret = e.key().getEncoded();
            if (!Arrays.equals(secret, kem.newDecapsulator(priv).decapsulate(ct).getEncoded())) {
                throw new AssertionError(set + " decapsulation disagrees");
            }
            keygen[p] = gen::generateKeyPair;
            encaps[p] = () -> kem.newEncapsulator(pub).encapsulate();
            decaps[p] = () -> kem.newDecapsulator(priv).decapsulate(ct);
        }
        String jdk = providers[1].getName();
        out.add(new Pair(set + " keygen", jdk, keygen));
        out.add(new Pair(set + " encapsulate", jdk, encaps));
        out.add(new Pair(set + " decapsulate", jdk, decaps));
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 31;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        Provider parcrypt = (Provider) Class.forName("dev.parcrypt.jca.ParcryptProvider")
                .getConstructor().newInstance();
        Provider[] dsa = {parcrypt, Security.getProvider("SUN")};
        Provider[] kem = {parcrypt, Security.getProvider("SunJCE")};
        byte[] msg = new byte[1024];
        new java.util.Random(1).nextBytes(msg);
        List<Pair> pairs = new ArrayList<>();
        for (String set : new String[] {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"}) {
            signatures(set, dsa, msg, pairs);
        }
        for (String set : new String[] {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"}) {
            kems(set, kem, pairs);
        }
        String loadBefore = load();
        long start = System.nanoTime();
        // Warm-up (the JIT compiles both providers' Java code): each pair at
        // least 300 ms and 200 calls, not kept.
        for (Pair pair : pairs) {
            for (Op op : pair.ops()) {
                long until = System.nanoTime() + 300_000_000L;
                int done = 0;
                while (done < 200 || System.nanoTime() < until) {
                    perCall(op, 10);
                    done += 10;
                }
            }
        }
        List<List<List<double[]>>> times = new ArrayList<>();
        for (int o = 0; o < pairs.size(); o++) {
            times.add(List.of(new ArrayList<>(), new ArrayList<>()));
        }
        for (int r = 0; r < rounds; r++) {
            for (int o = 0; o < pairs.size(); o++) {
                int first = r % 2; // who goes first alternates
                for (int k = 0; k < 2; k++) {
                    int p = (first + k) % 2;
                    times.get(o).get(p).add(perCall(pairs.get(o).ops()[p], calls));
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "Parcrypt (%s, default: every core, work stealing) vs JDK %s SUN / SunJCE%n",
                parcrypt.getVersionStr(), Runtime.version());
        System.out.printf(Locale.ROOT, "CPU: %s, %d cores for the JVM; %d rounds x %d calls, interleaved, medians; %.0f s%n",
                cpuModel(), Runtime.getRuntime().availableProcessors(), rounds, calls, seconds);
        System.out.printf(Locale.ROOT, "loadavg before: %s; after: %s%n%n", loadBefore, load());
        System.out.println("| operation | Parcrypt µs | JDK µs (provider) | JDK / Parcrypt, wall | JDK / Parcrypt, thread CPU |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int o = 0; o < pairs.size(); o++) {
            List<double[]> ours = times.get(o).get(0);
            List<double[]> theirs = times.get(o).get(1);
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f (%s) | %.2f× | %.2f× |%n", pairs.get(o).name(),
                    median(ours, 0), median(theirs, 0), pairs.get(o).jdkProvider(),
                    ratio(ours, theirs, 0), ratio(ours, theirs, 1));
        }
    }
}
