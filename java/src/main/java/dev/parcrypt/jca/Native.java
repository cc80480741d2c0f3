package dev.parcrypt.jca;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.SignatureException;
import javax.crypto.AEADBadTagException;
import javax.crypto.BadPaddingException;
import javax.crypto.IllegalBlockSizeException;

/**
 * The JNI entry points of {@code libparcrypt_jni} (the crate {@code java/native}).
 *
 * <p>Every method either returns or throws the exception the JCA names for the
 * failure; none can crash the JVM (the native side catches panics). Handles
 * ({@code long}) are owned by {@link NativeRef}s. Parallel arguments: {@code
 * threads} ≤ 0 is every core, {@code strategy} 0 = seq, 1 = static, 2 = steal.
 */
final class Native {
    static {
        NativeLoader.load();
    }

    private Native() {}

    // AES-GCM. The nonce is two primitives, its bytes 0-7 and 8-11 big-endian
    // (no array to read per message).
    static native long gcmNew(byte[] key) throws InvalidKeyException;
    static native void gcmFree(long h);
    static native int gcmSeal(long h, long nonceHead, int nonceTail, byte[] aad, byte[] in, int inOff, int len,
            byte[] out, int outOff, int threads, int strategy);
    static native int gcmOpen(long h, long nonceHead, int nonceTail, byte[] aad, byte[] in, int inOff, int len,
            byte[] out, int outOff, int threads, int strategy) throws AEADBadTagException;
    static native int gcmSealDirect(long h, long nonceHead, int nonceTail, byte[] aad, ByteBuffer in, int inPos, int len,
            ByteBuffer out, int outPos, int threads, int strategy);
    static native int gcmOpenDirect(long h, long nonceHead, int nonceTail, byte[] aad, ByteBuffer in, int inPos, int len,
            ByteBuffer out, int outPos, int threads, int strategy) throws AEADBadTagException;

    // AES-CTR, AES-CBC (PKCS#7): mode 0 = CTR, 1 = CBC encrypt, 2 = CBC decrypt
    static native long crypterNew(int mode, byte[] key, byte[] iv) throws InvalidKeyException, InvalidAlgorithmParameterException;
    static native void crypterFree(long h);
    static native int crypterUpdateLen(long h, int len);
    static native int crypterUpdate(long h, byte[] in, int inOff, int len, byte[] out, int outOff,
            int threads, int strategy);
    static native byte[] crypterFinish(long h) throws IllegalBlockSizeException, BadPaddingException;

    // Hashes: 1 = SHA-1, 256, 384, 512
    static native long hasherNew(int hash);
    static native void hasherFree(long h);
    static native void hasherUpdate(long h, byte[] in, int off, int len);
    static native byte[] hasherFinish(long h);

    // RSA: scheme 0 = PSS, 1 = PKCS#1 v1.5
    static native byte[] rsaGenerate(int bits, int threads, int strategy) throws InvalidAlgorithmParameterException;
    static native long rsaPrivateLoad(byte[] der) throws InvalidKeyException;
    static native long rsaPublicLoad(byte[] der) throws InvalidKeyException;
    static native void rsaPrivateFree(long h);
    static native void rsaPublicFree(long h);
    /** what: 0 = PKCS#8, 1 = PKCS#1, 2 = the public key's SPKI. */
    static native byte[] rsaPrivateEncode(long h, int what);
    /** what: 0 = SPKI, 1 = PKCS#1. */
    static native byte[] rsaPublicEncode(long h, int what);
    static native byte[] rsaSignDigest(long h, int scheme, int hash, byte[] digest, int threads, int strategy) throws SignatureException;
    static native boolean rsaVerifyDigest(long h, int scheme, int hash, byte[] digest, byte[] sig, int saltLen) throws SignatureException;
    static native byte[] rsaEncryptOaep(long h, byte[] msg, int hash, int mgf1, byte[] label) throws IllegalBlockSizeException;
    static native byte[] rsaDecryptOaep(long h, byte[] ct, int hash, int mgf1, byte[] label, int threads, int strategy) throws BadPaddingException;
    static native int rsaBits(long h, boolean isPrivate);

