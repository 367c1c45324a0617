"""Where the server may POST a turn notice (issue 40, finding 2: a subscription's endpoint is a
URL a stranger chooses, and the server connects to it).

Three checks, each closing a way around the one before:

- `checked_endpoint`: the endpoint as text, strictly. `https://` only, a host name on the
  allow-list (PUSH_HOSTS: a listed name or a subdomain of one), no user-info, no port, no
  address literal (v4 in any of its spellings, v6), no backslash, no control or non-ASCII
  character, no fragment. The URL the server then requests is rebuilt from the checked parts,
  so what the HTTP library parses is what was checked (`https://127.0.0.1\\@fcm.googleapis.com/`
  reads as host fcm.googleapis.com to urllib.parse but as 127.0.0.1 to urllib3; here it is
  refused for its backslash, its '@' and its address).
- `Guard.address`: at send time the host is resolved, and every address it resolves to must be
  a public one (no loopback, private, link-local, shared, reserved, multicast or unspecified
  address, nor one of those embedded in an IPv6 address).
- `pinned_session`: the HTTP session connects to exactly the address the guard checked (a second
  lookup by the library could answer otherwise: DNS rebinding), while TLS still verifies the
  certificate against the host name and the request still names the host. It follows no
  redirect and reads no proxy from the environment.

The only exception is for tests and a local relay: a loopback IPv4 address listed literally in
PUSH_HOSTS (e.g. 127.0.0.1) may be used as such, with http and a port.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import requests

_LABEL: Final = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
# two labels at least, the last one a name (starting with a letter): never an address, not even
# one of inet_aton's spellings such as 2130706433, 127.1 or 0x7f.1
HOST_NAME: Final = re.compile(rf"^(?:{_LABEL}\.)+[a-z](?:[a-z0-9-]{{0,61}}[a-z0-9])?$")
# a path and an optional query: RFC 3986's characters, nothing else (no fragment)
_PCHARS: Final = r"A-Za-z0-9\-._~!$&'()*+,;=:@%/"
PATH_QUERY: Final = re.compile(rf"^/[{_PCHARS}]*(?:\?[{_PCHARS}?]*)?$")
LOOPBACK_NETLOC: Final = re.compile(r"^(127\.\d{1,3}\.\d{1,3}\.\d{1,3})(?::(\d{1,5}))?$")
NAT64: Final = ipaddress.IPv6Network("64:ff9b::/96")
MAX_LENGTH: Final = 1024


class Refused(Exception):
    """An endpoint the server will not send to; `reason` is a stable word for the client."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class Blocked(Exception):
    """At send time the host resolved to an address the server will not connect to. Not an
    OSError, so the HTTP library passes it up as it is rather than as a network failure."""


@dataclass(frozen=True, slots=True)
class Target:
    url: str  # the URL requested: rebuilt from the checked parts
    host: str  # the push service's host name (no secret: the capability is the path)
    audience: str  # scheme://host[:port], the VAPID claim `aud`


def loopback_literals(hosts: tuple[str, ...]) -> frozenset[str]:
    """The loopback IPv4 addresses PUSH_HOSTS lists literally: usable as such (tests)."""
    found = set()
    for host in hosts:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            continue
        if isinstance(address, ipaddress.IPv4Address) and address.is_loopback:
            found.add(str(address))
    return frozenset(found)


