"""A remote KG: any SPARQL 1.1 endpoint, reached over HTTP (urllib, the SPARQL 1.1 protocol).

The engine sees the same `KGStore` as with the embedded store: `select` returns
`Bindings` of plain `Term`s, and every failure is one of the `KGError`s with a
message meant for the user:

* `EndpointUnreachable` - nothing answered at the URL (refused, DNS, reset, a
  gateway error) after `retries` more attempts with a short backoff, or what
  answered is not a SPARQL endpoint (404, login required). Only these transient
  failures are retried; a rejected query or a timeout is never sent again.
* `QueryTimeout` - the query ran past its limit, client side (socket timeout) or
  server side. Virtuoso is sent the limit too (its `timeout` parameter, in ms) and
  then answers an overrunning query with HTTP 200 and *partial* results, flagged
  only by the header `X-SQL-State: S1TAT` ("anytime query"). Those partial rows
  are refused here, never returned: a COUNT would otherwise read as 0 and be cached.
* `QueryError` - the server rejected the query; its message is kept, trimmed.
* `EndpointRefused` - the store was opened with an `address_check` (the app does, for
  every URL a user gives) and the URL, or a redirect, leads to an address inside:
  loopback, the private network, cloud metadata (`kg_adapters.url_guard`).

Results are normalised to what the embedded (pyoxigraph) store gives for the same
data, so the two are interchangeable: a plain literal (no datatype, no language)
is `xsd:string` as in RDF 1.1, a language-tagged one is `rdf:langString` with its
tag in lower case, and SPARQL 1.0 JSON's "typed-literal" is a literal.

Limits: every query has a time limit (`timeout_s` unless the call names another), sent
to the server and kept by the client over the whole answer, not only per socket read,
so a server that answers one byte at a time still ends at the limit. At most
`max_rows` rows are kept (`truncated=True` beyond that); a server-side cap (Virtuoso's
`ResultSetMaxRows`, announced by the header `X-SPARQL-MaxRows` when a result reaches
it) also sets `truncated`. An answer larger than `max_response_bytes` is refused before
it is parsed, so an endpoint cannot fill the server's memory.

Fingerprint: `endpoint:{url}:{triple count}:{hash of a small sample}` (the default
graph, when one is set, is part of the URL's place). It is computed lazily, once
per store object, from a COUNT of the triples and the first 64 triples the
endpoint returns. Data that changes without changing the count *or* those sample
triples (e.g. one object replaced by another in a large graph) is not noticed, so
the executor's on-disk cache, keyed on this fingerprint, may serve answers computed
before the change. Open a new store object (or clear the cache) after editing the
data behind an endpoint. Where the endpoint cannot count its triples in time the
count reads "?" and only the sample guards the cache.
"""

from __future__ import annotations

import functools
import hashlib
import http.client
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from . import url_guard
from .base import (
    RDFS_LABEL,
    XSD,
    BadAnswer,
    Bindings,
    EndpointRefused,
    EndpointUnreachable,
    KGError,
    QueryError,
    QueryTimeout,
    StoreInfo,
    Term,
)
from .url_guard import AddressCheck

XSD_STRING = XSD + "string"
RDF_LANGSTRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
DEFAULT_MAX_ROWS = 100_000
DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024
USER_AGENT = "kgscout/1"
# SPARQL JSON results, under every name servers use for them; `format`/`output`/`results` are read by
# Virtuoso and others that ignore the Accept header.
_ACCEPT = "application/sparql-results+json,application/json,text/javascript,application/javascript"
_FORMAT_PARAMS = [("format", "json"), ("output", "json"), ("results", "json")]
_READ_CHUNK = 64 * 1024
_ERROR_BODY_BYTES = 64 * 1024  # of an error page: enough for its message
# Longer queries go by POST: URLs past a few KB are refused by many servers/proxies.
_MAX_GET_QUERY = 1500
# The client waits this much longer than the server-side limit, so that the server's
# own timeout answer (a clean message) arrives before the socket gives up.
_CLIENT_GRACE_S = 1.0
_MESSAGE_LIMIT = 400
_SAMPLE_SIZE = 64
_TIMEOUT_HINTS = re.compile(
    r"S1T00|S1TAT|timeout|timed out|time limit|estimated execution time|exceeds the limit", re.IGNORECASE
)
_TRANSIENT_HTTP = {502, 503, 504}
TEXT_SEARCH_VIRTUOSO = "bif:contains"
_UNPROBED = object()


