package dev.parcrypt.jca;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.AlgorithmParametersSpi;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.InvalidParameterSpecException;
import java.util.HexFormat;
import javax.crypto.spec.GCMParameterSpec;

/**
 * {@code AlgorithmParameters.GCM}: a {@link GCMParameterSpec} (nonce and tag
 * length) and its ASN.1 form, RFC 5084's {@code GCMParameters ::= SEQUENCE {
 * aes-nonce OCTET STRING, aes-ICVlen INTEGER DEFAULT 12 }} (the tag length in
 * bytes, 12 to 16; written only when it is not 12, as DER wants; read either way).
 * What {@code Cipher.getParameters()} of this provider's GCM returns.
 */
public final class GcmParameters extends AlgorithmParametersSpi {
    private byte[] nonce;
    private int tagBits;

    /** Made by the provider's service (the provider's settings do not matter here). */
    public GcmParameters(ParcryptProvider provider) {}

    @Override
    protected void engineInit(AlgorithmParameterSpec paramSpec) throws InvalidParameterSpecException {
        if (!(paramSpec instanceof GCMParameterSpec)) {
            throw new InvalidParameterSpecException("GCM parameters take a GCMParameterSpec, not "
                    + (paramSpec == null ? "null" : paramSpec.getClass().getName()));
        }
        GCMParameterSpec spec = (GCMParameterSpec) paramSpec;
        int bits = spec.getTLen();
        if (bits < 96 || bits > 128 || bits % 8 != 0) {
            throw new InvalidParameterSpecException("GCM tag length must be a multiple of 8 from 96 to 128 bits, got " + bits);
        }
        set(spec.getIV(), bits);
    }

    @Override
    protected void engineInit(byte[] params) throws IOException {
        // SEQUENCE { OCTET STRING nonce [, INTEGER tag bytes] }
        int[] pos = {0};
        int seqEnd = header(params, pos, 0x30);
        if (seqEnd != params.length) {
            throw new IOException("GCM parameters: bytes after the SEQUENCE");
        }
        int nonceEnd = header(params, pos, 0x04);
        byte[] n = java.util.Arrays.copyOfRange(params, pos[0], nonceEnd);
        pos[0] = nonceEnd;
        int tagBytes = 12;
        if (pos[0] < seqEnd) {
            int intEnd = header(params, pos, 0x02);
            if (intEnd - pos[0] != 1) {
                throw new IOException("GCM parameters: the tag length is not a one-byte INTEGER");
            }
            tagBytes = params[pos[0]];
            pos[0] = intEnd;
        }
        if (pos[0] != seqEnd) {
            throw new IOException("GCM parameters: extra fields");
        }
        if (tagBytes < 12 || tagBytes > 16) {
            throw new IOException("GCM parameters: tag length " + tagBytes + " bytes (12 to 16 allowed)");
        }
        if (n.length == 0) {
            throw new IOException("GCM parameters: empty nonce");
        }
        set(n, tagBytes * 8);
    }

    /** Reads a tag and a definite length at {@code pos}; leaves pos at the content; returns its end. */
    private static int header(byte[] der, int[] pos, int tag) throws IOException {
        int p = pos[0];
        if (p + 2 > der.length || (der[p] & 0xff) != tag) {
            throw new IOException("GCM parameters: expected DER tag 0x" + Integer.toHexString(tag));
        }
        int len = der[p + 1] & 0xff;
        p += 2;
        if (len == 0x81) {
            if (p >= der.length || (der[p] & 0xff) < 0x80) {
                throw new IOException("GCM parameters: bad DER length");
            }
            len = der[p++] & 0xff;
        } else if (len > 0x7f) {
            throw new IOException("GCM parameters: DER length too long");
        }
        if (len > der.length - p) {
            throw new IOException("GCM parameters: truncated");
        }
        pos[0] = p;
        return p + len;
    }

    @Override
    protected void engineInit(byte[] params, String format) throws IOException {
        if (format != null && !format.equalsIgnoreCase("ASN.1")) {
            throw new IOException("GCM parameters come only in ASN.1, not " + format);
        }
        engineInit(params);
    }

    private void set(byte[] n, int bits) {
        nonce = n.clone();
        tagBits = bits;
    }

    private void checkInit() throws InvalidParameterSpecException {
        if (nonce == null) {
            throw new InvalidParameterSpecException("GCM parameters not initialized");
        }
    }

    @Override
    protected <T extends AlgorithmParameterSpec> T engineGetParameterSpec(Class<T> paramSpec)
            throws InvalidParameterSpecException {
        checkInit();
        if (!paramSpec.isAssignableFrom(GCMParameterSpec.class)) {
            throw new InvalidParameterSpecException("GCM parameters give a GCMParameterSpec, not " + paramSpec.getName());
        }
        return paramSpec.cast(new GCMParameterSpec(tagBits, nonce));
    }

    @Override
    protected byte[] engineGetEncoded() throws IOException {
        if (nonce == null) {
            throw new IOException("GCM parameters not initialized");
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        tlv(body, 0x04, nonce);
        if (tagBits != 96) {
            tlv(body, 0x02, new byte[] {(byte) (tagBits / 8)});
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        tlv(out, 0x30, body.toByteArray());
        return out.toByteArray();
    }

    private static void tlv(ByteArrayOutputStream out, int tag, byte[] content) throws IOException {
        if (content.length > 0xff) {
            throw new IOException("GCM parameters: " + content.length + " bytes of content are too long to encode here"
                    + " (nonces up to 249 bytes are)");
        }
        out.write(tag);
        if (content.length > 0x7f) {
            out.write(0x81);
        }
        out.write(content.length);
        out.write(content);
    }

    @Override
    protected byte[] engineGetEncoded(String format) throws IOException {
        if (format != null && !format.equalsIgnoreCase("ASN.1")) {
            throw new IOException("GCM parameters come only in ASN.1, not " + format);
        }
        return engineGetEncoded();
    }

    @Override
    protected String engineToString() {
        return nonce == null ? "GCM parameters (not initialized)"
                : "GCM parameters: nonce " + HexFormat.of().formatHex(nonce) + ", tag " + tagBits + " bits";
    }
}
