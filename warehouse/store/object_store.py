"""The object store (``s3://``): DuckDB's httpfs from its pinned wheel, credentials from the usual settings.

The lake's data path (``EDGAR_WAREHOUSE_LAKE_DATA=s3://bucket/lake``) and its raw payloads
(``s3://bucket/lake.raw``, ``LakeConfig.raw_dir``) may live in an S3-compatible store. Every
connection that touches one loads ``httpfs`` from the ``duckdb-extension-httpfs`` wheel (``scale``
extra; no download) and gets one DuckDB secret made from the settings every S3 tool reads::

    AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN   # the keys (none: anonymous)
    AWS_REGION (or AWS_DEFAULT_REGION)                            # default us-east-1
    AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL)                     # another S3 service: MinIO, R2, ...

With an endpoint, requests use path-style URLs (``EDGAR_WAREHOUSE_S3_URL_STYLE=vhost`` to change)
and TLS as the endpoint's scheme says. The keys are remembered as secrets: never printed
(``warehouse.store.secrets``). Raw payloads are written with ``COPY ... (FORMAT blob)`` and read with
``read_blob``: one object per payload, the same content-addressed names and bytes as in a folder.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import duckdb

from warehouse.errors import WarehouseError
from warehouse.store.secrets import remember_secret

SCHEMES = ("s3://",)
URL_STYLE_ENV = "EDGAR_WAREHOUSE_S3_URL_STYLE"
SECRET_NAME = "edgar_s3"


class ObjectStoreError(WarehouseError):
    """The object store cannot be used: httpfs missing, or a request it refused."""


def is_remote(path: str | os.PathLike[str]) -> bool:
    """True for an object store URL (``s3://...``), False for a local folder."""
    return isinstance(path, str) and path.startswith(SCHEMES)


def httpfs_file() -> Path:
    """httpfs.duckdb_extension of the installed wheel, for this DuckDB version."""
    try:
        import duckdb_extension_httpfs
    except ImportError as exc:
        raise ObjectStoreError("an s3:// path needs the `scale` extra (pip install 'edgar-warehouse[scale]'): "
                               "duckdb-extension-httpfs is not installed") from exc
    path = Path(duckdb_extension_httpfs.__file__).parent / "extensions" / f"v{duckdb.__version__}" / "httpfs.duckdb_extension"
    if not path.exists():
        raise ObjectStoreError(f"{path}: missing; duckdb-extension-httpfs must be the build for DuckDB {duckdb.__version__}")
    return path


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def secret_sql() -> str:
    """The ``CREATE SECRET`` for the configured S3 credentials (its text holds the keys: never print it)."""
    env = os.environ
    options = ["TYPE s3", "PROVIDER config"]
    for name, setting in (("AWS_ACCESS_KEY_ID", "KEY_ID"), ("AWS_SECRET_ACCESS_KEY", "SECRET"),
                          ("AWS_SESSION_TOKEN", "SESSION_TOKEN")):
        if env.get(name):
            if setting != "KEY_ID":
                remember_secret(env[name])
            options.append(f"{setting} {_literal(env[name])}")
    options.append(f"REGION {_literal(env.get('AWS_REGION') or env.get('AWS_DEFAULT_REGION') or 'us-east-1')}")
    endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
    if endpoint:
        scheme, _, rest = endpoint.partition("://") if "://" in endpoint else ("https", "", endpoint)
        options += [f"ENDPOINT {_literal(rest.split('/')[0])}", f"USE_SSL {str(scheme == 'https').lower()}",
                    f"URL_STYLE {_literal(env.get(URL_STYLE_ENV) or 'path')}"]
    elif env.get(URL_STYLE_ENV):
        options.append(f"URL_STYLE {_literal(env[URL_STYLE_ENV])}")
    return f"CREATE OR REPLACE SECRET {SECRET_NAME} ({', '.join(options)})"


def prepare(con: duckdb.DuckDBPyConnection, *paths: str) -> None:
    """httpfs loaded and the S3 secret made on ``con`` when any of ``paths`` is in an object store."""
    if not any(is_remote(p) for p in paths):
        return
    con.execute(f"LOAD {_literal(str(httpfs_file()))}")
    con.execute(secret_sql())


# ----------------------------------------------------------------------------------- raw objects

_local = threading.local()


def _con() -> duckdb.DuckDBPyConnection:
    """This thread's connection for raw objects (httpfs and the secret made once per thread)."""
    con = getattr(_local, "con", None)
    if con is None:
        con = duckdb.connect()
        con.execute("SET enable_progress_bar = false")
        prepare(con, SCHEMES[0])
        _local.con = con
    return con


def _failed(what: str, url: str, exc: duckdb.Error) -> ObjectStoreError:
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return ObjectStoreError(f"{url}: cannot {what} ({first[:200]})")


def exists(url: str) -> bool:
    """True when the object ``url`` exists (a HEAD: DuckDB's glob returns a name without wildcards
    unchecked)."""
    try:
        _con().execute("SELECT size FROM read_blob(?)", [url]).fetchall()
        return True
    except duckdb.HTTPException as exc:
        if "404" in str(exc):
            return False
        raise _failed("look up", url, exc) from exc
    except duckdb.Error as exc:
        raise _failed("look up", url, exc) from exc


def put(url: str, body: bytes) -> None:
    """Write ``body`` as the object ``url`` (a PUT: the object appears whole or not at all)."""
    try:
        # COMPRESSION none: the bytes as given (DuckDB would gzip them again for a name ending .gz)
        _con().execute(f"COPY (SELECT ?::BLOB) TO {_literal(url)} (FORMAT blob, COMPRESSION none)", [body])
    except duckdb.Error as exc:
        raise _failed("write", url, exc) from exc


def get(url: str) -> bytes:
    try:
        rows = _con().execute("SELECT content FROM read_blob(?)", [url]).fetchall()
    except duckdb.Error as exc:
        raise _failed("read", url, exc) from exc
    if not rows:
        raise ObjectStoreError(f"{url}: no such object")
    return bytes(rows[0][0])