class _Transient(Exception):
    """A failure worth another attempt: nothing (healthy) answered at the URL."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class SparqlEndpointStore:
    """A read-only view of a remote SPARQL endpoint; see the module docstring."""

    def __init__(
        self,
        url: str,
        timeout_s: float = 20.0,
        retries: int = 2,
        default_graph: str | None = None,
        max_rows: int = DEFAULT_MAX_ROWS,
        backoff_s: float = 0.2,
        server_timeout_param: str | None = "timeout",
        address_check: AddressCheck | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    ):
        """`address_check`: None reaches any address (the command line, tests); the app passes
        `url_guard.refusal_reason`, so that no URL a user gives, nor a redirect, reaches inside."""
        url = (url or "").strip()
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise EndpointUnreachable(f"not an http(s) URL: {url!r}; expected e.g. http://localhost:8890/sparql")
        if address_check is not None:
            url_guard.check_url(url, address_check)
        # Parameters written into the URL (`...sparql?default-graph-uri=...`) are sent with
        # every query; the URL is kept without them, since each request writes its own query string.
        self._extra_params: list[tuple[str, str]] = []
        for name, value in parse_qsl(parts.query, keep_blank_values=True):
            if name == "default-graph-uri" and not default_graph:
                default_graph = value
            elif name not in ("query", "format", "output", "results"):
                self._extra_params.append((name, value))
        self.url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        self.timeout_s = timeout_s
        self.retries = max(0, int(retries))
        self.default_graph = default_graph or None
        self.max_rows = max_rows
        self.backoff_s = backoff_s
        # Virtuoso (and Stardog) read `timeout` in milliseconds; most others ignore it (GraphDB
        # reads seconds, so there the limit is merely generous). None sends no such parameter.
        self.server_timeout_param = server_timeout_param
        self.max_response_bytes = max_response_bytes
        self._opener = _opener(address_check)
        self._info: StoreInfo | None = None
        self._text_search: str | None | object = _UNPROBED
        self._lock = threading.Lock()

    # ----------------------------------------------------------------- identity
    @property
    def info(self) -> StoreInfo:
        """Computed on first use (two small queries), then kept for this object's life."""
        with self._lock:
            if self._info is None:
                self._info = self._compute_info()
            return self._info

    def _place(self) -> str:
        """The URL with what selects the data (default graph, extra parameters), for the fingerprint."""
        params = ([("default-graph-uri", self.default_graph)] if self.default_graph else []) + self._extra_params
        return f"{self.url}?{urlencode(params)}" if params else self.url

    def _compute_info(self) -> StoreInfo:
        try:
            count_rows = self.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").rows
            triples: int | None = int(float(count_rows[0][0].value)) if count_rows and count_rows[0][0] else 0
        except QueryTimeout:
            triples = None  # too big to count in time: the sample alone has to do
        sample = self.select(f"SELECT ?s ?p ?o WHERE {{ ?s ?p ?o }} LIMIT {_SAMPLE_SIZE}").rows
        digest = hashlib.sha256()
        for line in sorted(_n3_row(row) for row in sample):
            digest.update(line.encode("utf-8") + b"\n")
        count_text = "?" if triples is None else str(triples)
        parts = urlsplit(self.url)
        return StoreInfo(
            name=parts.netloc + parts.path,
            kind="endpoint",
            location=self.url,
            fingerprint=f"endpoint:{self._place()}:{count_text}:{digest.hexdigest()[:16]}",
            triples=triples,
            extra={"default_graph": self.default_graph},
        )

    # ----------------------------------------------------------------- querying
    def check(self, timeout_s: float | None = None) -> float:
        """Ask a trivial query; return its round trip in ms or raise EndpointUnreachable.

        For the UI's "enter an endpoint URL" flow: every failure, including a URL
        that answers but not as a SPARQL endpoint, becomes one clear message.
        """
        limit = min(self.timeout_s, 10.0) if timeout_s is None else timeout_s
        try:
            result = self.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", timeout_s=limit)
        except QueryTimeout as err:
            raise EndpointUnreachable(f"the SPARQL endpoint at {self.url} did not answer within {limit:g} s") from err
        except QueryError as err:
            raise EndpointUnreachable(
                f"{self.url} answered, but not as a SPARQL endpoint would: {err}"
            ) from err
        return result.elapsed_ms

    def select(self, sparql: str, timeout_s: float | None = None) -> Bindings:
        timeout = self.timeout_s if timeout_s is None else timeout_s
        start = time.perf_counter()
        use_post = len(sparql) > _MAX_GET_QUERY
        attempt = 0
        while True:
            try:
                status, headers, body = self._request(sparql, timeout, use_post)
                break
            except _URITooLong:
                if use_post:
                    raise QueryError(f"the endpoint at {self.url} refused the query as too long") from None
                use_post = True  # no attempt spent: the same query, sent the other way
            except _Transient as err:
                if attempt >= self.retries:
                    tries = f"{attempt + 1} attempt{'s' * (attempt > 0)}"
                    raise EndpointUnreachable(
                        f"cannot reach the SPARQL endpoint at {self.url}: {err.reason} ({tries})"
                    ) from None
                time.sleep(self.backoff_s * (2**attempt))
                attempt += 1
        bindings = self._bindings(status, headers, body, timeout)
        elapsed = (time.perf_counter() - start) * 1000
        return Bindings(bindings.vars, bindings.rows, bindings.truncated, elapsed)

    def text_search(self, timeout_s: float = 10.0) -> str | None:
        """The endpoint's full-text search over literals, probed once: TEXT_SEARCH_VIRTUOSO (`?l bif:contains
        '"word"'`) where Virtuoso answers it with a free-text index over the labels, else None (another server,
        or Virtuoso without that index: `bif:contains` then finds nothing). The probe looks up a word of one
        of the endpoint's own labels, which a working index must find."""
        with self._lock:
            if self._text_search is not _UNPROBED:
                return self._text_search
        found = None
        try:
            rows = self.select(f"SELECT ?l WHERE {{ ?x <{RDFS_LABEL}> ?l FILTER(isLiteral(?l)) }} LIMIT 50",
                               timeout_s=timeout_s).rows
            words = [w for (term,) in rows if term is not None for w in re.findall(r"[^\W\d_]{4,}", term.value)]
            if words:
                probe = (f"SELECT ?x WHERE {{ ?x <{RDFS_LABEL}> ?l . ?l bif:contains '\"{words[0]}\"' }} LIMIT 1")
                if self.select(probe, timeout_s=timeout_s).rows:
                    found = TEXT_SEARCH_VIRTUOSO
        except KGError:
            found = None  # not Virtuoso (a syntax error), or no index in time
        with self._lock:
            self._text_search = found
        return found

    def close(self) -> None:
        """Nothing is held open between queries (one connection per request)."""

    # ----------------------------------------------------------------- HTTP
    def _http_request(self, sparql: str, timeout: float | None, use_post: bool) -> urllib.request.Request:
        """A SPARQL 1.1 protocol query: GET with the parameters in the URL, or POST with them form-encoded."""
        params = [("default-graph-uri", self.default_graph)] if self.default_graph else []
        params += self._extra_params
        if timeout is not None and self.server_timeout_param:
            params.append((self.server_timeout_param, str(max(1, int(timeout * 1000)))))
        encoded = urlencode([*params, ("query", sparql), *_FORMAT_PARAMS])
        headers = {"User-Agent": USER_AGENT, "Accept": _ACCEPT}
        if use_post:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            return urllib.request.Request(self.url, data=encoded.encode("ascii"), headers=headers, method="POST")
        return urllib.request.Request(f"{self.url}?{encoded}", headers=headers, method="GET")

    def _request(self, sparql: str, timeout: float | None, use_post: bool) -> tuple[int, dict, bytes]:
        """(status, headers, body) of one attempt; errors classified for `select`.

        The client waits `timeout` plus a grace for the whole answer (`_read_body`)."""
        request = self._http_request(sparql, timeout, use_post)
        client_timeout = None if timeout is None else max(0.05, timeout + _CLIENT_GRACE_S)
        deadline = None if client_timeout is None else time.monotonic() + client_timeout
        try:
            with self._opener.open(request, timeout=client_timeout) as response:
                body = self._read_body(response, deadline)
                headers = {k.lower(): v for k, v in response.headers.items()}
                return getattr(response, "status", 200), headers, body
        except urllib.error.HTTPError as err:
            try:
                text = err.read(_ERROR_BODY_BYTES).decode("utf-8", "replace")
            except Exception:  # noqa: BLE001 - the body is only decoration
                text = ""
            self._raise_http(err.code, _trim(text) or str(err.reason), timeout)
        except urllib.error.URLError as err:
            reason = err.reason
            if isinstance(reason, (socket.timeout, TimeoutError)):
                raise self._timeout(timeout) from None
            raise _Transient(_reason_text(reason)) from None
        except (socket.timeout, TimeoutError):
            raise self._timeout(timeout) from None
        except (http.client.HTTPException, ConnectionError) as err:
            raise _Transient(_reason_text(err)) from None
        except OSError as err:
            raise _Transient(_reason_text(err)) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _read_body(self, response: http.client.HTTPResponse, deadline: float | None) -> bytes:
        """The whole answer, read a chunk at a time against the deadline and the size cap.

        The socket timeout bounds each read only; a server that sends a byte a second would
        otherwise hold the query for ever, and one that sends gigabytes would fill memory."""
        chunks, size = [], 0
        while True:
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError("the answer did not arrive in time")
            chunk = response.read1(_READ_CHUNK)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > self.max_response_bytes:
                raise QueryError(
                    f"the SPARQL endpoint at {self.url} answered with more than "
                    f"{self.max_response_bytes / 1024 / 1024:g} MB (the limit); ask for fewer rows"
                )
            chunks.append(chunk)

    def _timeout(self, timeout: float | None) -> QueryTimeout:
        limit = f" {timeout:g} s" if timeout is not None else ""
        return QueryTimeout(f"the query ran past its time limit{limit} at {self.url}")

    def _raise_http(self, code: int | None, message: str, timeout: float | None) -> None:
        where = f"the SPARQL endpoint at {self.url}"
        if code == 414:
            raise _URITooLong()
        if code in _TRANSIENT_HTTP:
            raise _Transient(f"HTTP {code}: {message}" if message else f"HTTP {code}")
        if code == 404:
            raise EndpointUnreachable(f"no SPARQL endpoint at {self.url} (HTTP 404 not found)")
        if code in (401, 403):
            raise EndpointUnreachable(f"{where} refused access (HTTP {code}); it needs credentials")
        if code == 408 or (code is not None and code >= 500 and _TIMEOUT_HINTS.search(message)):
            raise QueryTimeout(f"{self._timeout(timeout)}: {message}")
        raise QueryError(f"{where} rejected the query (HTTP {code}): {message}")

    # ----------------------------------------------------------------- results
    def _bindings(self, status: int, headers: dict, body: bytes, timeout: float | None) -> Bindings:
        state = headers.get("x-sql-state", "")
        if state:  # Virtuoso answered 200 but the query did not complete (anytime query)
            message = _trim(headers.get("x-sql-message", ""))
            if state.upper() in ("S1TAT", "S1T00") or _TIMEOUT_HINTS.search(message):
                raise QueryTimeout(f"{self._timeout(timeout)}; the server had only partial results")
            raise QueryError(f"the SPARQL endpoint at {self.url} reported {state}: {message}")
        try:
            data = json.loads(body.decode("utf-8"))
            names = tuple(data["head"].get("vars", ()))
        except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
            kind = headers.get("content-type", "unknown content")
            raise BadAnswer(
                f"{self.url} did not answer with SPARQL JSON results (got {kind}: {_trim(body[:200].decode('utf-8', 'replace'))!r})"
            ) from None
        if "results" not in data:
            raise QueryError("only SELECT queries are supported here")
        solutions = data["results"].get("bindings", [])
        truncated = len(solutions) > self.max_rows
        server_cap = headers.get("x-sparql-maxrows")
        if server_cap and server_cap.strip().isdigit() and len(solutions) >= int(server_cap):
            truncated = True
        try:
            rows = tuple(
                tuple(_term(solution.get(name)) for name in names) for solution in solutions[: self.max_rows]
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise BadAnswer(f"{self.url} sent a malformed result row: {err!r}") from None
        return Bindings(names, rows, truncated, 0.0)


class _URITooLong(Exception):
    pass


def _opener(address_check: AddressCheck | None) -> urllib.request.OpenerDirector:
    """urllib's opener, with redirects limited to http(s) and, given a check, every connection checked."""
    handlers: list[urllib.request.BaseHandler] = [_CheckedRedirects(address_check)]
    if address_check is not None:
        handlers += [_GuardedHTTPHandler(address_check), _GuardedHTTPSHandler(address_check)]
    return urllib.request.build_opener(*handlers)


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to http(s), and only where the address check passes its URL."""

    def __init__(self, address_check: AddressCheck | None):
        super().__init__()
        self.address_check = address_check

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001 - urllib's signature
        if urlsplit(newurl).scheme.lower() not in url_guard.ALLOWED_SCHEMES:
            raise EndpointRefused(f"the endpoint redirected to {newurl!r}; only http and https are followed")
        if self.address_check is not None:
            url_guard.check_url(newurl, self.address_check)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _guarded(connection_class: type[http.client.HTTPConnection], address_check: AddressCheck):
    """A connection class whose sockets go only to addresses the check passes (url_guard.connect)."""

    class Guarded(connection_class):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._create_connection = functools.partial(url_guard.connect, check=address_check)

    return Guarded


class _GuardedHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, address_check: AddressCheck):
        super().__init__()
        self._connection = _guarded(http.client.HTTPConnection, address_check)

    def http_open(self, req):  # noqa: ANN001 - urllib's signature
        return self.do_open(self._connection, req)


class _GuardedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, address_check: AddressCheck):
        super().__init__()
        self._connection = _guarded(http.client.HTTPSConnection, address_check)

    def https_open(self, req):  # noqa: ANN001 - urllib's signature
        return self.do_open(self._connection, req, context=self._context)


def _term(binding: dict | None) -> Term | None:
    if binding is None:
        return None
    kind, value = binding["type"], binding["value"]
    if kind == "uri":
        return Term("iri", value)
    if kind in ("literal", "typed-literal"):
        lang = binding.get("xml:lang") or binding.get("lang")
        if lang:
            return Term("literal", value, RDF_LANGSTRING, lang.lower())
        return Term("literal", value, binding.get("datatype") or XSD_STRING)
    if kind == "bnode":
        return Term("bnode", value)
    raise KGError(f"unexpected term type in result: {kind!r}")


def _n3_row(row: tuple[Term | None, ...]) -> str:
    """A stable text form of a sample row; blank node labels vary per query, so they are masked."""
    out = []
    for term in row:
        if term is None:
            out.append("-")
        elif term.kind == "bnode":
            out.append("_:b")
        elif term.kind == "iri":
            out.append(f"<{term.value}>")
        else:
            out.append(json.dumps(term.value) + (f"@{term.lang}" if term.lang else f"^^<{term.datatype}>"))
    return " ".join(out)


def _trim(text: str) -> str:
    """One line, without the query echo some servers append (Virtuoso: "SPARQL query: ...")."""
    text = re.split(r"\n\s*SPARQL query:", text, maxsplit=1)[0]
    text = " ".join(text.split())
    return text if len(text) <= _MESSAGE_LIMIT else text[: _MESSAGE_LIMIT - 3] + "..."


def _reason_text(reason: object) -> str:
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, socket.gaierror):
        return f"unknown host ({reason.strerror or reason})"
    if isinstance(reason, ConnectionResetError):
        return "connection reset"
    if isinstance(reason, http.client.RemoteDisconnected):
        return "the server closed the connection without answering"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    return str(reason) or type(reason).__name__
