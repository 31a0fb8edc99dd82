package io.privmat.hashing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;

/** SHA-256 hex against the FIPS 180-2 test vectors, whole and in pieces. */
class Sha256Test {

    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @Test
    void matchesTheStandardsVectors() {
        assertThat(Sha256.hex("")).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(Sha256.hex("abc")).isEqualTo(ABC);
        assertThat(Sha256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))
                .isEqualTo("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }

    @Test
    void textIsHashedAsUtf8AndPiecesAsTheirConcatenation() {
        assertThat(Sha256.hex("é")).isEqualTo(Sha256.hex("é".getBytes(StandardCharsets.UTF_8)))
                .isNotEqualTo(Sha256.hex("é".getBytes(StandardCharsets.ISO_8859_1)));
        MessageDigest digest = Sha256.digest();
        digest.update("a".getBytes(StandardCharsets.US_ASCII));
        digest.update("bc".getBytes(StandardCharsets.US_ASCII));
        assertThat(Sha256.hex(digest)).isEqualTo(ABC);
        assertThat(Sha256.bytes("abc")).hasSize(32).startsWith((byte) 0xba, (byte) 0x78);
    }
}
