"""Class codes, lecturer keys, remote tokens and voter tokens.

A class code is what the projector shows and students type: 8 characters from an
alphabet of 32 without the look-alikes 0/O and 1/I, so 40 bits (2**40, about
1.1e12 codes). ``limits`` bounds how fast one client may try codes that do not
exist; http.py's module docstring works out how long guessing one would take.

A lecturer key is 256 random bits. The store keeps only its SHA-256, and a key is
checked against the stored hashes with ``hmac.compare_digest``. A remote token (the
link that hands a second device a key of its own) is 192 random bits, kept hashed
too, and works once.

A voter token is the cookie a student's browser keeps; it identifies nothing but the
browser. The server makes it and signs it: 144 random bits and an HMAC-SHA-256 of them
under the server's secret (the first 144 bits of it), so a token a client made up is
refused, and every process with the same secret accepts every other's. The store
never keeps it: presence and votes hold HMACs of it
under a salt of the class (presence) or of the question (votes), so the two cannot
be joined, and neither says which answer a voter gave. The results (results.py) number a
class's voters by a third HMAC, under the class's own numbers salt (store.numbers_salt): the
number joins one browser's answers within the class, and nothing else.

A lecturer's charter (``charter``) is signed the same way: the class's code, its salt and
its key's digest under the server's secret. A store that lost a class (a redis-server
restarted without its data) is given it back by the lecturer's page, which shows its key
and its charter (ops.restore); a forged charter, or one of another class or key, proves
nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # 32 characters: no 0, O, 1, I
CODE_LENGTH = 8
CODE_BITS = 40  # CODE_LENGTH * log2(len(ALPHABET))
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")  # secrets.token_urlsafe(24)
_KEY = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_VOTER = re.compile(r"[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{24}")  # new_voter
_CHARTER = re.compile(r"[0-9a-f]{32}\.[0-9]{1,12}\.[A-Za-z0-9_-]{43}")  # salt, expiry, MAC
_TICKET = re.compile(r"[0-9]{1,12}\.[A-Za-z0-9_-]{24}")  # join_ticket: an expiry, a MAC
_TALLY = re.compile(r"[A-Za-z0-9_-]{24}")  # tally_ticket: a MAC


def new_code() -> str:
    """A fresh class code.

    >>> code = new_code()
    >>> len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    True
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str | None:
    """The code a student typed (any case, spaces or a dash between), or None.

    >>> normalize_code(" abcd-efgh ")
    'ABCDEFGH'
    >>> normalize_code("ABCD0FGH") is None  # 0 is not in the alphabet
    True
    """
    if not isinstance(text, str) or len(text) > 4 * CODE_LENGTH:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if _CODE.fullmatch(code) else None


