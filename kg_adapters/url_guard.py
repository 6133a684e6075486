"""Which machines a request made on a user's behalf may reach.

Connecting to a SPARQL endpoint from the app is a server-side request: the server,
not the user's browser, opens the connection. Without a check, anyone who can type
a URL into a public app can make it talk to the machine itself (admin pages on
loopback), to the private network behind it, or to the cloud's metadata service
(which hands out credentials). So the app refuses every address that is not a
public unicast one, unless its operator allows them (`--allow-private-endpoints`);
the command line allows them always, because it runs as its user.

Two checks, both here:

* `check_url` - before any connection: only http and https, and the host must
  resolve to public addresses only. Host spellings such as `http://2130706433/`,
  `http://0x7f.1/` or `http://[::ffff:127.0.0.1]/` resolve, through the same
  resolver the connection uses, to the address they mean, and are judged by it.
* `connect` - the socket itself: it resolves the host once, refuses a private
  address, and connects to the address it checked. Every redirect opens a new
  connection through it, so a redirect to an inside address is refused too, and a
  name that resolves to a public address for the check and to 127.0.0.1 for the
  connection (DNS rebinding) cannot slip through between the two. (Through an HTTP proxy
  set in the environment, the connection is to the proxy, so it is the proxy's address
  that is checked; the URL and its redirects are checked by name as above.)
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Callable, Union
from urllib.parse import urlsplit

from .base import EndpointRefused

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
AddressCheck = Callable[[IPAddress], Union[str, None]]  # the reason an address is refused, or None

ALLOWED_SCHEMES = ("http", "https")
HOW_TO_ALLOW = (
    "start the app with --allow-private-endpoints to allow such endpoints "
    "(the command line, python -m engine, allows them)"
)
# Metadata services that hand out a cloud machine's credentials. Most sit at link-local or private
# addresses, refused anyway; these are named so the message says what they are, and two are public.
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254",  # AWS, GCP, Azure IMDS, OpenStack, DigitalOcean
    "169.254.170.2",  # AWS ECS task metadata
    "fd00:ec2::254",  # AWS IMDS over IPv6
    "100.100.100.200",  # Alibaba Cloud
    "168.63.129.16",  # Azure wire server (a public address)
    "192.0.0.192",  # Oracle Cloud (counted as global by ipaddress)
))
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def refusal_reason(address: IPAddress) -> str | None:
    """Why a request for a user must not reach `address` ("a loopback address", ...), or None if it may.

    Only public unicast addresses pass. An IPv6 address that carries an IPv4 one (mapped, 6to4,
    NAT64, IPv4-compatible, Teredo) is judged by the IPv4 address too, since it can lead there; a
    mapped or NAT64 one (`::ffff:127.0.0.1`, `64:ff9b::a00:1`) only by it, since a connection to it is
    one to the IPv4 address (an IPv6-only network reaches every IPv4 endpoint through NAT64)."""
    carried = _carried_ipv4(address)
    if carried is not None:
        return refusal_reason(carried)
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    for name, flag in (("a loopback", "is_loopback"), ("a link-local", "is_link_local"),
                       ("a multicast", "is_multicast"), ("an unspecified", "is_unspecified"),
                       ("a reserved", "is_reserved"), ("a private", "is_private")):
        if getattr(address, flag):
            return f"{name} address"
    if not address.is_global:
        return "not a public address"
    embedded = _embedded_ipv4(address)
    return refusal_reason(embedded) if embedded is not None else None


def _carried_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for: mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return _low_ipv4(address) if address in _NAT64 else None


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one can lead to besides itself: 6to4, Teredo, IPv4-compatible."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    return _low_ipv4(address) if address in _IPV4_COMPATIBLE else None


def _low_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)


def check_url(url: str, check: AddressCheck = refusal_reason) -> None:
    """Raise EndpointRefused unless `url` is http(s) and its host resolves to addresses `check` passes.

    A host that does not resolve passes: the connection then fails with its own message."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        raise EndpointRefused(f"refused {url!r}: only http and https URLs are opened")
    host = parts.hostname
    if not host:
        raise EndpointRefused(f"refused {url!r}: the URL names no host")
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError:
        raise EndpointRefused(f"refused {url!r}: its port is not a number from 0 to 65535") from None
    literal = _ip_literal(host)
    if literal is not None:  # judged as written, whether or not it resolves here (a zone, `fe80::1%eth0`)
        _refuse(host, literal, check)
        return
    try:
        _checked_addresses(host, port, check)
    except socket.gaierror:
        return


def _ip_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


def _refuse(host: str, address: IPAddress, check: AddressCheck) -> None:
    """EndpointRefused, saying why and how to allow it, if `check` refuses the address."""
    reason = check(address)
    if reason is not None:
        shown = host if host == str(address) else f"{host} ({address})"
        raise EndpointRefused(
            f"refused to connect to {shown}: it is {reason}, and the app does not reach into its own "
            f"machine or network for a user; {HOW_TO_ALLOW}"
        )


def connect(address: tuple[str, int], timeout: float | None = None, source_address: tuple[str, int] | None = None,
            check: AddressCheck = refusal_reason) -> socket.socket:
    """`socket.create_connection`, but only to addresses `check` passes, and to the very address it checked.

    Every address the host resolves to must pass: a name that also resolves to 127.0.0.1 is refused,
    even if a public address is tried first."""
    host, port = address
    last_error: OSError | None = None
    for family, kind, proto, sockaddr in _checked_addresses(host, port, check):
        sock = socket.socket(family, kind, proto)
        try:
            if timeout is not None and timeout is not socket._GLOBAL_DEFAULT_TIMEOUT:  # noqa: SLF001 - http.client's
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(sockaddr)
            return sock
        except OSError as err:
            last_error = err
            sock.close()
    raise last_error or OSError(f"no address to connect to for {host}")


def _checked_addresses(host: str, port: int, check: AddressCheck) -> list[tuple]:
    """(family, type, proto, sockaddr) for each address of `host`; EndpointRefused if any is refused."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    for _, _, _, _, sockaddr in found:
        _refuse(host, ipaddress.ip_address(sockaddr[0].split("%", 1)[0]), check)  # a zone ("%eth0") dropped
    return [(family, kind, proto, sockaddr) for family, kind, proto, _, sockaddr in found]
