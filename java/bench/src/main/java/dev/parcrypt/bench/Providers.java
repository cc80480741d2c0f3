package dev.parcrypt.bench;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import dev.parcrypt.jca.ParcryptProvider;
import java.security.Provider;
import java.security.Security;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The providers a benchmark's {@code provider} parameter names.
 *
 * <ul>
 *   <li>{@code Parcrypt}: every core, work stealing (the provider's default);
 *   <li>{@code Parcrypt-seq}: one thread, sequential (the JCE paper's baseline);
 *   <li>{@code Parcrypt-static2}, {@code Parcrypt-steal2}: two threads (the paper's cores);
 *   <li>{@code JDK}: SunJCE for ciphers, SunRsaSign for RSA, SunEC for EC;
 *   <li>{@code BC}: BouncyCastle; {@code ACCP}: Amazon Corretto Crypto Provider.
 * </ul>
 */
final class Providers {
    private Providers() {}

    /** What kind of service a benchmark asks for, so {@code JDK} can pick its provider. */
    enum Kind {
        CIPHER,
        RSA,
        EC
    }

    static Provider get(String name, Kind kind) {
        switch (name) {
            case "Parcrypt":
                return new ParcryptProvider(0, "steal");
            case "Parcrypt-seq":
                return new ParcryptProvider(1, "seq");
            case "Parcrypt-static2":
                return new ParcryptProvider(2, "static");
            case "Parcrypt-steal2":
                return new ParcryptProvider(2, "steal");
            case "JDK":
                return Security.getProvider(kind == Kind.CIPHER ? "SunJCE" : kind == Kind.RSA ? "SunRsaSign" : "SunEC");
            case "BC":
                return new BouncyCastleProvider();
            case "ACCP":
                AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
                accp.assertHealthy();
                return accp;
            default:
                throw new IllegalArgumentException("unknown provider " + name);
        }
    }
}
