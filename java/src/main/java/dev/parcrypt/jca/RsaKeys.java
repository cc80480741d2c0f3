package dev.parcrypt.jca;

import java.math.BigInteger;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.List;

/** RSA keys of this provider, and the conversion of anyone's RSA keys to native ones. */
final class RsaKeys {
    private RsaKeys() {}

    /** An RSA public key: its SPKI encoding and a native handle. */
    static final class Public extends NativeKey implements RSAPublicKey {
        private static final long serialVersionUID = 1L;
        private final byte[] spki;
        private final BigInteger modulus;
        private final BigInteger exponent;

        Public(byte[] der) throws InvalidKeyException {
            super("RSA", "X.509", new NativeRef(Native.rsaPublicLoad(der), Native::rsaPublicFree));
            NativeRef ref = ref();
            long a = ref.acquire();
            try {
                this.spki = Native.rsaPublicEncode(a, 0);
                List<BigInteger> ints = Der.integers(Native.rsaPublicEncode(a, 1));
                this.modulus = ints.get(0);
                this.exponent = ints.get(1);
            } finally {
                ref.release();
            }
        }

        @Override
        byte[] encoding() {
            return spki;
        }

        @Override
        public BigInteger getModulus() {
            return modulus;
        }

        @Override
        public BigInteger getPublicExponent() {
            return exponent;
        }

        @Override
        public AlgorithmParameterSpec getParams() {
            return null;
        }

        @Override
        public boolean equals(Object o) {
            return sameEncoding(o, RSAPublicKey.class);
        }

        @Override
        public String toString() {
            return "Parcrypt RSA public key, " + modulus.bitLength() + " bits";
        }
    }

    /** An RSA private key with its CRT values: PKCS#8 encoding and a native handle. */
    static final class Private extends NativeKey implements RSAPrivateCrtKey {
        private static final long serialVersionUID = 1L;
        private final byte[] pkcs8;
        private final BigInteger[] v; // n, e, d, p, q, dP, dQ, qInv

        Private(byte[] der) throws InvalidKeyException {
            super("RSA", "PKCS#8", new NativeRef(Native.rsaPrivateLoad(der), Native::rsaPrivateFree));
            NativeRef ref = ref();
            long a = ref.acquire();
            try {
                this.pkcs8 = Native.rsaPrivateEncode(a, 0);
                byte[] pkcs1 = Native.rsaPrivateEncode(a, 1);
                List<BigInteger> ints = Der.integers(pkcs1);
                Arrays.fill(pkcs1, (byte) 0);
                if (ints.size() != 9) {
                    throw new InvalidKeyException("not a two-prime RSA key");
                }
                this.v = ints.subList(1, 9).toArray(new BigInteger[0]);
            } finally {
                ref.release();
            }
        }

        @Override
        byte[] encoding() {
            return pkcs8;
        }

        byte[] publicSpki() {
            return ref().call(a -> Native.rsaPrivateEncode(a, 2));
        }

        @Override
        public BigInteger getModulus() {
            return v[0];
        }

        @Override
        public BigInteger getPublicExponent() {
            return v[1];
        }

        @Override
        public BigInteger getPrivateExponent() {
            return v[2];
        }

        @Override
        public BigInteger getPrimeP() {
            return v[3];
        }

        @Override
        public BigInteger getPrimeQ() {
            return v[4];
        }

        @Override
        public BigInteger getPrimeExponentP() {
            return v[5];
        }

        @Override
        public BigInteger getPrimeExponentQ() {
            return v[6];
        }

        @Override
        public BigInteger getCrtCoefficient() {
            return v[7];
        }

        @Override
        public AlgorithmParameterSpec getParams() {
            return null;
        }

        @Override
        public boolean equals(Object o) {
            return sameEncoding(o, RSAPrivateKey.class);
        }

        @Override
        public String toString() {
            return "Parcrypt RSA private key, " + v[0].bitLength() + " bits (private values redacted)";
        }
    }

    /** Any provider's RSA public key as ours. */
    static Public toPublic(Key key) throws InvalidKeyException {
        if (key instanceof Public) {
            return (Public) key;
        }
        if (!(key instanceof RSAPublicKey)) {
            throw new InvalidKeyException("an RSA public key is needed, got "
                    + (key == null ? "null" : key.getAlgorithm() + " " + key.getClass().getName()));
        }
        byte[] der = "X.509".equalsIgnoreCase(key.getFormat()) ? key.getEncoded() : null;
        if (der == null) {
            RSAPublicKey k = (RSAPublicKey) key;
            der = Der.sequenceOf(k.getModulus(), k.getPublicExponent()); // PKCS#1
        }
        return new Public(der);
    }

    /** Any provider's RSA private key (with CRT values) as ours. */
    static Private toPrivate(Key key) throws InvalidKeyException {
        if (key instanceof Private) {
            return (Private) key;
        }
        if (!(key instanceof RSAPrivateKey)) {
            throw new InvalidKeyException("an RSA private key is needed, got "
                    + (key == null ? "null" : key.getAlgorithm() + " " + key.getClass().getName()));
        }
        byte[] der = "PKCS#8".equalsIgnoreCase(key.getFormat()) ? key.getEncoded() : null;
        if (der == null) {
            if (!(key instanceof RSAPrivateCrtKey)) {
                throw new InvalidKeyException("parcrypt needs an RSA private key with its CRT values (RSAPrivateCrtKey)");
            }
            RSAPrivateCrtKey k = (RSAPrivateCrtKey) key;
            der = Der.sequenceOf(BigInteger.ZERO, k.getModulus(), k.getPublicExponent(), k.getPrivateExponent(),
                    k.getPrimeP(), k.getPrimeQ(), k.getPrimeExponentP(), k.getPrimeExponentQ(), k.getCrtCoefficient());
        }
        try {
            return new Private(der);
        } finally {
            Arrays.fill(der, (byte) 0);
        }
    }
}
