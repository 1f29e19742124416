#!/bin/sh
# Installs the Debian packages hivelite needs to build and test.
# Idempotent: does nothing when everything is present.
set -eu

PACKAGES="build-essential cmake pkg-config python3 libsqlite3-dev zlib1g-dev libzstd-dev \
libjansson-dev libedit-dev libsnappy-dev liblz4-dev libbrotli-dev libssl-dev libprotobuf-c-dev protobuf-c-compiler liblzo2-dev tzdata clang valgrind"
# Avro tables (src/format/avro/): xz and bzip2 block codecs (liblzma-dev,
# libbz2-dev); the interop tests check against Debian's Avro implementations,
# python3-avro (with python3-snappy and python3-zstandard for its codecs) and
# avro-bin (Avro C's avrocat / avropipe)
PACKAGES="$PACKAGES liblzma-dev libbz2-dev python3-avro python3-snappy python3-zstandard avro-bin"
# Text codecs in Hadoop's framing (src/format/text/): the tests write
# independent .lz4/.snappy/.deflate/.bz2 files with python3-lz4 and
# python3-snappy (above), zlib-flate (qpdf) and bzip2
PACKAGES="$PACKAGES python3-lz4 qpdf bzip2"
# S3 (src/storage/s3/): HTTP by libcurl (OpenSSL build), XML replies by expat;
# the S3 tests check against botocore/boto3 and the AWS CLI, and make a TLS
# certificate with openssl (tests/s3/)
PACKAGES="$PACKAGES libcurl4-openssl-dev libexpat1-dev python3-boto3 python3-botocore awscli openssl"

# the xpath functions (src/vector/func_xpath.c): XPath 1.0 over libxml2
PACKAGES="$PACKAGES libxml2-dev"
# sentences() (src/vector/func_sentences.c): ICU's sentence and word break
# iterators
PACKAGES="$PACKAGES libicu-dev"

# GNU time (/usr/bin/time -f %M): the peak memory of one process, for the
# benchmarks and partitions.scale's bound on MSCK (a child of Python
# inherits the interpreter's peak in its own rusage)
PACKAGES="$PACKAGES time"

# Node.js runs the DuckDB oracle of the tests (@duckdb/node-api from npm):
# Debian's own when the machine has no node at all.
if ! command -v node >/dev/null 2>&1; then PACKAGES="$PACKAGES nodejs npm"; fi
# The Hive Metastore interop test (tests/hms/codec_interop.py) generates
# Python code from the metastore IDL and checks hivelite's Thrift codec
# against Apache Thrift's runtime; libthrift-java is for the Java clients
# the metastore client and server work will test against.
PACKAGES="$PACKAGES thrift-compiler python3-thrift libthrift-java"
# Kerberos for the metastore's SASL transport: MIT's GSSAPI headers
# (libkrb5-dev; the library is libgssapi-krb5-2), and for the test
# interop.hms_kerberos a KDC of its own (krb5-kdc, krb5-admin-server for
# kadmin.local, krb5-user for kinit) and Apache Thrift's Python SASL client
# stack (python3-pure-sasl with python3-kerberos); its Java client, and the
# Java peer of the metastore server (tests/hms/java_peer.py: javac, then
# Thrift's jar with SLF4J's API and no-op binding), need a JDK and
# libthrift-java's logging API (libslf4j-java).
PACKAGES="$PACKAGES libkrb5-dev krb5-kdc krb5-admin-server krb5-user python3-pure-sasl python3-kerberos"
PACKAGES="$PACKAGES openjdk-17-jdk-headless libslf4j-java"
# `hivelite serve` (src/server) is tested with real PostgreSQL clients
# (tests/server/): psql (postgresql-client), psycopg2 and psycopg 3 for
# /usr/bin/python3, and pgJDBC (libpostgresql-jdbc-java, with the JDK
# above); npm's pg comes through tests/server/package.json.
PACKAGES="$PACKAGES postgresql-client python3-psycopg2 python3-psycopg libpostgresql-jdbc-java"
# A real PostgreSQL 15 (Debian bookworm's postgresql-15: the server, initdb
# and pgbench) is the peer of tests/server/pg_compare.py and bench/pgbench.sh.
PACKAGES="$PACKAGES postgresql-15"
# psqlODBC (odbc-postgresql) under unixODBC's driver manager, driven from
# /usr/bin/python3 by pyodbc: tests/server/odbc.py.
PACKAGES="$PACKAGES odbc-postgresql unixodbc python3-pyodbc"
# chattr (e2fsprogs) makes directories immutable in the drop-safety tests.
PACKAGES="$PACKAGES e2fsprogs"

missing=""
for pkg in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $pkg"
  fi
done

[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q $missing
