"""The lake on an object store (issue 25 item 4): ``s3://`` data and raw payloads through DuckDB's httpfs
(pinned wheel), credentials from the usual AWS settings, against a real S3-compatible server on
loopback (moto's server, from PyPI); and the raw payloads of a local lake beside its data folder.

Real PostgreSQL (``postgres_loopback``), real DuckLake, a real S3 server process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import FIXTURES, backend_env
from pipelines.documents import read_local_document
from scripts import pg_loopback
from warehouse.load.ingest import ingest
from warehouse.read.queries import QueryRefused, run_query
from warehouse.store import lake
from warehouse.store.db import connect, raw_dir_for
from warehouse.store.integrity import integrity_problems
from warehouse.store.lake_maintenance import figures
from warehouse.store.raw_documents import loaded_documents

pytestmark = pytest.mark.slow  # PostgreSQL and an S3 server process

REPO = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent
SMALL = FIXTURES / "sec" / "data.sec.gov" / "submissions" / "CIK0001800903.json.gz"
KEY_ID, SECRET = "edgar-test-key", "edgar-test-secret-Zq7"


@pytest.fixture(scope="module")
def s3_server(tmp_path_factory) -> dict[str, str]:
    """moto's S3 server on a free loopback port with a bucket ``edgar``; the AWS settings to reach it."""
    server = BIN / "moto_server"
    if not server.exists():
        pytest.skip("the object store tests need moto[server] (the dev extra)")
    port = pg_loopback.free_port()
    log = tmp_path_factory.mktemp("moto") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(server), "-H", "127.0.0.1", "-p", str(port)], stdout=out, stderr=out)
    env = {"AWS_ACCESS_KEY_ID": KEY_ID, "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_REGION": "us-east-1",
           "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}
    try:
        import boto3

        s3 = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], aws_access_key_id=KEY_ID,
                          aws_secret_access_key=SECRET, region_name="us-east-1")
        for _ in range(120):
            try:
                s3.create_bucket(Bucket="edgar")
                break
            except Exception:  # noqa: BLE001 - the server is still starting
                time.sleep(0.5)
        else:
            pytest.fail(f"moto's S3 server did not start: {log.read_text()[-2000:]}")
        yield env
    finally:
        proc.terminate()
        proc.wait(30)


def _objects(env: dict[str, str], prefix: str) -> list[str]:
    import boto3

    s3 = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], aws_access_key_id=KEY_ID,
                      aws_secret_access_key=SECRET, region_name="us-east-1")
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket="edgar", Prefix=prefix)
    return [o["Key"] for page in pages for o in page.get("Contents", [])]


def test_the_lake_on_s3_data_and_raw_payloads(postgres_loopback, s3_server, tmp_path):
    """Before: 'cannot attach the lake ... extension httpfs', no way to give credentials, raw payloads in
    ./edgar.raw. Now the lake's Parquet and its raw payloads are objects of the bucket; a sandboxed
    reader reads the warehouse from them and nothing else; the loaded documents read back from the
    raw objects; maintenance's figures count the objects."""
    env = {**postgres_loopback.new("s3lake"), lake.DATA_ENV: "s3://edgar/lake", **s3_server}
    cwd = os.getcwd()
    os.chdir(tmp_path)  # ./edgar.raw must not appear
    try:
        with backend_env(env):
            cfg = lake.lake_config()
            assert cfg.raw_dir == "s3://edgar/lake.raw" == raw_dir_for("ignored.duckdb")
            con = connect("unused")
            try:
                ingest(con, [read_local_document(SMALL)], raw_dir=raw_dir_for("ignored.duckdb"), command="load")
                raw_path = con.execute("SELECT raw_path FROM source_documents").fetchone()[0]
                assert integrity_problems(con, cfg.raw_dir) == []
                [doc] = list(loaded_documents(con, cfg.raw_dir))
                assert doc.body == read_local_document(SMALL).body
                stored = figures(con, cfg)
            finally:
                con.close()
            reader = connect("unused", read_only=True)
            try:
                assert run_query(reader, "SELECT count(*) FROM companies").rows == [(1,)]
                for escape in ("SELECT * FROM read_blob('s3://edgar/lake.raw/**')", "SELECT * FROM glob('s3://edgar/**')",
                               "SELECT * FROM duckdb_secrets()"):
                    with pytest.raises(QueryRefused):
                        run_query(reader, escape)
            finally:
                reader.close()
    finally:
        os.chdir(cwd)
    assert not (tmp_path / "edgar.raw").exists()
    data = _objects(s3_server, "lake/")
    assert len(data) == stored.stored_files > 0 and all(k.endswith(".parquet") for k in data)
    assert _objects(s3_server, "lake.raw/") == [f"lake.raw/{raw_path}"]
    # the CLI, configured by the usual settings only: a reader process answers from the bucket
    plain = {k: v for k, v in os.environ.items() if not k.startswith(("EDGAR_WAREHOUSE_", "AWS_"))}
    sql = subprocess.run([str(BIN / "edgar-warehouse"), "--lake-catalog", env[lake.CATALOG_ENV], "--lake-data",
                          "s3://edgar/lake", "sql", "SELECT count(*) AS n FROM filings", "--format", "csv"],
                         env={**plain, **s3_server}, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert sql.returncode == 0 and sql.stdout.split()[0] == "n" and int(sql.stdout.split()[1]) > 0, sql.stderr


def test_a_refused_key_is_one_line_without_the_secret(postgres_loopback, s3_server, tmp_path):
    """Wrong credentials: the CLI says the object store refused, in one line, and never prints the key."""
    env = {**postgres_loopback.new("s3bad"), lake.DATA_ENV: "s3://no-such-bucket/lake", **s3_server,
           "AWS_SECRET_ACCESS_KEY": "wrong-secret-Kq9x"}
    plain = {k: v for k, v in os.environ.items() if not k.startswith(("EDGAR_WAREHOUSE_", "AWS_"))}
    proc = subprocess.run([str(BIN / "edgar-warehouse"), "-v", "load", str(SMALL)], env={**plain, **env}, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "wrong-secret-Kq9x" not in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]


def test_a_local_lake_keeps_its_raw_payloads_beside_its_data_folder(backend_of, tmp_path):
    """LakeConfig.raw_dir is used: a local lake's payloads go beside its data folder, not into the
    current directory's ./edgar.raw (before, every machine kept its own)."""
    env = backend_of("ducklake")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with backend_env(env):
            raw = raw_dir_for("edgar.duckdb")
            assert raw == Path(env[lake.DATA_ENV] + ".raw")
            con = connect("unused")
            try:
                ingest(con, [read_local_document(SMALL)], raw_dir=raw, command="load")
                raw_path = con.execute("SELECT raw_path FROM source_documents").fetchone()[0]
            finally:
                con.close()
    finally:
        os.chdir(cwd)
    assert (raw / raw_path).is_file() and not (tmp_path / "edgar.raw").exists()
