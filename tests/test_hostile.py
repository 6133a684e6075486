"""What a public app refuses to do for anyone who can type into it: reach into its own machine or network
through an endpoint URL (kg_adapters.url_guard), read an endpoint's answer without end, or let a query run
without a time or row limit.

Endpoints here are small HTTP servers on loopback addresses. The app's real check refuses every loopback
address, so the redirect tests pass a check that refuses 127.0.0.1 only and serve from 127.0.0.2: the
mechanism (every connection and every redirect checked) is the real one; which addresses are inside is
tested on its own, address by address.
"""

from __future__ import annotations

import argparse
import http.server
import ipaddress
import socket
import threading
import time
from typing import Callable

import pytest

from engine.__main__ import build_parser
from engine.__main__ import main as cli
from engine.config import ScoutConfig, add_config_flags
from engine.programs.kg import KnowledgeGraph
from kg_adapters import url_guard
from kg_adapters.base import EndpointRefused, QueryError, QueryTimeout
from kg_adapters.sparql_endpoint import SparqlEndpointStore
from tests.conftest import OPS_KGS

ANSWER = b'{"head": {"vars": ["s"]}, "results": {"bindings": [{"s": {"type": "uri", "value": "http://e/1"}}]}}'


# ------------------------------------------------------------------ which addresses are inside
@pytest.mark.parametrize("address, reason", [
    ("127.0.0.1", "loopback"), ("127.8.9.10", "loopback"), ("::1", "loopback"),
    ("10.0.0.1", "private"), ("172.16.5.4", "private"), ("192.168.1.1", "private"), ("fd12::1", "private"),
    ("169.254.1.1", "link-local"), ("fe80::1", "link-local"),
    ("169.254.169.254", "cloud metadata"), ("fd00:ec2::254", "cloud metadata"), ("168.63.129.16", "cloud metadata"),
    ("100.100.100.200", "cloud metadata"), ("192.0.0.192", "cloud metadata"),
    ("224.0.0.1", "multicast"), ("ff02::1", "multicast"), ("0.0.0.0", "unspecified"), ("::", "unspecified"),
    ("240.0.0.1", "reserved"), ("100.64.0.1", "not a public"),
    ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"),  # IPv4-mapped
    ("2002:7f00:1::", "loopback"), ("64:ff9b::a00:1", "private"), ("::7f00:1", "reserved"),  # 6to4, NAT64, compatible
])
def test_inside_addresses_are_refused_with_their_kind(address: str, reason: str) -> None:
    assert reason in (url_guard.refusal_reason(ipaddress.ip_address(address)) or "")


@pytest.mark.parametrize("address", ["8.8.8.8", "151.101.1.1", "2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::",
                                     "64:ff9b::808:808"])
def test_public_addresses_pass(address: str) -> None:
    assert url_guard.refusal_reason(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8890/sparql", "http://localhost/sparql", "http://2130706433/", "http://0x7f.1/",
    "http://017700000001/", "http://127.1/", "http://0x7f000001/", "http://[::1]:8890/sparql",
    "http://[::ffff:127.0.0.1]/", "HTTP://LOCALHOST/", "https://user:pw@127.0.0.1/", "http://0.0.0.0:8890/",
    "http://169.254.169.254/latest/meta-data/", "http://[fe80::1%25eth0]/", "http://10.1.2.3/sparql",
])
def test_every_spelling_of_an_inside_host_is_refused(url: str) -> None:
    with pytest.raises(EndpointRefused) as refused:
        url_guard.check_url(url)
    message = str(refused.value)
    assert "refused to connect to" in message and url_guard.HOW_TO_ALLOW in message


@pytest.mark.parametrize("url", ["ftp://example.org/sparql", "file:///etc/passwd", "gopher://x/", "jar:http://x/"])
def test_only_http_and_https(url: str) -> None:
    with pytest.raises(EndpointRefused, match="only http and https"):
        url_guard.check_url(url)


