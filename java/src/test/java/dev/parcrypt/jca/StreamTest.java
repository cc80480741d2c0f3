package dev.parcrypt.jca;

import static dev.parcrypt.jca.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StreamCorruptedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stream format from Java, exchanged with the parcrypt CLI both ways. */
class StreamTest {
    private static final int SIZE = 3 * TestSupport.MIB + 777;

    private static byte[] key(int seed) {
        byte[] k = new byte[32];
        new java.util.Random(seed).nextBytes(k);
        return k;
    }

    @Test
    void keyRoundTripAndMisuse(@TempDir Path dir) throws Exception {
        Path plain = dir.resolve("plain");
        Path sealed = dir.resolve("sealed.pc");
        Path opened = dir.resolve("opened");
        Files.write(plain, pattern(SIZE));
        ParcryptStream s = new ParcryptStream(2, "static", 1 << 16);
        assertEquals(SIZE, s.encryptWithKey(plain, sealed, key(1)));
        assertEquals(SIZE, ParcryptStream.DEFAULT.decryptWithKey(sealed, opened, key(1)));
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(opened));
        Path out = dir.resolve("never");
        assertThrows(InvalidKeyException.class, () -> s.decryptWithKey(sealed, out, key(2)));
        byte[] bytes = Files.readAllBytes(sealed);
        Path cut = dir.resolve("cut.pc");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        assertThrows(AEADBadTagException.class, () -> s.decryptWithKey(cut, out, key(1)));
        bytes[bytes.length / 2] ^= 1;
        Path flipped = dir.resolve("flipped.pc");
        Files.write(flipped, bytes);
        assertThrows(AEADBadTagException.class, () -> s.decryptWithKey(flipped, out, key(1)));
        assertThrows(StreamCorruptedException.class, () -> s.decryptWithKey(plain, out, key(1)));
        assertFalse(Files.exists(out), "a failed decryption leaves no output file");
        assertThrows(InvalidKeyException.class, () -> s.encryptWithKey(plain, out, new byte[16]));
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith(".parcrypt-")).count(),
                    "no temporary files left behind");
        }
    }

    /**
     * Secrets followed by an argument that fails: native code holds the key
     * and passphrase bytes in wiped buffers from the moment it reads them,
     * so these early returns wipe them too (not observable from here); what
     * is checked is that each is the right exception and leaves no file.
     */
    @Test
    void secretsThenABadArgumentAreRefused(@TempDir Path dir) throws Exception {
        Path plain = dir.resolve("plain");
        Files.write(plain, pattern(1000));
        String in = plain.toString();
        String out = dir.resolve("never").toString();
        byte[] pass = "correct horse".getBytes(StandardCharsets.UTF_8);
        // A passphrase, then a scrypt cost that is no u8.
        assertThrows(IllegalArgumentException.class,
                () -> Native.streamEncrypt(in, out, null, pass, null, 1 << 16, 300, 1, 0));
        // A key, then a segment size that is negative.
        assertThrows(IllegalArgumentException.class,
                () -> Native.streamEncrypt(in, out, key(1), null, null, -1, 18, 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> ParcryptStream.DEFAULT.encryptWithPassphrase(plain, Path.of(out), new char[0], 10));
        // Decryption: a key and a passphrase together; a key with a malformed
        // RSA key; a key, then a work factor that is no u8.
        assertThrows(IllegalArgumentException.class,
                () -> Native.streamDecrypt(in, out, key(1), pass, null, 20, 1, 0));
        assertThrows(InvalidKeyException.class,
                () -> Native.streamDecrypt(in, out, key(1), null, new byte[] {0x30, 0x03, 1, 2, 3}, 20, 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> Native.streamDecrypt(in, out, key(1), null, null, 999, 1, 0));
        assertThrows(InvalidKeyException.class,
                () -> Native.streamDecrypt(in, out, new byte[31], null, null, 20, 1, 0));
        assertFalse(Files.exists(Path.of(out)), "a refused call leaves no output file");
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith(".parcrypt-")).count(),
                    "no temporary files left behind");
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    @Test
    void exchangedWithTheCliBothWays(@TempDir Path dir) throws Exception {
        Path cli = Cli.require();
        Path plain = dir.resolve("plain");
        Files.write(plain, pattern(SIZE));
        Path keyFile = dir.resolve("key.bin");
        Files.write(keyFile, key(3));
        // CLI → Java (key file).
        Path byCli = dir.resolve("by-cli.pc");
        Cli.run(cli, "encrypt", "--key-file", keyFile.toString(), "-i", plain.toString(), "-o", byCli.toString());
        Path opened = dir.resolve("opened");
        ParcryptStream.DEFAULT.decryptWithKey(byCli, opened, key(3));
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(opened));
        // Java → CLI (key file).
        Path byJava = dir.resolve("by-java.pc");
        new ParcryptStream(3, "steal", 1 << 12).encryptWithKey(plain, byJava, key(3));
        Path cliOpened = dir.resolve("cli-opened");
        Cli.run(cli, "decrypt", "--key-file", keyFile.toString(), "-i", byJava.toString(), "-o", cliOpened.toString());
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(cliOpened));
        // RSA recipients, keys from this provider and from SunRsaSign, both ways.
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", TestSupport.PARCRYPT);
        g.initialize(2048);
        KeyPair ours = g.generateKeyPair();
        KeyPair theirs = KeyPairGenerator.getInstance("RSA", TestSupport.jdk("SunRsaSign")).generateKeyPair();
        Path pub = dir.resolve("pub.pem");
        Files.writeString(pub, pem("PUBLIC KEY", ours.getPublic().getEncoded()));
        Path id = dir.resolve("id.pem");
        Files.writeString(id, pem("PRIVATE KEY", ours.getPrivate().getEncoded()));
        Path forRsa = dir.resolve("rsa.pc");
        ParcryptStream.DEFAULT.encryptForRecipients(plain, forRsa, theirs.getPublic(), ours.getPublic());
        Path rsaOpened = dir.resolve("rsa-opened");
        Cli.run(cli, "decrypt", "--identity", id.toString(), "-i", forRsa.toString(), "-o", rsaOpened.toString());
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(rsaOpened));
        Path javaOpened = dir.resolve("java-rsa-opened");
        ParcryptStream.DEFAULT.decryptWithPrivateKey(forRsa, javaOpened, theirs.getPrivate());
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(javaOpened));
        Path cliRsa = dir.resolve("cli-rsa.pc");
        Cli.run(cli, "encrypt", "--recipient", pub.toString(), "-i", plain.toString(), "-o", cliRsa.toString());
        Path fromCliRsa = dir.resolve("from-cli-rsa");
        ParcryptStream.DEFAULT.decryptWithPrivateKey(cliRsa, fromCliRsa, ours.getPrivate());
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(fromCliRsa));
        // A passphrase (cheap scrypt cost for the test), Java → CLI.
        Path passFile = dir.resolve("pass.txt");
        Files.writeString(passFile, "correct horse\n");
        Path byPass = dir.resolve("pass.pc");
        ParcryptStream.DEFAULT.encryptWithPassphrase(plain, byPass, "correct horse".toCharArray(), 10);
        Path passOpened = dir.resolve("pass-opened");
        Cli.run(cli, "decrypt", "--passphrase-file", passFile.toString(), "-i", byPass.toString(), "-o",
                passOpened.toString());
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(passOpened));
        Path javaPass = dir.resolve("java-pass");
        ParcryptStream.DEFAULT.decryptWithPassphrase(byPass, javaPass, "correct horse".toCharArray(), 20);
        assertArrayEquals(pattern(SIZE), Files.readAllBytes(javaPass));
    }
}
