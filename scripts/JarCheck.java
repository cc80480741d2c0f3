import dev.parcrypt.jca.ParcryptProvider;
import java.security.Security;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a released jar (scripts/dist.py, .ci/run) from outside the build:
 * it names the platforms it carries (every one given as an argument must be
 * there), loads its native library on this machine, and seals a message with
 * AES-256-GCM that the JDK's own provider opens.
 *
 * <pre>java -cp dist/parcrypt-jca-VERSION.jar scripts/JarCheck.java linux-x86_64 linux-aarch64</pre>
 */
public final class JarCheck {
    public static void main(String[] args) throws Exception {
        List<String> carried = ParcryptProvider.nativePlatforms();
        System.out.println("jar carries native libraries for: " + String.join(", ", carried));
        for (String want : args) {
            if (!carried.contains(want)) {
                throw new AssertionError("the jar carries no native library for " + want);
            }
        }
        Security.addProvider(new ParcryptProvider());
        byte[] key = new byte[32];
        byte[] nonce = new byte[12];
        byte[] message = new byte[3 << 20];
        for (int i = 0; i < message.length; i++) {
            message[i] = (byte) (i % 251);
        }
        SecretKeySpec spec = new SecretKeySpec(key, "AES");
        Cipher seal = Cipher.getInstance("AES/GCM/NoPadding", ParcryptProvider.NAME);
        seal.init(Cipher.ENCRYPT_MODE, spec, new GCMParameterSpec(128, nonce));
        byte[] sealed = seal.doFinal(message);
        Cipher open = Cipher.getInstance("AES/GCM/NoPadding", "SunJCE");
        open.init(Cipher.DECRYPT_MODE, spec, new GCMParameterSpec(128, nonce));
        if (!Arrays.equals(open.doFinal(sealed), message)) {
            throw new AssertionError("SunJCE opened something else than Parcrypt sealed");
        }
        System.out.println("loaded on " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                + ": AES-256-GCM of 3 MiB sealed by Parcrypt, opened by SunJCE");
    }
}