def test_public_hosts_pass_and_unresolvable_ones_are_left_to_the_connection() -> None:
    url_guard.check_url("http://8.8.8.8/sparql")
    url_guard.check_url("https://[2606:4700::1111]/sparql")
    url_guard.check_url("http://no-such-host.invalid/sparql")  # fails later, as "unknown host"


@pytest.fixture
def rebinding(monkeypatch):
    """DNS that answers rebind.example with a public address first, then with 127.0.0.1."""
    answers = iter(["93.184.216.34", "127.0.0.1"])
    real = socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        if host != "rebind.example":
            return real(host, port, *args, **kwargs)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)


def test_a_name_that_resolves_inside_on_the_second_lookup_is_refused(rebinding) -> None:
    """DNS rebinding: public when checked, loopback when connected. The connection resolves once itself and
    connects only to the address it checked."""
    url_guard.check_url("http://rebind.example/sparql")
    with pytest.raises(EndpointRefused, match="loopback"):
        url_guard.connect(("rebind.example", 80), timeout=1)


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_the_store_checks_the_connection_itself(rebinding, scheme: str) -> None:
    """The store's check at opening passes (public); its connection, over http or https, is refused."""
    store = SparqlEndpointStore(f"{scheme}://rebind.example/sparql", retries=0,
                                address_check=url_guard.refusal_reason)
    with pytest.raises(EndpointRefused, match="rebind.example \\(127.0.0.1\\): it is a loopback address"):
        store.select("SELECT ?s WHERE { ?s ?p ?o }")


