package dev.parcrypt.jca;

import java.security.AlgorithmParameters;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.InvalidParameterException;
import java.security.Key;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.CipherSpi;
import javax.crypto.ShortBufferException;

/**
 * What every cipher of this provider shares. The JCA's three {@code
 * engineInit} overloads come down to the one with an {@link
 * AlgorithmParameterSpec}, which each cipher implements: no parameters is a
 * null spec (a parameter error then is an {@code InvalidKeyException}, as
 * that overload declares no other), and {@link AlgorithmParameters} give
 * the cipher's own spec class.
 */
abstract class CipherBase extends CipherSpi {
    private final Class<? extends AlgorithmParameterSpec> specClass;
    private final String specNeeded;

    /**
     * @param specClass the spec the cipher takes from {@link AlgorithmParameters}
     * @param specNeeded the message when the parameters hold no such spec
     */
    CipherBase(Class<? extends AlgorithmParameterSpec> specClass, String specNeeded) {
        this.specClass = specClass;
        this.specNeeded = specNeeded;
    }

    @Override
    protected void engineInit(int opmode, Key key, SecureRandom random) throws InvalidKeyException {
        try {
            engineInit(opmode, key, (AlgorithmParameterSpec) null, random);
        } catch (InvalidAlgorithmParameterException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }

    @Override
    protected void engineInit(int opmode, Key key, AlgorithmParameters params, SecureRandom random)
            throws InvalidKeyException, InvalidAlgorithmParameterException {
        AlgorithmParameterSpec spec = null;
        if (params != null) {
            try {
                spec = params.getParameterSpec(specClass);
            } catch (InvalidParameterSpecException e) {
                throw new InvalidAlgorithmParameterException(specNeeded, e);
            }
        }
        engineInit(opmode, key, spec, random);
    }

    /** True for {@code ENCRYPT_MODE} and {@code WRAP_MODE}, false for their inverses; another mode is refused. */
    static boolean encrypting(int opmode) {
        if (opmode == Cipher.ENCRYPT_MODE || opmode == Cipher.WRAP_MODE) {
            return true;
        }
        if (opmode == Cipher.DECRYPT_MODE || opmode == Cipher.UNWRAP_MODE) {
            return false;
        }
        throw new InvalidParameterException("unknown mode " + opmode);
    }

    /**
     * {@code AlgorithmParameters} of {@code algorithm} holding {@code spec}
     * (from {@code provider}, or the first provider that has them when it is
     * null); null if there are none.
     */
    static AlgorithmParameters parameters(String algorithm, Provider provider, AlgorithmParameterSpec spec) {
        try {
            AlgorithmParameters params = provider == null
                    ? AlgorithmParameters.getInstance(algorithm)
                    : AlgorithmParameters.getInstance(algorithm, provider);
            params.init(spec);
            return params;
        } catch (NoSuchAlgorithmException | InvalidParameterSpecException e) {
            return null;
        }
    }

    /**
     * Copies a whole {@code doFinal} result into {@code output} at {@code
     * outputOffset} and wipes it; its length. {@code ShortBufferException}
     * (the result wiped, nothing written) if it does not fit.
     */
    static int copyOut(byte[] result, byte[] output, int outputOffset) throws ShortBufferException {
        try {
            if (output.length - outputOffset < result.length) {
                throw new ShortBufferException("need " + result.length + " bytes of output space");
            }
            System.arraycopy(result, 0, output, outputOffset, result.length);
            return result.length;
        } finally {
            Arrays.fill(result, (byte) 0);
        }
    }
}
