import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.Signature;
import java.util.Arrays;

/**
 * One hedged SLH-DSA signature of a 1,000-byte message through the Parcrypt
 * provider (its default threads: every core), median wall-clock milliseconds
 * per signature over ROUNDS rounds of COUNT signatures, after a warm-up
 * round. {@code scripts/slhdsa_bindings.py} runs it beside the library, the
 * Python package and the CLI:
 *
 * <pre>
 * java -cp java/target/parcrypt-jca.jar java/bench/pq/SlhDsaSign.java SLH-DSA-SHA2-128F [ROUNDS [COUNT]]
 * </pre>
 *
 * Prints one line: {@code java SET MEDIAN_MS}.
 */
public final class SlhDsaSign {
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: SlhDsaSign SET [ROUNDS [COUNT]]");
            System.exit(2);
        }
        String set = args[0].toUpperCase();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Provider parcrypt = (Provider) Class.forName("dev.parcrypt.jca.ParcryptProvider")
                .getConstructor().newInstance();
        KeyPair kp = KeyPairGenerator.getInstance(set, parcrypt).generateKeyPair();
        byte[] msg = new byte[1000];
        new java.util.Random(1).nextBytes(msg);
        Signature signer = Signature.getInstance(set, parcrypt);
        double[] ms = new double[rounds];
        for (int r = -1; r < rounds; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < count; i++) {
                signer.initSign(kp.getPrivate());
                signer.update(msg);
                if (signer.sign().length == 0) {
                    throw new IllegalStateException("an empty signature");
                }
            }
            if (r >= 0) {
                ms[r] = (System.nanoTime() - t0) / 1e6 / count;
            }
        }
        Arrays.sort(ms);
        System.out.printf("java %s %.4f%n", set, ms[rounds / 2]);
    }
}
