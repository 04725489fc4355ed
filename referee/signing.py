"""Game files signed by the referee that exports them: Ed25519 (RFC 8032) from the
``cryptography`` library, never a construction of our own.

Each installation has one signing key, made once in its instance folder (``app.py``). A file's
``signature`` is ``{"algorithm": "Ed25519", "public_key": <base64 of the 32-byte public key>,
"value": <base64 of the 64-byte signature>}`` (standard base64 with its padding), and what is
signed is ``signed_bytes(file)``: the ASCII line ``referee game file signature v1`` and a
newline, then the file's JSON without its ``signature`` member, written with its object keys
sorted, no whitespace, every character outside ASCII escaped as ``\\uXXXX`` (a pair of them
beyond the BMP), numbers as Python's ``json.dumps`` writes them (an integer as its digits, a
float as its shortest repr: ``1764512000.0``). docs/api.md says the same for other referees.

Pure: no web or storage library is imported here.
"""

from __future__ import annotations

import base64
import binascii
import json

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

ALGORITHM = "Ed25519"
FIELD = "signature"
SIGNED_PREFIX = b"referee game file signature v1\n"
KEY_BYTES, SIGNATURE_BYTES = 32, 64
PARTS = ("algorithm", "public_key", "value")


# The encodings of the Ed25519 points of small order (libsodium's list, the sign bit cleared):
# a "public key" among them verifies signatures that anyone can make for any file, so it is
# no referee's key and is refused wherever a key is read
SMALL_ORDER = frozenset(bytes.fromhex(h) for h in (
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
))


class SignatureRefused(ValueError):
    """A signature or public key that cannot be read, or a signature that does not verify:
    the field at fault and why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def signed_bytes(document: dict) -> bytes:
    """The exact bytes a game file's signature covers (the module's text)."""
    content = {key: value for key, value in document.items() if key != FIELD}
    return SIGNED_PREFIX + json.dumps(content, sort_keys=True, separators=(",", ":"),
                                      ensure_ascii=True, allow_nan=False).encode("ascii")


def new_private_key() -> bytes:
    """A new signing key, as the PKCS #8 PEM the instance folder keeps."""
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _decoded(text: object, size: int, field: str, what: str) -> bytes:
    """``size`` bytes from their one base64 spelling (padded, standard alphabet), or a
    refusal naming the field; the text's length is checked before anything is decoded."""
    length = 4 * ((size + 2) // 3)
    if not isinstance(text, str) or len(text) != length:
        raise SignatureRefused(field, f"'{field}' is {what}: {size} bytes in base64, "
                                      f"{length} characters")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise SignatureRefused(field, f"'{field}' is not base64 (A-Z, a-z, 0-9, + and /, "
                                      "padded with =)") from None
    if len(raw) != size or _base64(raw) != text:
        raise SignatureRefused(field, f"'{field}' is {what}: {size} bytes in base64, "
                                      f"{length} characters")
    return raw


def public_key(text: object, field: str = "public_key") -> Ed25519PublicKey:
    """A referee's public key from its base64 text (``referee key`` prints one)."""
    raw = _decoded(text, KEY_BYTES, field, "an Ed25519 public key")
    if raw[:-1] + bytes([raw[-1] & 0x7F]) in SMALL_ORDER:
        raise SignatureRefused(field, f"'{field}' is a point of small order, which verifies "
                                      "signatures anyone can make: no referee's key")
    try:
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise SignatureRefused(field, f"'{field}' is not an Ed25519 public key") from None


class SigningKey:
    """This referee's signing key: it signs game files and names itself by its public key."""

    def __init__(self, pem: bytes) -> None:
        try:
            key = serialization.load_pem_private_key(pem, password=None)
        except (TypeError, UnsupportedAlgorithm) as err:
            raise ValueError(str(err)) from None
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("the signing key is not an Ed25519 key")
        self._key = key
        self.public = _base64(key.public_key().public_bytes(serialization.Encoding.Raw,
                                                            serialization.PublicFormat.Raw))

    def sign(self, document: dict) -> dict:
        """The file with this referee's signature of it (any signature it had replaced)."""
        value = self._key.sign(signed_bytes(document))
        return {**{k: v for k, v in document.items() if k != FIELD},
                FIELD: {"algorithm": ALGORITHM, "public_key": self.public,
                        "value": _base64(value)}}


def signer(document: dict) -> str | None:
    """The public key (base64) whose valid signature a game file carries; None for a file
    with no signature. A signature that cannot be read, or that does not match the file's
    content (changed after it was signed, or another file's signature), is refused."""
    if FIELD not in document:
        return None
    block = document[FIELD]
    if not isinstance(block, dict):
        raise SignatureRefused(FIELD, f"'{FIELD}' is an object with {', '.join(PARTS)}")
    for key in block:
        if key not in PARTS:
            raise SignatureRefused(f"{FIELD}.{str(key)[:20]}", f"{str(key)[:20]!r} is not part "
                                   f"of a signature; it has {', '.join(PARTS)}")
    if block.get("algorithm") != ALGORITHM:
        raise SignatureRefused(f"{FIELD}.algorithm", f"'{FIELD}.algorithm' is "
                                                     f"{ALGORITHM!r}, the only one this "
                                                     "referee signs or verifies with")
    key = public_key(block.get("public_key"), f"{FIELD}.public_key")
    value = _decoded(block.get("value"), SIGNATURE_BYTES, f"{FIELD}.value",
                     "an Ed25519 signature")
    try:
        key.verify(value, signed_bytes(document))
    except (RecursionError, ValueError):
        raise SignatureRefused(FIELD, "its content cannot be written as the JSON its "
                                      "signature covers (it is nested too deeply)") from None
    except InvalidSignature:
        raise SignatureRefused(FIELD, "its signature does not match its content: the file was "
                                      "changed after it was signed, or the signature is "
                                      "another file's. A signed file is taken exactly as its "
                                      "referee signed it or not at all; without its "
                                      f"'{FIELD}' it would be imported as unverified, listed "
                                      "but counted in no record") from None
    return block["public_key"]