def display_code(code: str) -> str:
    """The code as the projector shows it.

    >>> display_code("ABCDEFGH")
    'ABCD-EFGH'
    """
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def new_key() -> str:
    """A lecturer key: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def new_token() -> str:
    """A remote token or a voter token: 192 random bits, URL-safe, 32 characters."""
    return secrets.token_urlsafe(24)


def new_voter(secret: bytes) -> str:
    """A voter token signed with ``secret``: ``NONCE.MAC``, 24 + 1 + 24 characters.

    >>> secret = b"s" * 32
    >>> token = new_voter(secret)
    >>> voter_ok(token, secret), voter_ok(token, b"t" * 32), voter_ok(new_token(), secret)
    (True, False, False)
    """
    nonce = secrets.token_urlsafe(18)
    return f"{nonce}.{_voter_mac(secret, nonce)}"


def _voter_mac(secret: bytes, nonce: str) -> str:
    mac = hmac.new(secret, b"plab-voter:" + nonce.encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(mac).decode()


def charter(secret: bytes, code: str, salt: str, key: str, expires: int = 2**40) -> str:
    """A lecturer's proof that the server started the class ``code`` (with ``salt``) for
    ``key``, until ``expires`` (seconds since the epoch): ``SALT.EXPIRES.MAC``, what the
    lecturer's page holds beside its key, so that a store that lost the class can be given it
    back by that page, and by no one else (codes.py's docstring). The MAC is an HMAC-SHA-256
    under the server's secret of the code, the salt, the expiry and the key's digest: without
    the secret no one makes one, and one made for another class, another salt or another key,
    or one past its expiry (the class's quiet hour: ops.charter), proves nothing.

    >>> secret, key = b"s" * 32, new_key()
    >>> made = charter(secret, "ABCDEFGH", "ab" * 16, key, 2000)
    >>> charter_salt(made, secret, "ABCDEFGH", key, now=1999) == "ab" * 16
    True
    >>> charter_salt(made, secret, "ABCDEFGH", key, now=2001)  # past its class's quiet hour
    >>> charter_salt(made, secret, "ABCDEFGJ", key, now=0), charter_salt(made, b"t" * 32,
    ...     "ABCDEFGH", key, now=0)
    (None, None)
    >>> charter_salt(made.replace(".2000.", ".9999."), secret, "ABCDEFGH", key, now=0)
    """
    return f"{salt}.{int(expires)}.{_charter_mac(secret, code, salt, key, int(expires))}"


def _charter_mac(secret: bytes, code: str, salt: str, key: str, expires: int) -> str:
    message = f"plab-lead:{code}:{salt}:{expires}:{digest(key)}".encode()
    return base64.urlsafe_b64encode(hmac.new(secret, message, hashlib.sha256).digest()
                                    ).decode().rstrip("=")


def charter_salt(charter_: object, secret: bytes, code: str, key: object, *, now: float
                 ) -> str | None:
    """The class's salt a charter proves for ``code`` and ``key`` at time ``now`` (compared in
    constant time), or None when it proves nothing (forged, another's, or expired)."""
    if not isinstance(charter_, str) or _CHARTER.fullmatch(charter_) is None or not is_key(key):
        return None
    salt, expires, mac = charter_.split(".")
    if not hmac.compare_digest(mac, _charter_mac(secret, code, salt, key, int(expires))):
        return None
    return salt if now <= int(expires) else None


def join_ticket(secret: bytes, code: str, expires: int) -> str:
    """A page's join ticket for the class ``code``, until ``expires`` (seconds since the epoch):
    ``EXPIRES.MAC``, an HMAC-SHA-256 under the server's secret of the code and the expiry
    (its first 144 bits). The server gives one only to a page that found the class (so holding
    one says only that its holder had the class's code, which it names), and a stream or a
    lookup that brings it is not a guess: it spends no misses and is never refused for the
    misses of others at its address (http.py's docstring).

    >>> secret = b"s" * 32
    >>> ticket = join_ticket(secret, "ABCDEFGH", 2000)
    >>> [ticket_ok(ticket, secret, "ABCDEFGH", now=t) for t in (1999, 2001)]
    [True, False]
    >>> ticket_ok(ticket, secret, "ABCDEFGJ", now=0), ticket_ok(ticket, b"t" * 32, "ABCDEFGH",
    ...                                                         now=0)
    (False, False)
    >>> ticket_ok(ticket.replace("2000.", "9999."), secret, "ABCDEFGH", now=0)
    False
    """
    return f"{int(expires)}.{_mac24(secret, f'plab-join:{code}:{int(expires)}')}"


def ticket_ok(ticket: object, secret: bytes, code: str | None, *, now: float) -> bool:
    """Whether ``ticket`` is a join ticket for ``code`` the server signed, not yet expired."""
    if not code or not isinstance(ticket, str) or _TICKET.fullmatch(ticket) is None:
        return False
    expires, mac = ticket.split(".")
    good = hmac.compare_digest(mac, _mac24(secret, f"plab-join:{code}:{expires}"))
    return good and now <= int(expires)


def tally_ticket(secret: bytes, code: str, salt: str) -> str:
    """What lets a stream of the class ``code`` (with its ``salt``) carry the tally: an HMAC
    under the server's secret, given only to a page or device that holds a lecturer key.

    >>> secret = b"s" * 32
    >>> made = tally_ticket(secret, "ABCDEFGH", "ab" * 16)
    >>> tally_ok(made, secret, "ABCDEFGH", "ab" * 16), tally_ok(made, secret, "ABCDEFGJ", "ab" * 16)
    (True, False)
    >>> tally_ok("1", secret, "ABCDEFGH", "ab" * 16)
    False
    """
    return _mac24(secret, f"plab-tally:{code}:{salt}")


def tally_ok(ticket: object, secret: bytes, code: str, salt: str) -> bool:
    if not isinstance(ticket, str) or _TALLY.fullmatch(ticket) is None:
        return False
    return hmac.compare_digest(ticket, tally_ticket(secret, code, salt))


def _mac24(secret: bytes, message: str) -> str:
    mac = hmac.new(secret, message.encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(mac).decode()


def voter_ok(token: object, secret: bytes) -> bool:
    """Whether ``token`` is a voter token signed with ``secret`` (compared in constant time)."""
    if not isinstance(token, str) or _VOTER.fullmatch(token) is None:
        return False
    nonce, mac = token.split(".")
    return hmac.compare_digest(mac, _voter_mac(secret, nonce))


WORK_SALT = b"plab-voter-work"
_STAMP = re.compile(r"[A-Za-z0-9_-]{24}")  # 18 random bytes a page drew, URL-safe


def work_ok(stamp: object, nonce: object, bits: int, iterations: int) -> bool:
    """Whether ``nonce`` is a proof of work for ``stamp``: PBKDF2-HMAC-SHA-256 of
    ``STAMP:NONCE`` (``iterations`` iterations) begins with ``bits`` zero bits.

    >>> stamp, nonce = solve_work(4, 10, "A" * 24)
    >>> work_ok(stamp, nonce, 4, 10), work_ok(stamp, nonce, 40, 10)  # 40 bits: never by chance
    (True, False)
    >>> work_ok("A" * 24, "1e3", 0, 1), work_ok("short", 0, 0, 1)
    (False, False)
    """
    if not isinstance(stamp, str) or _STAMP.fullmatch(stamp) is None:
        return False
    if not isinstance(nonce, int) or isinstance(nonce, bool) or not 0 <= nonce < 2**40:
        return False
    return _leading_zeros(_work(stamp, nonce, iterations)) >= bits


def _work(stamp: str, nonce: int, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", f"{stamp}:{nonce}".encode(), WORK_SALT, iterations, 32)


def _leading_zeros(data: bytes) -> int:
    value = int.from_bytes(data, "big")
    return len(data) * 8 - value.bit_length()


def solve_work(bits: int, iterations: int, stamp: str | None = None) -> tuple[str, int]:
    """A proof of work (what a page's stream.js makes in the browser): a stamp and a nonce."""
    stamp = stamp or secrets.token_urlsafe(18)
    nonce = 0
    while _leading_zeros(_work(stamp, nonce, iterations)) < bits:
        nonce += 1
    return stamp, nonce


def voter_of_work(secret: bytes, stamp: str) -> str:
    """The voter token a proof's stamp earns: the stamp, signed (new_voter's shape). The same
    proof always earns the same identity, so sending it again earns nothing more.

    >>> secret = b"s" * 32
    >>> token = voter_of_work(secret, "A" * 24)
    >>> voter_ok(token, secret), token == voter_of_work(secret, "A" * 24)
    (True, True)
    """
    return f"{stamp}.{_voter_mac(secret, stamp)}"


def identity(token: str) -> str:
    """A voter token's name for counting its streams (a digest: never the token itself)."""
    return digest(token)[:24]


def new_salt() -> str:
    """A salt for the HMACs of voter tokens (one per class, one per question)."""
    return secrets.token_hex(16)


def digest(secret: str) -> str:
    """SHA-256 of a key or a token, hex: what the store keeps instead of it."""
    return hashlib.sha256(secret.encode()).hexdigest()


def is_key(text: object) -> bool:
    """Whether ``text`` has the shape of a lecturer key (checked before hashing)."""
    return isinstance(text, str) and _KEY.fullmatch(text) is not None


def is_token(text: object) -> bool:
    """Whether ``text`` has the shape of a remote or voter token."""
    return isinstance(text, str) and _TOKEN.fullmatch(text) is not None


def key_matches(key: object, hashes: tuple[str, ...]) -> bool:
    """Whether ``key`` is one of the keys whose SHA-256 ``hashes`` holds.

    Every stored hash is compared, in constant time each, whatever matched first.

    >>> key = new_key()
    >>> key_matches(key, (digest(key),)), key_matches(new_key(), (digest(key),))
    (True, False)
    """
    if not is_key(key):
        return False
    mine = digest(key)
    found = False
    for stored in hashes:
        found |= hmac.compare_digest(mine, stored)
    return found


def voter_hash(salt: str, token: str) -> str:
    """HMAC-SHA-256 of a voter token under a salt, hex (32 characters are kept)."""
    return hmac.new(salt.encode(), token.encode(), hashlib.sha256).hexdigest()[:32]
