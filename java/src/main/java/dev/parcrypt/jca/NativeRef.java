package dev.parcrypt.jca;

import java.lang.ref.Cleaner;
import java.util.function.LongConsumer;

/**
 * Owns one native handle and frees it exactly once: on {@link #close()} (as
 * soon as no call is using it) or when the owner becomes unreachable (a
 * {@link Cleaner}).
 *
 * <p>Use: {@code long h = ref.acquire(); try { Native.op(h, ...); } finally {
 * ref.release(); }} (or {@code ref.call(h -> Native.op(h, ...))}) — a handle
 * in use is never freed, even if another thread closes the object meanwhile,
 * and {@code release()} keeps the owner reachable until the native call has
 * returned.
 */
final class NativeRef implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    private static final class State implements Runnable {
        private long handle;
        private int users;
        private boolean closing;
        private final LongConsumer free;

        State(long handle, LongConsumer free) {
            this.handle = handle;
            this.free = free;
        }

        @Override
        public void run() {
            long h;
            synchronized (this) {
                closing = true;
                if (users > 0 || handle == 0) {
                    return;
                }
                h = handle;
                handle = 0;
            }
            free.accept(h);
        }

        synchronized long acquire() {
            if (handle == 0 || closing) {
                throw new IllegalStateException("the native object was already released");
            }
            users++;
            return handle;
        }

        void release() {
            long h;
            synchronized (this) {
                users--;
                if (!closing || users > 0 || handle == 0) {
                    return;
                }
                h = handle;
                handle = 0;
            }
            free.accept(h);
        }
    }

    private final State state;
    private final Cleaner.Cleanable cleanable;

    NativeRef(long handle, LongConsumer free) {
        this.state = new State(handle, free);
        this.cleanable = CLEANER.register(this, state);
    }

    long acquire() {
        return state.acquire();
    }

    void release() {
        state.release();
        java.lang.ref.Reference.reachabilityFence(this);
    }

    /** A native call on a handle, which may throw {@code E}. */
    @FunctionalInterface
    interface Call<T, E extends Exception> {
        T on(long handle) throws E;
    }

    /** {@code call} on the handle, acquired for its length. */
    <T, E extends Exception> T call(Call<T, E> call) throws E {
        long h = acquire();
        try {
            return call.on(h);
        } finally {
            release();
        }
    }

    @Override
    public void close() {
        cleanable.clean();
    }
}