# ------------------------------------------------------------------ the endpoint store
class _Server:
    """A one-route HTTP server on a loopback address; `respond(handler)` writes each answer."""

    def __init__(self, host: str, respond: Callable[[http.server.BaseHTTPRequestHandler], None]):
        self.requests: list[str] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.requests.append(self.path)
                respond(self)

            do_POST = do_GET

            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer((host, 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://{host}:{self.httpd.server_address[1]}/sparql"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve():
    servers: list[_Server] = []

    def start(respond, host: str = "127.0.0.1") -> _Server:
        servers.append(_Server(host, respond))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def _json(handler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/sparql-results+json")
    handler.send_header("Content-Length", str(len(ANSWER)))
    handler.end_headers()
    handler.wfile.write(ANSWER)


def _redirect_to(target: str):
    def respond(handler) -> None:
        handler.send_response(302)
        handler.send_header("Location", target)
        handler.send_header("Content-Length", "0")
        handler.end_headers()
    return respond


def _refuse_127_0_0_1(address) -> str | None:
    """Inside, for these tests: only 127.0.0.1 (the servers that may be reached listen on 127.0.0.2)."""
    return "a loopback address" if str(address) == "127.0.0.1" else None


def test_the_app_refuses_a_loopback_endpoint_the_command_line_opens(serve) -> None:
    server = serve(_json)
    with pytest.raises(EndpointRefused, match="loopback"):
        SparqlEndpointStore(server.url, address_check=url_guard.refusal_reason)
    assert SparqlEndpointStore(server.url).select("SELECT ?s WHERE { ?s ?p ?o }").rows  # no check: the CLI
    assert len(server.requests) == 1


def test_a_redirect_inside_is_refused_and_never_followed(serve) -> None:
    inside = serve(_json, host="127.0.0.1")
    outside = serve(_redirect_to(inside.url), host="127.0.0.2")
    store = SparqlEndpointStore(outside.url, retries=0, address_check=_refuse_127_0_0_1)
    with pytest.raises(EndpointRefused, match="127.0.0.1"):
        store.select("SELECT ?s WHERE { ?s ?p ?o }")
    assert outside.requests and not inside.requests


def test_a_redirect_to_a_name_inside_is_refused(serve) -> None:
    outside = serve(_redirect_to("http://localhost:9/sparql"), host="127.0.0.2")
    store = SparqlEndpointStore(outside.url, retries=0, address_check=_refuse_127_0_0_1)
    with pytest.raises(EndpointRefused):
        store.select("SELECT ?s WHERE { ?s ?p ?o }")


def test_a_redirect_outside_is_still_followed(serve) -> None:
    target = serve(_json, host="127.0.0.3")
    outside = serve(_redirect_to(target.url), host="127.0.0.2")
    store = SparqlEndpointStore(outside.url, retries=0, address_check=_refuse_127_0_0_1)
    assert store.select("SELECT ?s WHERE { ?s ?p ?o }").rows[0][0].value == "http://e/1"
    assert len(target.requests) == 1


def test_a_redirect_to_another_scheme_is_refused_even_from_the_command_line(serve) -> None:
    server = serve(_redirect_to("ftp://127.0.0.1/etc/passwd"))
    with pytest.raises(EndpointRefused, match="only http and https"):
        SparqlEndpointStore(server.url, retries=0).select("SELECT ?s WHERE { ?s ?p ?o }")


def test_an_answer_larger_than_the_cap_is_refused_before_it_is_parsed(serve) -> None:
    def huge(handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/sparql-results+json")
        handler.end_headers()
        try:
            for _ in range(64):  # 4 MB, no Content-Length
                handler.wfile.write(b" " * 65536)
        except OSError:  # the client stopped reading at its cap
            pass

    server = serve(huge)
    store = SparqlEndpointStore(server.url, retries=0, max_response_bytes=1024 * 1024)
    with pytest.raises(QueryError, match="more than 1 MB"):
        store.select("SELECT ?s WHERE { ?s ?p ?o }")


def test_an_answer_dripping_a_byte_at_a_time_ends_at_the_time_limit(serve) -> None:
    """Each read is within the socket timeout, so only a deadline over the whole answer ends it."""
    def drip(handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/sparql-results+json")
        handler.end_headers()
        try:
            for _ in range(100):
                handler.wfile.write(b" ")
                handler.wfile.flush()
                time.sleep(0.1)
        except OSError:
            pass

    server = serve(drip)
    store = SparqlEndpointStore(server.url, retries=0)
    start = time.monotonic()
    with pytest.raises(QueryTimeout, match="time limit"):
        store.select("SELECT ?s WHERE { ?s ?p ?o }", timeout_s=0.3)
    assert time.monotonic() - start < 3  # the limit plus the client's 1 s grace, not the 10 s of dripping


# ------------------------------------------------------------------ who may allow it
def test_the_app_has_the_flag_the_command_line_has_not() -> None:
    parser = argparse.ArgumentParser()
    add_config_flags(parser)
    assert parser.parse_args(["--allow-private-endpoints"]).allow_private_endpoints is True
    assert ScoutConfig().allow_private_endpoints is False
    assert "--allow-private-endpoints" not in build_parser().format_help()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["schema", "--allow-private-endpoints"])


def test_the_command_line_reaches_loopback(capsys) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert cli(["schema", "--kg", f"http://127.0.0.1:{port}/sparql", "--endpoint-retries", "0"]) == 2
    error = capsys.readouterr().err
    assert "cannot reach the SPARQL endpoint" in error and "refused to connect" not in error


# ------------------------------------------------------------------ every query has a time and row limit
@pytest.fixture
def geo(tmp_path):
    kg = KnowledgeGraph.open(str(OPS_KGS["geo"]), ScoutConfig(cache_dir=str(tmp_path), max_answers=7,
                                                                query_timeout_s=0.3))
    yield kg
    kg.close()


def test_the_embedded_store_keeps_the_configured_rows_and_time(geo) -> None:
    result = geo.store.select("SELECT ?s WHERE { ?s ?p ?o }")
    assert len(result.rows) == 7 and result.truncated
    assert geo.store.timeout_s == 0.3


def test_a_query_past_its_limit_stops_instead_of_running_on(geo) -> None:
    """Without a timeout named, the store's own applies; the abandoned query stops at its next row."""
    geo.store.max_rows = 10**9  # about 10 million rows: many seconds to read
    start = time.monotonic()
    with pytest.raises(QueryTimeout, match="past 0.3 s"):
        geo.store.select("SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }")
    assert time.monotonic() - start < 1.5
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(t.name == "oxigraph-query" for t in threading.enumerate()):
        time.sleep(0.05)
    assert not any(t.name == "oxigraph-query" for t in threading.enumerate())