    // ECDSA P-256: format 0 = DER, 1 = P1363
    static native byte[] pkcs8Decrypt(byte[] encrypted, byte[] password) throws InvalidKeyException;
    static native byte[] pkcs8Encrypt(byte[] key, byte[] password, int cipher, int iterations)
            throws InvalidAlgorithmParameterException;

    static native byte[] ecGenerate();
    static native long ecPrivateLoad(byte[] der) throws InvalidKeyException;
    static native long ecPublicLoad(byte[] der) throws InvalidKeyException;
    static native void ecPrivateFree(long h);
    static native void ecPublicFree(long h);
    /** what: 0 = PKCS#8, 1 = the public key's SPKI. */
    static native byte[] ecPrivateEncode(long h, int what);
    static native byte[] ecSignDigest(long h, byte[] digest, int format) throws SignatureException;
    static native boolean ecVerifyDigest(long h, byte[] digest, byte[] sig, int format) throws SignatureException;
    static native boolean[] ecVerifyBatch(byte[][] spkis, byte[][] messages, byte[][] sigs, int format,
            int threads, int strategy) throws InvalidKeyException;

    // ML-DSA (family 0) and SLH-DSA (family 1); set: the parameter set's name
    static native long sigGenerate(int family, String set, int threads, int strategy)
            throws InvalidAlgorithmParameterException;
    /** SLH-DSA rebuilds the key's top tree on {@code threads}; ML-DSA ignores them. */
    static native long sigPrivateLoad(int family, byte[] der, int threads, int strategy) throws InvalidKeyException;
    static native long sigPublicLoad(int family, byte[] der) throws InvalidKeyException;
    /** The public key of private key {@code h}, as a public key handle (shared, not parsed again). */
    static native long sigPublicOf(long h);
    static native void sigPrivateFree(long h);
    static native void sigPublicFree(long h);
    /** what: 0 = PKCS#8, 2 = the raw expanded key (ML-DSA). */
    static native byte[] sigPrivateEncode(long h, int what);
    /** what: 0 = SPKI. */
    static native byte[] sigPublicEncode(long h, int what);
    static native byte[] sigSign(long h, byte[] message, byte[] context, boolean deterministic, int threads,
            int strategy) throws SignatureException;
    static native boolean sigVerify(long h, byte[] message, byte[] sig, byte[] context) throws SignatureException;
    static native byte[][] sigSignBatch(long h, byte[][] messages, byte[] context, boolean deterministic,
            int threads, int strategy) throws SignatureException;
    static native boolean[] sigVerifyBatch(int family, byte[][] spkis, byte[][] messages, byte[][] sigs,
            byte[] context, int threads, int strategy) throws InvalidKeyException;

    // ML-KEM
    static native long kemGenerate(String set) throws InvalidAlgorithmParameterException;
    static native long kemPrivateLoad(byte[] der) throws InvalidKeyException;
    static native long kemPublicLoad(byte[] der) throws InvalidKeyException;
    /** The public key of private key {@code h}, as a public key handle (shared, not checked again). */
    static native long kemPublicOf(long h);
    static native void kemPrivateFree(long h);
    static native void kemPublicFree(long h);
    /** what: 0 = PKCS#8, 2 = the raw expanded key. */
    static native byte[] kemPrivateEncode(long h, int what);
    /** what: 0 = SPKI. */
    static native byte[] kemPublicEncode(long h, int what);
    /** The ciphertext followed by the 32-byte shared secret. */
    static native byte[] kemEncapsulate(long h);
    /** The shared secret; a ciphertext of the wrong length throws javax.crypto.DecapsulateException (Java 21+). */
    static native byte[] kemDecapsulate(long h, byte[] ciphertext);

