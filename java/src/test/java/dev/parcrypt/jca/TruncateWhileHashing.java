package dev.parcrypt.jca;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@code MerkleTest.hashFileOfAFileTruncatedMeanwhileThrowsOrHashes}:
 * hashes the file {@code args[0]} in the format {@code args[1]} while a thread
 * truncates it to 3 bytes {@code args[2]} nanoseconds after hashing starts.
 * Prints {@code hash <hex>} or {@code io <message>} and exits 0; a crash
 * (SIGBUS from a mapped page that is gone) ends it by a signal instead.
 */
final class TruncateWhileHashing {
    private TruncateWhileHashing() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        ParcryptMerkle.FileFormat format = ParcryptMerkle.FileFormat.valueOf(args[1]);
        long delayNanos = Long.parseLong(args[2]);
        // Load the native library first, so the delay is spent hashing.
        ParcryptMerkle.rfc6962LeafHash(new byte[1]);
        Thread truncator = new Thread(() -> {
            LockSupport.parkNanos(delayNanos);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(3);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        truncator.start();
        String result;
        try {
            result = "hash " + TestSupport.hex(ParcryptMerkle.DEFAULT.hashFile(file, format, 4096));
        } catch (IOException e) {
            result = "io " + e.getMessage();
        }
        truncator.join();
        System.out.println(result);
    }
}