def checked_endpoint(endpoint: str, hosts: tuple[str, ...]) -> Target:
    """The endpoint as it will be requested, or Refused (see the module's text)."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= MAX_LENGTH:
        raise Refused("length", f"An endpoint is a URL of at most {MAX_LENGTH} characters.")
    if "\\" in endpoint:
        raise Refused("backslash", "An endpoint has no backslash.")
    if not endpoint.isascii() or any(c <= " " or c == "\x7f" for c in endpoint):
        raise Refused("characters", "An endpoint has no space, control or non-ASCII character.")
    scheme, sep, rest = endpoint.partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in ("https", "http"):
        raise Refused("scheme", "An endpoint is an https:// URL.")
    cut = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    netloc, tail = rest[:cut], rest[cut:]
    if "@" in netloc:
        raise Refused("userinfo", "An endpoint has no user name or password.")
    if not PATH_QUERY.match(tail):
        raise Refused("path", "An endpoint has a path, an optional query and no fragment.")
    literal = LOOPBACK_NETLOC.match(netloc)
    if literal is not None and literal.group(1) in loopback_literals(hosts):
        port = int(literal.group(2) or (443 if scheme == "https" else 80))
        if not 0 < port < 65536:
            raise Refused("port", "That port does not exist.")
        origin = f"{scheme}://{literal.group(1)}:{port}"
        return Target(origin + tail, literal.group(1), origin)
    if scheme != "https":
        raise Refused("scheme", "An endpoint is an https:// URL.")
    host = netloc.lower()
    if host.startswith("[") or _address_like(host):
        raise Refused("address", "An endpoint names its push service, not an address.")
    if ":" in host:
        raise Refused("port", "An endpoint has no port.")
    if not HOST_NAME.match(host) or len(host) > 253:
        raise Refused("host", "An endpoint's host is not a host name.")
    if not any(host == h or host.endswith("." + h) for h in hosts):
        raise Refused("host", "This push service is not one we send to.")
    return Target(f"https://{host}{tail}", host, f"https://{host}")


def _address_like(host: str) -> bool:
    """An IPv4 address in any form inet_aton takes (127.0.0.1, 127.1, 2130706433, 0x7f.0.0.1)."""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    try:
        socket.inet_aton(name)
        return True
    except OSError:
        return False


def public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether the address is one on the internet at large (a push service's), not this
    machine's, its network's, or one reserved for something else."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = [address.ipv4_mapped, address.sixtofour]
        if address.teredo is not None:
            embedded += list(address.teredo)
        if address in NAT64:
            embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if any(inner is not None and not public(inner) for inner in embedded):
            return False
        if address.is_site_local:
            return False
    return address.is_global and not (
        address.is_multicast
        or address.is_loopback
        or address.is_link_local
        or address.is_private
        or address.is_reserved
        or address.is_unspecified
    )


def resolve(host: str, port: int) -> list[str]:
    """The addresses the system resolves `host` to, for a TCP connection."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in found]


class Guard:
    """The send-time check: which address a connection to `host` may use."""

    def __init__(
        self,
        hosts: tuple[str, ...],
        resolver: Callable[[str, int], list[str]] = resolve,
        allowed: Callable[[ipaddress.IPv4Address | ipaddress.IPv6Address], bool] = public,
    ) -> None:
        self.literals = loopback_literals(hosts)
        self.resolver, self.allowed = resolver, allowed

    def address(self, host: str, port: int) -> str:
        """The one address to connect to, every address of the host being public; else
        Blocked. A listed loopback literal is itself."""
        bare = host.strip("[]")
        if bare in self.literals:
            return bare
        try:
            found = self.resolver(bare, port)
        except OSError as err:  # socket.gaierror: no such name
            name = type(err).__name__
            raise Blocked(f"the push service's name did not resolve ({name})") from None
        if not found:
            raise Blocked("the push service's name resolved to nothing")
        for text in found:
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                raise Blocked("the push service's name resolved to no address") from None
            if not self.allowed(address):
                raise Blocked("the push service's name resolved to a non-public address")
        return found[0]


def pinned_session(guard: Guard) -> requests.Session:
    """A requests session whose every connection goes to the address `guard` checked for its
    host (http and https alike); TLS verifies the certificate against the host name, as
    usual. No redirect is followed (the caller also passes allow_redirects=False), and no proxy
    or credentials are read from the environment. requests and urllib3 are imported here, with
    the first notice: a feature many processes never use should not slow every start."""
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
    from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
    from urllib3.util.connection import create_connection

    def connect(conn: HTTPConnection) -> socket.socket:
        """urllib3's own _new_conn, but to the checked address (conn.host, the name, stays what
        TLS verifies and the Host header says)."""
        address = guard.address(conn.host, conn.port)
        try:
            return create_connection(
                (address, conn.port),
                conn.timeout,
                source_address=conn.source_address,
                socket_options=conn.socket_options,
            )
        except TimeoutError as err:
            raise ConnectTimeoutError(conn, "connecting to the push service timed out") from err
        except OSError as err:
            raise NewConnectionError(conn, f"no connection ({type(err).__name__})") from err

    class PinnedHTTP(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return connect(self)

    class PinnedHTTPS(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return connect(self)

    class PinnedHTTPPool(HTTPConnectionPool):
        ConnectionCls = PinnedHTTP

    class PinnedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = PinnedHTTPS

    class PinnedAdapter(HTTPAdapter):
        def init_poolmanager(self, *args: object, **kwargs: object) -> None:
            super().init_poolmanager(*args, **kwargs)  # type: ignore[arg-type]
            self.poolmanager.pool_classes_by_scheme = {
                "http": PinnedHTTPPool,
                "https": PinnedHTTPSPool,
            }

    class NoRedirects(requests.Session):
        def get_redirect_target(self, resp: requests.Response) -> None:
            return None  # a redirect is an answer like any other: never followed

    session = NoRedirects()
    session.trust_env = False  # no HTTP(S)_PROXY, no .netrc: straight to the checked address
    adapter = PinnedAdapter(max_retries=0)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session
