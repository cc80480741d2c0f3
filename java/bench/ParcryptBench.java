import dev.parcrypt.jca.ParcryptEcdsa;
import dev.parcrypt.jca.ParcryptProvider;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A small timing harness (not JMH): Parcrypt against the JDK's providers for
 * AES-256-GCM of 64 MiB, RSA-2048 key generation and a batch of 1,024 ECDSA
 * P-256 verifications. Medians (and p90 for key generation) after warm-up.
 * On a shared or busy machine the numbers are noisy: compare within one run.
 *
 * <pre>
 * cd java &amp;&amp; mvn -q package -DskipTests
 * java -cp target/parcrypt-jca.jar bench/ParcryptBench.java [repeats]
 * </pre>
 */
public class ParcryptBench {
    interface Op {
        void run() throws Exception;
    }

    static double[] time(int warmup, int repeats, Op op) throws Exception {
        for (int i = 0; i < warmup; i++) {
            op.run();
        }
        double[] ms = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            long t = System.nanoTime();
            op.run();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        return ms;
    }

    static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }

    static double p90(double[] sorted) {
        return sorted[(int) Math.ceil(0.9 * sorted.length) - 1];
    }

    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        ParcryptProvider parcrypt = new ParcryptProvider();
        Provider sunJce = Security.getProvider("SunJCE");
        Provider sunRsa = Security.getProvider("SunRsaSign");
        Provider sunEc = Security.getProvider("SunEC");
        System.out.printf("Java %s, %d cores available; Parcrypt threads=%s strategy=%s; repeats %d%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                parcrypt.threads() == 0 ? "all" : parcrypt.threads(), parcrypt.strategy(), repeats);

        int size = 64 << 20;
        byte[] msg = new byte[size];
        new java.util.Random(1).nextBytes(msg);
        SecretKeySpec key = new SecretKeySpec(new byte[32], "AES");
        byte[] ct = null;
        for (Provider p : new Provider[] {parcrypt, sunJce}) {
            int[] n = {0};
            double[] enc = time(2, repeats, () -> {
                Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
                byte[] nonce = new byte[12];
                nonce[0] = (byte) n[0]++;
                nonce[1] = (byte) (n[0] >> 8);
                c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
                c.doFinal(msg);
            });
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, new byte[12]));
            byte[] sealed = c.doFinal(msg);
            if (ct != null && !Arrays.equals(ct, sealed)) {
                throw new AssertionError("providers disagree");
            }
            ct = sealed;
            double[] dec = time(2, repeats, () -> {
                Cipher d = Cipher.getInstance("AES/GCM/NoPadding", p);
                d.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, new byte[12]));
                d.doFinal(sealed);
            });
            System.out.printf("AES-256-GCM 64 MiB  %-10s encrypt %8.1f ms (%5.2f GB/s)  decrypt %8.1f ms (%5.2f GB/s)%n",
                    p.getName(), median(enc), size / median(enc) / 1e6, median(dec), size / median(dec) / 1e6);
        }

        for (Provider p : new Provider[] {parcrypt, sunRsa}) {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", p);
            g.initialize(2048);
            double[] t = time(2, Math.max(repeats, 15), g::generateKeyPair);
            System.out.printf("RSA-2048 keygen     %-10s median %8.1f ms  p90 %8.1f ms%n", p.getName(), median(t), p90(t));
        }

        int batch = 1024;
        KeyPairGenerator eg = KeyPairGenerator.getInstance("EC", sunEc);
        KeyPair kp = eg.generateKeyPair();
        PublicKey[] keys = new PublicKey[batch];
        byte[][] msgs = new byte[batch][];
        byte[][] sigs = new byte[batch][];
        Signature signer = Signature.getInstance("SHA256withECDSA", sunEc);
        signer.initSign(kp.getPrivate());
        for (int i = 0; i < batch; i++) {
            keys[i] = kp.getPublic();
            msgs[i] = ("message " + i).getBytes();
            signer.update(msgs[i]);
            sigs[i] = signer.sign();
        }
        double[] b = time(3, repeats, () -> {
            for (boolean ok : ParcryptEcdsa.verifyBatch(keys, msgs, sigs)) {
                if (!ok) {
                    throw new AssertionError();
                }
            }
        });
        System.out.printf("ECDSA P-256 verify x%d  Parcrypt verifyBatch %8.2f ms%n", batch, median(b));
        for (Provider p : new Provider[] {parcrypt, sunEc}) {
            double[] loop = time(3, repeats, () -> {
                Signature v = Signature.getInstance("SHA256withECDSA", p);
                v.initVerify(kp.getPublic());
                for (int i = 0; i < batch; i++) {
                    v.update(msgs[i]);
                    if (!v.verify(sigs[i])) {
                        throw new AssertionError();
                    }
                }
            });
            System.out.printf("ECDSA P-256 verify x%d  %-10s loop     %8.2f ms%n", batch, p.getName(), median(loop));
        }
    }
}
