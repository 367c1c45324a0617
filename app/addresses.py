"""Who is asking, as every per-client limit and share counts it: the client's address."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any


def client_key(scope: Mapping[str, Any]) -> str:
    """Who is asking: the peer address (a trusted proxy's X-Forwarded-For is already applied by
    then)."""
    client = scope.get("client")
    return address_key(client[0] if client else "")


def address_key(host: str) -> str:
    """An address as it is counted. IPv6 counts by /64, the block one household or phone gets, so
    rotating addresses inside it does not buy a fresh allowance."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class TrustedPeers:
    """FORWARDED_ALLOW_IPS as a test of a peer's address: addresses or networks, `*` for any.
    A trusted peer is a proxy: the clients behind it are told apart by its X-Forwarded-For, so
    nothing that counts per address at the connection (before any header is read) counts it."""

    def __init__(self, spec: str) -> None:
        items = [item.strip() for item in spec.split(",") if item.strip()]
        self.anyone = "*" in items
        self.networks = []
        for item in items:
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                continue  # a name or a Unix socket path: never a TCP peer's address

    def __contains__(self, host: str) -> bool:
        if self.anyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)
