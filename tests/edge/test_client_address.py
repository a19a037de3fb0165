"""The client address behind 0, 1 or 2 trusted proxies: only what the trusted proxies appended to
X-Forwarded-For is believed, for Django requests and ASGI scopes alike."""

from __future__ import annotations

import pytest

from edge.client_address import client_address, scope_client_address

PEER = "10.0.0.2"

CASES = [
    # No trusted proxy: the header is the client's own text and is ignored.
    (0, ["198.51.100.9"], PEER),
    (0, ["1.1.1.1, 198.51.100.9, 203.0.113.4"], PEER),
    # One proxy appends the address it saw; anything left of it the client wrote.
    (1, ["198.51.100.9"], "198.51.100.9"),
    (1, ["1.1.1.1, 198.51.100.9"], "198.51.100.9"),  # a forged entry in front is skipped
    (1, ["1.1.1.1", "198.51.100.9"], "198.51.100.9"),  # a second header line continues the list
    # Two proxies (CDN, then a load balancer): the CDN's entry, not the load balancer's.
    (2, ["1.1.1.1, 198.51.100.9, 203.0.113.4"], "198.51.100.9"),
    (2, ["192.0.2.66, 1.1.1.1, 198.51.100.9, 203.0.113.4"], "198.51.100.9"),  # forged entries
    (2, ["198.51.100.9"], "198.51.100.9"),  # fewer entries than proxies: the outermost one seen
    (1, ["198.51.100.9:4711"], "198.51.100.9"),
    (1, ["[2001:db8::7]:443"], "2001:db8::7"),
    (1, ["2001:db8::7"], "2001:db8::7"),
    # Nothing usable: the connection's peer.
    (1, [], PEER),
    (1, ["1.1.1.1, unknown"], PEER),
    (1, ["1.1.1.1, "], PEER),
    (2, ["1.1.1.1, not-an-address, 203.0.113.4"], PEER),
]


@pytest.mark.parametrize(("proxies", "forwarded", "expected"), CASES)
def test_an_asgi_request_s_address(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    scope = {"client": (PEER, 5000), "headers": [(b"x-forwarded-for", value.encode()) for value in forwarded]}
    assert scope_client_address(scope) == expected


@pytest.mark.parametrize(("proxies", "forwarded", "expected"), [case for case in CASES if len(case[1]) <= 1])
def test_a_django_request_s_address_reads_the_same(rf, settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    headers = {"HTTP_X_FORWARDED_FOR": forwarded[0]} if forwarded else {}
    assert client_address(rf.get("/", REMOTE_ADDR=PEER, **headers)) == expected


def test_a_request_without_a_peer_is_unknown(rf, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert scope_client_address({"headers": []}) == "unknown"
    request = rf.get("/")
    del request.META["REMOTE_ADDR"]
    assert client_address(request) == "unknown"
