"""A private, throwaway Virtuoso server for tests.

`VirtuosoServer` runs `virtuoso-t` in the foreground with its own `virtuoso.ini`
in a scratch folder: its own database files, the SQL (isql) port and the HTTP port
on free loopback ports (bound to 127.0.0.1 only), `DirsAllowed` covering the
scratch folder (files to load are copied there). Nothing of a system-wide install
(/etc/virtuoso-opensource-7, /var/lib/...) is used or touched.

Installing: when `virtuoso-t` is missing, only the package that holds the binaries,
`virtuoso-opensource-7-bin` (virtuoso-t, isql-vt; no maintainer scripts, no
questions, no system service), is installed. The full `virtuoso-opensource` package
is the fallback. Its debconf questions (package virtuoso-opensource-7) are
`dba-password` and `dba-password-again` (priority high), `http-server-port`,
`db-server-port` and `register-odbc-dsn` (low). The passwords are preseeded empty,
and DEBIAN_FRONTEND=noninteractive takes the defaults for the rest, so nothing
prompts; with an empty password the postinst leaves the system daemon disabled (it
may start it briefly through invoke-rc.d on 8890/1111, which a Docker
policy-rc.d refuses). None of that matters to the private server, which uses its
own files and ports.

Graphs: Virtuoso's /sparql endpoint, queried without `default-graph-uri`, reads the
union of *all* graphs, including its own system graphs (~2,500 triples of
`virtrdf:` quad-map metadata and a service description). Data is therefore loaded
into a named graph, and clients pass that graph as `default_graph`.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

DBA_PASSWORD = "dba"  # a fresh database's default; the server listens on loopback only
PACKAGE = "virtuoso-opensource-7-bin"
FALLBACK_PACKAGE = "virtuoso-opensource"


class VirtuosoUnavailable(RuntimeError):
    """Virtuoso is not installed and cannot be installed here."""


def find_binaries() -> tuple[str, str] | None:
    """(virtuoso-t, isql) paths, or None. Debian names the client isql-vt; upstream calls it isql."""
    server = shutil.which("virtuoso-t")
    if not server:
        return None
    client = shutil.which("isql-vt")
    if not client:
        sibling = Path(server).with_name("isql")  # upstream layout; unixODBC's isql is elsewhere
        client = str(sibling) if sibling.is_file() else None
    return (server, client) if client else None


def ensure_installed(timeout_s: float = 600) -> tuple[str, str]:
    """Find Virtuoso, installing it through apt-get if needed; VirtuosoUnavailable if impossible."""
    found = find_binaries()
    if found:
        return found
    apt = shutil.which("apt-get")
    if not apt:
        raise VirtuosoUnavailable("virtuoso-t is not installed and there is no apt-get to install it")
    if os.geteuid() != 0:
        raise VirtuosoUnavailable("virtuoso-t is not installed and installing it needs root (apt-get)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "DEBCONF_NONINTERACTIVE_SEEN": "true"}
    log: list[str] = []

    def install(package: str) -> bool:
        cmd = [apt, "install", "-y", "-q", "--no-install-recommends", package]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout_s)
        log.append(f"$ {' '.join(cmd)}\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
        return done.returncode == 0 and find_binaries() is not None

    if install(PACKAGE):
        return find_binaries()  # type: ignore[return-value]
    _preseed_dba_password(env)
    if install(FALLBACK_PACKAGE):
        return find_binaries()  # type: ignore[return-value]
    update = subprocess.run([apt, "update", "-q"], env=env, capture_output=True, text=True, timeout=timeout_s)
    log.append(f"$ apt-get update\n{update.stderr[-800:]}")
    if install(PACKAGE):
        return find_binaries()  # type: ignore[return-value]
    raise VirtuosoUnavailable("apt-get could not install Virtuoso:\n" + "\n".join(log))


def _preseed_dba_password(env: dict) -> None:
    """Answer the full package's only questions (the dba password) before it can ask them."""
    selections = "".join(
        f"virtuoso-opensource-7 virtuoso-opensource-7/{q} password \n"
        for q in ("dba-password", "dba-password-again")
    )
    if shutil.which("debconf-set-selections"):
        subprocess.run(["debconf-set-selections"], input=selections, text=True, env=env, capture_output=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


INI_TEMPLATE = """\
[Database]
DatabaseFile       = {root}/virtuoso.db
ErrorLogFile       = {root}/virtuoso.log
LockFile           = {root}/virtuoso.lck
TransactionFile    = {root}/virtuoso.trx
xa_persistent_file = {root}/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = {root}/virtuoso-temp.db
TransactionFile    = {root}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort         = 127.0.0.1:{isql_port}
LiteMode           = 0
DisableUnixSocket  = 1
DisableTcpSocket   = 0
MaxClientConnections = 20
CheckpointInterval = 60
O_DIRECT           = 0
CaseMode           = 2
DirsAllowed        = ., {root}
NumberOfBuffers    = {buffers}
MaxDirtyBuffers    = {dirty_buffers}
ThreadsPerQuery    = 4
AsyncQueueMaxThreads = 10
MaxQueryMem        = 256M

[HTTPServer]
ServerPort         = 127.0.0.1:{http_port}
ServerRoot         = {root}/www
MaxClientConnections = 20
ServerThreads      = 20
MaxKeepAlives      = 10
KeepAliveTimeout   = 10
Charset            = UTF-8
EnabledGzipContent = 0

[Client]
SQL_PREFETCH_ROWS  = 100
SQL_PREFETCH_BYTES = 16000
SQL_QUERY_TIMEOUT  = 0
SQL_TXN_TIMEOUT    = 0

[SPARQL]
ResultSetMaxRows           = 1000000
MaxQueryCostEstimationTime = 400
MaxQueryExecutionTime      = 60
DeferInferenceRulesInit    = 0
"""


class VirtuosoServer:
    """One private `virtuoso-t` process; `start()`, `load()`, `stop()`."""

    def __init__(self, root: str | os.PathLike, binaries: tuple[str, str] | None = None, buffers: int = 10_000):
        """`buffers`: Virtuoso's page cache in 8 KB pages (10,000: 80 MB, enough for tests; bench.scale gives a
        large KG more)."""
        self.root = Path(root).resolve()
        self.buffers = buffers
        self.server_bin, self.isql_bin = binaries or ensure_installed()
        self.http_port = free_port()
        self.isql_port = free_port()
        while self.isql_port == self.http_port:
            self.isql_port = free_port()
        self.process: subprocess.Popen | None = None
        self.start_seconds: float | None = None

    @property
    def sparql_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/sparql"

    @property
    def log_path(self) -> Path:
        return self.root / "virtuoso.log"

    # ------------------------------------------------------------ life cycle
    def start(self, timeout_s: float = 90) -> "VirtuosoServer":
        (self.root / "www").mkdir(parents=True, exist_ok=True)
        (self.root / "data").mkdir(exist_ok=True)
        ini = self.root / "virtuoso.ini"
        ini.write_text(INI_TEMPLATE.format(root=self.root, isql_port=self.isql_port, http_port=self.http_port,
                                           buffers=self.buffers, dirty_buffers=self.buffers * 3 // 5))
        started = time.monotonic()
        self._console = open(self.root / "console.log", "wb")
        self.process = subprocess.Popen(
            [self.server_bin, "+configfile", str(ini), "+foreground"],
            cwd=self.root,
            stdin=subprocess.DEVNULL,
            stdout=self._console,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a Ctrl-C in pytest does not hit it mid-checkpoint
        )
        atexit.register(self.stop)
        try:
            self._wait_until_ready(started + timeout_s)
        except BaseException:
            self.stop()
            raise
        self.start_seconds = time.monotonic() - started
        return self

    def _wait_until_ready(self, deadline: float) -> None:
        probe = self.sparql_url + "?" + urllib.parse.urlencode({"query": "ASK { }"})
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"virtuoso-t exited with {self.process.returncode} on start:\n{self.log_tail()}")
            try:
                request = urllib.request.Request(probe, headers={"Accept": "application/sparql-results+json"})
                with urllib.request.urlopen(request, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"Virtuoso's HTTP endpoint did not come up at {self.sparql_url}:\n{self.log_tail()}")
            time.sleep(0.2)

    def stop(self, timeout_s: float = 20) -> int | None:
        """SIGTERM (Virtuoso shuts down quickly and cleanly on it), then SIGKILL; returns the exit code."""
        proc = self.process
        if proc is None:
            return None
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        console = getattr(self, "_console", None)
        if console is not None and not console.closed:
            console.close()
        return proc.returncode

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ports_closed(self) -> bool:
        return not _port_open(self.http_port) and not _port_open(self.isql_port)

    def log_tail(self, lines: int = 30) -> str:
        texts = []
        for path in (self.log_path, self.root / "console.log"):
            if path.is_file():
                texts.append("\n".join(path.read_text(errors="replace").splitlines()[-lines:]))
        return "\n".join(texts)

    # ------------------------------------------------------------ SQL and loading
    def isql(self, sql: str, timeout_s: float = 120) -> str:
        """Run SQL statements through isql; raise with isql's output on any error."""
        done = subprocess.run(
            [self.isql_bin, f"127.0.0.1:{self.isql_port}", "dba", DBA_PASSWORD, f"EXEC={sql}"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            stdin=subprocess.DEVNULL,
        )
        output = done.stdout + done.stderr
        if done.returncode != 0 or "*** Error" in output:
            raise RuntimeError(f"isql failed ({done.returncode}) on {sql[:200]!r}:\n{output[-2000:]}")
        return output

    def load(self, path: str | os.PathLike, graph_iri: str, base_iri: str = "") -> None:
        """Load an N-Triples or Turtle file into `graph_iri`, then checkpoint.

        The file is copied into the server's folder first, since Virtuoso reads only
        files under `DirsAllowed`. Parsing is strict (no relaxed-syntax flags), so a
        bad file fails here with isql's message.
        """
        source = Path(path)
        target = self.root / "data" / f"{time.time_ns()}-{source.name}"
        shutil.copyfile(source, target)
        self.isql(
            f"DB.DBA.TTLP_MT(file_to_string_output({_sql_string(str(target))}), "
            f"{_sql_string(base_iri)}, {_sql_string(graph_iri)}); checkpoint;"
        )

    def bulk_load(self, path: str | os.PathLike, graph_iri: str, timeout_s: float = 7200) -> None:
        """Load a large N-Triples file (gzipped or not) into `graph_iri` with Virtuoso's bulk loader (`ld_dir`,
        `rdf_loader_run`), which streams the file instead of reading it into one string, then checkpoint."""
        source = Path(path)
        folder = self.root / "data" / f"bulk-{time.time_ns()}"
        folder.mkdir(parents=True)
        os.link(source, folder / source.name) if source.stat().st_dev == folder.stat().st_dev else shutil.copyfile(
            source, folder / source.name)
        self.isql(f"ld_dir({_sql_string(str(folder))}, {_sql_string(source.name)}, {_sql_string(graph_iri)}); "
                  "rdf_loader_run(); checkpoint;", timeout_s=timeout_s)
        errors = self.isql("SELECT ll_file, ll_error FROM DB.DBA.LOAD_LIST WHERE ll_error IS NOT NULL;")
        if source.name in errors:
            raise RuntimeError(f"the bulk load of {source} failed:\n{errors[-2000:]}")

    def clear(self, graph_iri: str) -> None:
        self.isql(f"SPARQL CLEAR GRAPH <{graph_iri}>; checkpoint;")


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
