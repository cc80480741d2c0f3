package dev.parcrypt.jca;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.interfaces.ECKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECField;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.EllipticCurve;
import java.util.Arrays;

/** P-256 keys of this provider, and the conversion of anyone's P-256 keys to native ones. */
final class EcKeys {
    private EcKeys() {}

    private static BigInteger h(String hex) {
        return new BigInteger(hex, 16);
    }

    /** secp256r1 (NIST P-256, SEC 2 §2.4.2). */
    static final ECParameterSpec P256 = new ECParameterSpec(
            new EllipticCurve(
                    new ECFieldFp(h("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")),
                    h("ffffffff00000001000000000000000000000000fffffffffffffffffffffffc"),
                    h("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b")),
            new ECPoint(h("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"),
                    h("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")),
            h("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
            1);

    /** SPKI of a P-256 point: this prefix, then 04 ‖ x ‖ y. */
    private static final byte[] SPKI_PREFIX = Hex.unhex(
            "3059301306072a8648ce3d020106082a8648ce3d030107034200");
    /** PKCS#8 of a P-256 scalar without the public point: this prefix, then the 32-byte scalar. */
    private static final byte[] PKCS8_PREFIX = Hex.unhex(
            "3041020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420");

    /** True if {@code spec} is P-256 (compared by value, whichever provider made it). */
    static boolean isP256(ECParameterSpec spec) {
        if (spec == null) {
            return false;
        }
        ECField field = spec.getCurve().getField();
        return field instanceof ECFieldFp
                && ((ECFieldFp) field).getP().equals(((ECFieldFp) P256.getCurve().getField()).getP())
                && spec.getCurve().getA().equals(P256.getCurve().getA())
                && spec.getCurve().getB().equals(P256.getCurve().getB())
                && spec.getGenerator().equals(P256.getGenerator())
                && spec.getOrder().equals(P256.getOrder())
                && spec.getCofactor() == 1;
    }

    static byte[] spkiOf(ECPoint w) {
        byte[] out = Arrays.copyOf(SPKI_PREFIX, SPKI_PREFIX.length + 65);
        out[SPKI_PREFIX.length] = 4;
        System.arraycopy(Der.fixed(w.getAffineX(), 32), 0, out, SPKI_PREFIX.length + 1, 32);
        System.arraycopy(Der.fixed(w.getAffineY(), 32), 0, out, SPKI_PREFIX.length + 33, 32);
        return out;
    }

    static byte[] pkcs8Of(BigInteger s) {
        byte[] out = Arrays.copyOf(PKCS8_PREFIX, PKCS8_PREFIX.length + 32);
        byte[] scalar = Der.fixed(s, 32);
        System.arraycopy(scalar, 0, out, PKCS8_PREFIX.length, 32);
        Arrays.fill(scalar, (byte) 0);
        return out;
    }

    /** A P-256 public key: SPKI encoding and a native handle. */
    static final class Public extends NativeKey implements ECPublicKey {
        private static final long serialVersionUID = 1L;
        private final byte[] spki;
        private final ECPoint w;

        Public(byte[] der) throws InvalidKeyException {
            super("EC", "X.509", new NativeRef(Native.ecPublicLoad(der), Native::ecPublicFree));
            // The native parser accepted it as a P-256 SPKI: the point is the BIT STRING's 65 bytes.
            Der spkiSeq = new Der(der).next(0x30);
            spkiSeq.next(0x30);
            byte[] bits = spkiSeq.next(0x03).rest();
            if (bits.length != 66 || bits[1] != 4) {
                throw new InvalidKeyException("expected an uncompressed P-256 point");
            }
            this.spki = spkiOf(new ECPoint(new BigInteger(1, Arrays.copyOfRange(bits, 2, 34)),
                    new BigInteger(1, Arrays.copyOfRange(bits, 34, 66))));
            this.w = new ECPoint(new BigInteger(1, Arrays.copyOfRange(bits, 2, 34)),
                    new BigInteger(1, Arrays.copyOfRange(bits, 34, 66)));
        }

        @Override
        byte[] encoding() {
            return spki;
        }

        @Override
        public ECPoint getW() {
            return w;
        }

        @Override
        public ECParameterSpec getParams() {
            return P256;
        }

        @Override
        public boolean equals(Object o) {
            return sameEncoding(o, ECPublicKey.class);
        }

        @Override
        public String toString() {
            return "Parcrypt EC public key, secp256r1";
        }
    }

    /** A P-256 private key: PKCS#8 encoding (with the public point) and a native handle. */
    static final class Private extends NativeKey implements ECPrivateKey {
        private static final long serialVersionUID = 1L;
        private final byte[] pkcs8;
        private final BigInteger s;

        Private(byte[] der) throws InvalidKeyException {
            super("EC", "PKCS#8", new NativeRef(Native.ecPrivateLoad(der), Native::ecPrivateFree));
            this.pkcs8 = ref().call(a -> Native.ecPrivateEncode(a, 0));
            // PKCS#8 { version, algorithm, OCTET STRING { SEC1 { 1, OCTET STRING scalar, ... } } }
            Der p8 = new Der(pkcs8).next(0x30);
            p8.integer();
            p8.next(0x30);
            Der sec1 = new Der(p8.next(0x04).rest()).next(0x30);
            sec1.integer();
            byte[] scalar = sec1.next(0x04).rest();
            this.s = new BigInteger(1, scalar);
            Arrays.fill(scalar, (byte) 0);
        }

        @Override
        byte[] encoding() {
            return pkcs8;
        }

        byte[] publicSpki() {
            return ref().call(a -> Native.ecPrivateEncode(a, 1));
        }

        @Override
        public BigInteger getS() {
            return s;
        }

        @Override
        public ECParameterSpec getParams() {
            return P256;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ECPrivateKey && ((ECPrivateKey) o).getS().equals(s)
                    && isP256(((ECPrivateKey) o).getParams());
        }

        @Override
        public int hashCode() {
            return s.hashCode();
        }

        @Override
        public String toString() {
            return "Parcrypt EC private key, secp256r1 (scalar redacted)";
        }
    }

    private static void requireP256(Key key) throws InvalidKeyException {
        if (key instanceof ECKey && !isP256(((ECKey) key).getParams())) {
            throw new InvalidKeyException("parcrypt's ECDSA is P-256 (secp256r1) only");
        }
    }

    static Public toPublic(Key key) throws InvalidKeyException {
        if (key instanceof Public) {
            return (Public) key;
        }
        if (!(key instanceof ECPublicKey)) {
            throw new InvalidKeyException("an EC public key is needed, got "
                    + (key == null ? "null" : key.getAlgorithm() + " " + key.getClass().getName()));
        }
        requireP256(key);
        return new Public(spkiOf(((ECPublicKey) key).getW()));
    }

    static Private toPrivate(Key key) throws InvalidKeyException {
        if (key instanceof Private) {
            return (Private) key;
        }
        if (!(key instanceof ECPrivateKey)) {
            throw new InvalidKeyException("an EC private key is needed, got "
                    + (key == null ? "null" : key.getAlgorithm() + " " + key.getClass().getName()));
        }
        requireP256(key);
        byte[] der = "PKCS#8".equalsIgnoreCase(key.getFormat()) ? key.getEncoded() : null;
        if (der == null) {
            der = pkcs8Of(((ECPrivateKey) key).getS());
        }
        try {
            return new Private(der);
        } finally {
            Arrays.fill(der, (byte) 0);
        }
    }
}
