"""The cluster's deployment files agree with each other: deploy/ and scripts/cluster.sh."""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
CLUSTER_SH = ROOT / "scripts" / "cluster.sh"
NODES = ("node-a", "node-b", "node-c")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml", reason="PyYAML reads deploy/compose.yaml")
    doc: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text("utf-8"))
    return doc


def flags(command: list[str]) -> dict[str, list[str]]:
    """A node's command line as flag -> the values given to it, in order."""
    out: dict[str, list[str]] = {}
    for flag, value in itertools.pairwise(command):
        if flag.startswith("--"):
            out.setdefault(flag, []).append(value)
    return out


def node_flags(compose: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    """Each node service's flags."""
    services = compose["services"]
    return {name: flags(services[name]["command"]) for name in NODES}


def test_the_nodes_share_one_redis_and_one_database(compose: dict[str, Any]) -> None:
    nodes = node_flags(compose)
    assert sorted(s for s in compose["services"] if s.startswith("node-")) == list(NODES)
    assert {tuple(f["--cluster"]) for f in nodes.values()} == {("redis://redis:6379/0",)}
    dbs = {tuple(f["--db"]) for f in nodes.values()}
    assert len(dbs) == 1
    (db,) = dbs.pop()
    password = r"\$\{SHEDKIT_DB_PASSWORD:-\w+\}"
    assert re.fullmatch(rf"postgresql://shedkit:{password}@postgres:5432/shedkit", db)
    assert {"postgres", "redis"} <= set(compose["services"])


def test_each_node_has_its_own_id_and_waits_for_its_stores(compose: dict[str, Any]) -> None:
    nodes = node_flags(compose)
    assert [f["--node-id"] for f in nodes.values()] == [["a"], ["b"], ["c"]]
    for name in NODES:
        service = compose["services"][name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert {dep: c["condition"] for dep, c in service["depends_on"].items()} == {
            "postgres": "service_healthy",
            "redis": "service_healthy",
        }
        # The health check's Host must be a name the node trusts.
        assert "/api/health" in " ".join(service["healthcheck"]["test"])
        assert "127.0.0.1" in nodes[name]["--trusted-host"]


def test_nginx_waits_for_every_node(compose: dict[str, Any]) -> None:
    nginx = compose["services"]["nginx"]
    assert sorted(nginx["depends_on"]) == list(NODES)
    assert any(port.endswith(":80") for port in nginx["ports"])


def test_the_load_balancers_name_the_same_nodes() -> None:
    nginx = (DEPLOY / "nginx.conf").read_text("utf-8")
    haproxy = (DEPLOY / "haproxy.cfg").read_text("utf-8")
    upstream = re.search(r"upstream shedkit \{(.*?)\}", nginx, re.S)
    assert upstream is not None
    assert re.findall(r"server (node-\w+):8000 max_fails=\d+ fail_timeout=\w+;", upstream[1]) == [
        *NODES
    ]
    assert "least_conn;" in upstream[1]
    assert re.findall(r"^\s*server (node-\w+) \1:8000$", haproxy, re.M) == [*NODES]


def test_the_load_balancers_carry_websockets_and_check_health() -> None:
    nginx = (DEPLOY / "nginx.conf").read_text("utf-8")
    haproxy = (DEPLOY / "haproxy.cfg").read_text("utf-8")
    ws = re.search(r"location /ws/ \{(.*?)\}", nginx, re.S)
    assert ws is not None
    assert "proxy_set_header Upgrade $http_upgrade;" in ws[1]
    assert "proxy_read_timeout 1h;" in ws[1]
    # The node compares a WebSocket's Origin with Host, port included.
    assert nginx.count("proxy_set_header Host $http_host;") == 2
    assert "proxy_next_upstream error timeout;" in nginx
    assert re.search(r"^\s*option httpchk GET /api/health$", haproxy, re.M)
    assert re.search(r"^\s*timeout tunnel 1h$", haproxy, re.M)
    assert re.search(r"^\s*balance roundrobin$", haproxy, re.M)


@pytest.mark.parametrize("shell", ["sh", "bash"])
def test_the_cluster_script_parses(shell: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"no {shell} here")
    for script in (CLUSTER_SH, ROOT / "scripts" / "server-test-deps.sh"):
        subprocess.run([shell, "-n", str(script)], check=True)


def test_the_cluster_script_numbers_the_nodes_from_the_base_port() -> None:
    if shutil.which("sh") is None:
        pytest.skip("no sh here")
    run = subprocess.run(
        ["sh", str(CLUSTER_SH), "--port", "9000", "--dry-run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "NODES": "3"},
    )
    lines = run.stdout.splitlines()
    assert [line.split("--port ")[1].split()[0] for line in lines] == ["9001", "9002", "9003"]
    assert [line.split("--node-id ")[1] for line in lines] == ["a", "b", "c"]
    assert all(
        " --db postgresql://postgres@127.0.0.1:54329/shedkit_cluster"
        " --cluster redis://127.0.0.1:63790/0 " in line
        for line in lines
    )
    bad = subprocess.run(
        ["sh", str(CLUSTER_SH), "--nodes", "0", "--dry-run"], cwd=ROOT, capture_output=True
    )
    assert bad.returncode == 2


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        ([], {}, "would drop and create the database shedkit_cluster"),
        (["--keep-db"], {}, "would keep the database shedkit_cluster"),
        ([], {"KEEP_DB": "1"}, "would keep the database shedkit_cluster"),
    ],
)
def test_the_cluster_starts_on_a_fresh_database_unless_told(
    argv: list[str], env: dict[str, str], said: str
) -> None:
    if shutil.which("sh") is None:
        pytest.skip("no sh here")
    run = subprocess.run(
        ["sh", str(CLUSTER_SH), "--nodes", "2", "--dry-run", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", **env},
    )
    assert said in run.stderr
    assert len(run.stdout.splitlines()) == 2  # the nodes' command lines only
    bad = subprocess.run(
        ["sh", str(CLUSTER_SH), "--dry-run"],
        cwd=ROOT,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "KEEP_DB": "yes"},
    )
    assert bad.returncode == 2


def test_a_failed_stop_keeps_its_marker_and_names_the_port_it_started_on(
    tmp_path: Path,
) -> None:
    if shutil.which("sh") is None:
        pytest.skip("no sh here")
    marker = tmp_path / "pg-started"
    # Bin directory, port and data directory as the script records them on a start.
    recorded = f"{tmp_path / 'no-bin'}\n54338\n{tmp_path / 'no-data'}\n"
    marker.write_text(recorded)
    run = subprocess.run(
        ["sh", str(ROOT / "scripts" / "server-test-deps.sh"), str(tmp_path), "stop"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "PG_PORT": "54329"},
    )
    assert run.returncode == 1
    assert "port 54338" in run.stderr and "pg-started kept" in run.stderr
    assert marker.read_text() == recorded
