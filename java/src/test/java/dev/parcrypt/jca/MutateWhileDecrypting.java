package dev.parcrypt.jca;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Random;

/**
 * The child JVM of {@code ReadOnceTest}: decrypts one message {@code CALLS}
 * times from a {@code byte[]} or a direct {@code ByteBuffer} whose bytes a
 * second thread keeps flipping (one byte near the end of every chunk,
 * flipped and at once flipped back, so that most calls see the message as
 * sealed), and prints {@code plaintext P error E wrong W}: calls that
 * returned the original plaintext, that threw the authentication error,
 * and that returned anything else (which must never happen). Run as the
 * CPU is and with {@code PARCRYPT_CPU_MASK=x86-64-v3} (see the test).
 *
 * <p>{@code args}: the case ({@code cobDecrypt}, {@code cobRange},
 * {@code cobUpdate}, {@code gcmArray}, {@code gcmDirect}) and the threads.
 */
final class MutateWhileDecrypting {
    static final int CALLS = 1000;
    private static final int HEADER = ParcryptCobblestone.HEADER;
    private static final int CHUNK = ParcryptCobblestone.CHUNK;
    private static final int SEALED = ParcryptCobblestone.SEALED_CHUNK;
    /** The flipped byte: this many bytes before a chunk's tag (even: see {@link DirectFlipper}). */
    private static final int BACK = 30;
    private static final int SIZE = 2 * TestSupport.MIB + 1000;
    private static final byte[] KEY = new byte[16];
    private static final byte[] CONTEXT = "read once".getBytes(StandardCharsets.US_ASCII);
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);
    private static final VarHandle SHORTS = MethodHandles.byteBufferViewVarHandle(short[].class,
            ByteOrder.nativeOrder());

    private MutateWhileDecrypting() {}

    /** Flips {@code at[i]} and back in a loop until stopped. */
    private abstract static class Flipper extends Thread {
        final int[] at;
        volatile boolean running = true;

        Flipper(int[] at) {
            this.at = at;
            setDaemon(true);
        }

        abstract void flipTwice(int i);

        @Override
        public void run() {
            while (running) {
                for (int i : at) {
                    flipTwice(i);
                }
            }
        }

        void finish() throws InterruptedException {
            running = false;
            join();
        }
    }

    /** On a {@code byte[]}: opaque accesses, which the JIT keeps as written. */
    private static final class ArrayFlipper extends Flipper {
        final byte[] a;

        ArrayFlipper(byte[] a, int[] at) {
            super(at);
            this.a = a;
        }

        @Override
        void flipTwice(int i) {
            BYTES.setOpaque(a, i, (byte) ((byte) BYTES.getOpaque(a, i) ^ 1));
            BYTES.setOpaque(a, i, (byte) ((byte) BYTES.getOpaque(a, i) ^ 1));
        }
    }

    /** On a direct buffer: opaque accesses to the aligned short holding the byte. */
    private static final class DirectFlipper extends Flipper {
        final ByteBuffer b;

        DirectFlipper(ByteBuffer b, int[] at) {
            super(at);
            this.b = b;
        }

        @Override
        void flipTwice(int i) {
            int even = i & ~1;
            short bit = (short) ((ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) == (i == even) ? 1 : 0x100);
            SHORTS.setOpaque(b, even, (short) ((short) SHORTS.getOpaque(b, even) ^ bit));
            SHORTS.setOpaque(b, even, (short) ((short) SHORTS.getOpaque(b, even) ^ bit));
        }
    }

    /** One byte in every stride-long chunk from {@code first}, below {@code end}. */
    private static int[] positions(int first, int stride, int end) {
        return java.util.stream.IntStream.iterate(first, p -> p < end, p -> p + stride).toArray();
    }

    public static void main(String[] args) throws Exception {
        String what = args[0];
        int threads = Integer.parseInt(args[1]);
        byte[] plain = new byte[SIZE];
        new Random(7).nextBytes(plain);
        int steal = ParcryptProvider.strategyCode("steal");
        int plainCount = 0;
        int errors = 0;
        int wrong = 0;
        if (what.startsWith("cob")) {
            ParcryptCobblestone cob = new ParcryptCobblestone(threads);
            byte[] sealed = cob.encrypt(plain, KEY, CONTEXT);
            byte[] shared = sealed.clone();
            Flipper f = new ArrayFlipper(shared, positions(HEADER + CHUNK - BACK, SEALED, sealed.length));
            f.start();
            for (int n = 0; n < CALLS; n++) {
                byte[] got;
                try {
                    switch (what) {
                        case "cobDecrypt":
                            got = cob.decrypt(shared, KEY, CONTEXT);
                            break;
                        case "cobRange":
                            got = cob.decryptRange(shared, 0, SIZE, KEY, CONTEXT);
                            break;
                        case "cobUpdate":
                            got = update(shared, threads, steal);
                            break;
                        default:
                            throw new IllegalArgumentException(what);
                    }
                } catch (GeneralSecurityException e) {
                    errors++;
                    continue;
                }
                if (Arrays.equals(got, plain)) {
                    plainCount++;
                } else {
                    wrong++;
                }
            }
            f.finish();
            if (!Arrays.equals(shared, sealed)) {
                throw new AssertionError("the flipper left the message changed");
            }
        } else {
            long h = Native.gcmNew(new byte[32]);
            try {
                byte[] sealed = new byte[SIZE + 16];
                Native.gcmSeal(h, 0L, 0, null, plain, 0, SIZE, sealed, 0, threads, steal);
                int[] at = positions(CHUNK - BACK, CHUNK, SIZE);
                byte[] out = new byte[SIZE];
                ByteBuffer direct = ByteBuffer.allocateDirect(SIZE + 16).put(sealed).flip();
                ByteBuffer directOut = ByteBuffer.allocateDirect(SIZE);
                byte[] shared = sealed.clone();
                Flipper f = what.equals("gcmArray") ? new ArrayFlipper(shared, at) : new DirectFlipper(direct, at);
                f.start();
                for (int n = 0; n < CALLS; n++) {
                    byte[] got = out;
                    try {
                        if (what.equals("gcmArray")) {
                            Native.gcmOpen(h, 0L, 0, null, shared, 0, SIZE + 16, out, 0, threads, steal);
                        } else {
                            Native.gcmOpenDirect(h, 0L, 0, null, direct, 0, SIZE + 16, directOut, 0, threads, steal);
                            directOut.clear();
                            directOut.get(got);
                            directOut.clear();
                        }
                    } catch (GeneralSecurityException e) {
                        errors++;
                        continue;
                    }
                    if (Arrays.equals(got, plain)) {
                        plainCount++;
                    } else {
                        wrong++;
                    }
                }
                f.finish();
            } finally {
                Native.gcmFree(h);
            }
        }
        System.out.println("plaintext " + plainCount + " error " + errors + " wrong " + wrong);
    }

    /** The push decryptor's native calls on the whole of {@code sealed}, as the decrypting stream makes them. */
    private static byte[] update(byte[] sealed, int threads, int strategy) throws GeneralSecurityException {
        long h = Native.cobDecryptorNew(0, 0, KEY, CONTEXT, threads, strategy);
        try {
            byte[] out = new byte[Native.cobDecryptorUpdateLen(h, sealed.length)];
            int n = Native.cobDecryptorUpdate(h, sealed, 0, sealed.length, out, 0);
            byte[] last = Native.cobDecryptorFinish(h);
            byte[] all = Arrays.copyOf(out, n + last.length);
            System.arraycopy(last, 0, all, n, last.length);
            return all;
        } finally {
            Native.cobDecryptorFree(h);
        }
    }
}