    // Merkle
    static native byte[] merkleRoot(byte[][] leaves, int threads, int strategy);
    static native byte[] merkleRootChunks(byte[] array, ByteBuffer buffer, int off, int len, int leafSize,
            int threads, int strategy);
    static native byte[][] merkleInclusionProof(byte[][] leaves, long index, int threads, int strategy);
    static native byte[][] merkleConsistencyProof(byte[][] leaves, long oldSize, long newSize, int threads,
            int strategy);
    static native boolean merkleVerifyInclusion(byte[] leafHash, long index, long size, byte[][] proof, byte[] root);
    static native boolean merkleVerifyConsistency(long oldSize, long newSize, byte[] oldRoot, byte[] newRoot,
            byte[][] proof);
    static native byte[] merkleLeafHash(byte[] data);
    static native byte[][] merkleBitTorrentV2(byte[] array, ByteBuffer buffer, int off, int len, long pieceLength,
            int threads, int strategy);
    static native byte[] merkleGlacier(byte[] array, ByteBuffer buffer, int off, int len, int threads, int strategy);
    static native byte[] merkleHashFile(String path, int format, int leafSize, int threads, int strategy) throws IOException;

    // stream
    static native long streamEncrypt(String in, String out, byte[] key, byte[] passphrase, byte[][] rsaSpkis,
            int segmentSize, int log2n, int threads, int strategy) throws IOException, GeneralSecurityException;
    static native long streamDecrypt(String in, String out, byte[] key, byte[] passphrase, byte[] rsaPkcs8,
            int maxWorkFactor, int threads, int strategy) throws IOException, GeneralSecurityException;

    // C2SP chunked-encryption / Cobblestone: kdf 0 = Cobblestone picked by the
    // key's length (16: -128, 32: -256); 256 / 512 = the generic scheme with
    // aead 0 = AES-128-GCM, 1 = AES-256-GCM, 2 = ChaCha20-Poly1305. salt: null
    // for a fresh random one (a fixed one for tests only).
    static native byte[] cobEncrypt(int kdf, int aead, byte[] key, byte[] context, byte[] salt, byte[] in, int threads,
            int strategy) throws GeneralSecurityException;
    static native byte[] cobDecrypt(int kdf, int aead, byte[] key, byte[] context, byte[] in, int threads,
            int strategy) throws GeneralSecurityException;
    static native long cobEncryptFile(int kdf, int aead, byte[] key, byte[] context, byte[] salt, String in, String out,
            int threads, int strategy) throws IOException, GeneralSecurityException;
    static native long cobDecryptFile(int kdf, int aead, byte[] key, byte[] context, String in, String out,
            int threads, int strategy) throws IOException, GeneralSecurityException;
    static native byte[] cobDecryptRange(int kdf, int aead, byte[] key, byte[] context, String in, long offset,
            int length, int threads, int strategy) throws IOException, GeneralSecurityException;
    static native byte[] cobDecryptRangeBytes(int kdf, int aead, byte[] key, byte[] context, byte[] in, long offset,
            int length, int threads, int strategy) throws GeneralSecurityException;
    static native long cobEncryptorNew(int kdf, int aead, byte[] key, byte[] context, byte[] salt, int threads, int strategy)
            throws GeneralSecurityException;
    static native void cobEncryptorFree(long h);
    static native int cobEncryptorUpdateLen(long h, int len);
    static native int cobEncryptorUpdate(long h, byte[] in, int inOff, int len, byte[] out, int outOff)
            throws GeneralSecurityException;
    static native byte[] cobEncryptorFinish(long h) throws GeneralSecurityException;
    static native long cobDecryptorNew(int kdf, int aead, byte[] key, byte[] context, int threads, int strategy)
            throws GeneralSecurityException;
    static native void cobDecryptorFree(long h);
    static native int cobDecryptorUpdateLen(long h, int len);
    static native int cobDecryptorUpdate(long h, byte[] in, int inOff, int len, byte[] out, int outOff)
            throws GeneralSecurityException;
    static native byte[] cobDecryptorFinish(long h) throws GeneralSecurityException;

    /** Panics in native code on purpose (tests: it must arrive as a ProviderException). */
    static native int panicForTest();
}
