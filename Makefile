# Entry points (see README):
#   make demo    install dependencies, build, run a real session
#   make check   install dependencies, build (plain and ASan+UBSan), run all tests
#   make build   plain build into build/
#   make format  clang-format the tree
#   make fuzz    build the libFuzzer targets (clang) and run each FUZZ_SECONDS
#   make valgrind  run the SQL logic tests with hivelite under valgrind
#   make bench   hivelite vs DuckDB benchmark (bench/README.md; not part of check)
#   make stress  10 minutes of concurrent writers and readers, and 400 random kills
#   make load    the PostgreSQL server under 64 clients for LOAD_SECONDS (make check: 30 s)
JOBS ?= 2

.PHONY: all deps build build-asan demo check check-asan format conformance fuzz valgrind bench stress load clean

all: build

deps:
	@./scripts/install-deps.sh

build: deps
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build build -j $(JOBS)

build-asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHL_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)

demo: build
	@./scripts/demo.sh ./build/hivelite

check: build build-asan
	@cd build && ctest --output-on-failure -j $(JOBS)
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

conformance: build
	@python3 ../shared/conformance/run.py --hivelite $(CURDIR)/build/hivelite

FUZZ_SECONDS ?= 60
FUZZ_CFLAGS = -g -O1 -std=c11 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Iinclude -Isrc
fuzz: deps
	@mkdir -p build-fuzz/corpus-parser build-fuzz/corpus-text tests/fuzz/corpus/parser tests/fuzz/corpus/text
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_parser.c src/sql/[a-z]*.c src/util/[a-z]*.c -lm \
	  -o build-fuzz/fuzz_parser
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_text.c src/format/text/[a-z]*.c src/vector/[a-z]*.c \
	  src/storage/[a-z]*.c src/util/[a-z]*.c $$(pkg-config --cflags --libs zlib libzstd jansson snappy liblz4) \
	  -lbz2 -lcrypto -lm -lpthread -o build-fuzz/fuzz_text
	./build-fuzz/fuzz_parser -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-parser tests/fuzz/corpus/parser
	./build-fuzz/fuzz_text -max_total_time=$(FUZZ_SECONDS) -max_len=65536 build-fuzz/corpus-text tests/fuzz/corpus/text
	./tests/fuzz/run_fuzz.sh clang $(CURDIR) $(CURDIR)/build-fuzz ../shared/fixtures $(FUZZ_SECONDS) orc
	@mkdir -p build-fuzz/corpus-hblock
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_hblock.c src/format/text/text_io.c src/format/text/text_hblock.c \
	  src/storage/stor_local.c src/storage/stor_util.c src/util/[a-z]*.c \
	  $$(pkg-config --cflags --libs zlib libzstd snappy liblz4) -lbz2 -lm -lpthread -o build-fuzz/fuzz_hblock
	./build-fuzz/fuzz_hblock -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -rss_limit_mb=512 build-fuzz/corpus-hblock tests/fuzz/corpus/hblock
	@mkdir -p build-fuzz/corpus-lazybin
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_lazybin.c src/format/lazybin/lazybin.c src/format/seqfile/seq_io.c \
	  src/storage/stor_local.c src/storage/stor_util.c src/util/[a-z]*.c \
	  $$(pkg-config --cflags --libs zlib) -lm -lpthread -o build-fuzz/fuzz_lazybin
	./build-fuzz/fuzz_lazybin -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -rss_limit_mb=512 build-fuzz/corpus-lazybin tests/fuzz/corpus/lazybin
	@mkdir -p build-fuzz/corpus-snappy
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_snappy.c src/util/snappy_dec.c \
	  $$(pkg-config --cflags --libs snappy) -o build-fuzz/fuzz_snappy
	./build-fuzz/fuzz_snappy -max_total_time=$(FUZZ_SECONDS) -max_len=8192 build-fuzz/corpus-snappy tests/fuzz/corpus/snappy
	@mkdir -p build-fuzz/corpus-thrift
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_thrift.c src/thrift/[a-z]*.c src/hms/hms_[!m]*.c src/util/[a-z]*.c \
	  -lm -lpthread $$(pkg-config --cflags --libs krb5-gssapi) -o build-fuzz/fuzz_thrift
	./build-fuzz/fuzz_thrift -max_total_time=$(FUZZ_SECONDS) -max_len=8192 build-fuzz/corpus-thrift tests/fuzz/corpus/thrift
	@mkdir -p build-fuzz/corpus-hms_read
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_hms_read.c src/hms_server/hms_filter.c src/hms/hms_[!m]*.c \
	  src/thrift/[a-z]*.c src/util/[a-z]*.c -lm -lpthread $$(pkg-config --cflags --libs krb5-gssapi) \
	  -o build-fuzz/fuzz_hms_read
	./build-fuzz/fuzz_hms_read -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-hms_read tests/fuzz/corpus/hms_read
# s3xml: the S3 XML reply parsers (tests/fuzz/fuzz_s3_xml.c)
	@mkdir -p build-fuzz/corpus-s3_xml
	clang $(FUZZ_CFLAGS) tests/fuzz/fuzz_s3_xml.c src/storage/s3/s3_xml.c src/util/[a-z]*.c \
	  $$(pkg-config --cflags --libs expat) -lm -lpthread -o build-fuzz/fuzz_s3_xml
	./build-fuzz/fuzz_s3_xml -max_total_time=$(FUZZ_SECONDS) -max_len=16384 build-fuzz/corpus-s3_xml tests/fuzz/corpus/s3_xml
	@# the S3 client's reply header parser
	@mkdir -p build-fuzz/corpus-s3_http
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_s3_http.c src/storage/s3/s3_http_hdr.c src/util/[a-z]*.c \
	  -lm -lpthread -o build-fuzz/fuzz_s3_http
	./build-fuzz/fuzz_s3_http -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-s3_http tests/fuzz/corpus/s3_http
	@mkdir -p build-fuzz/corpus-pg_wire
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_pg_wire.c src/server/pg_wire.c \
	  -o build-fuzz/fuzz_pg_wire
	./build-fuzz/fuzz_pg_wire -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-pg_wire tests/fuzz/corpus/pg_wire
	@# the server's reading of catalog query text and parameters
	@mkdir -p build-fuzz/corpus-pg_sqltext
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_pg_sqltext.c src/server/pg_sqltext.c \
	  src/server/pg_wire.c -o build-fuzz/fuzz_pg_sqltext
	./build-fuzz/fuzz_pg_sqltext -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-pg_sqltext tests/fuzz/corpus/pg_sqltext
	@# the stored column profile decoder
	@mkdir -p build-fuzz/corpus-prof_state
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_prof_state.c src/vector/profile.c \
	  src/util/[a-z]*.c -lm -lpthread -o build-fuzz/fuzz_prof_state
	./build-fuzz/fuzz_prof_state -max_total_time=$(FUZZ_SECONDS) -max_len=32768 build-fuzz/corpus-prof_state tests/fuzz/corpus/prof_state
	@# the Theta sketch reader of the ds_theta_* functions
	@mkdir -p build-fuzz/corpus-ds_theta
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_ds_theta.c src/util/[a-z]*.c \
	  -lm -lpthread -o build-fuzz/fuzz_ds_theta
	./build-fuzz/fuzz_ds_theta -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-ds_theta tests/fuzz/corpus/ds_theta
	@# the DataSketches HLL readers (ds_hll_* functions, spilled states)
	@mkdir -p build-fuzz/corpus-ds_hll
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_ds_hll.c src/util/[a-z]*.c \
	  -lm -lpthread -o build-fuzz/fuzz_ds_hll
	./build-fuzz/fuzz_ds_hll -max_total_time=$(FUZZ_SECONDS) -max_len=8192 build-fuzz/corpus-ds_hll tests/fuzz/corpus/ds_hll
	@# the decoder of Hive's HyperLogLog bit vectors (ndv_compute_bit_vector)
	@mkdir -p build-fuzz/corpus-hive_hll
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_hive_hll.c src/util/[a-z]*.c \
	  -lm -lpthread -o build-fuzz/fuzz_hive_hll
	./build-fuzz/fuzz_hive_hll -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-hive_hll tests/fuzz/corpus/hive_hll
	@# the KLL floats sketch reader of the ds_kll_* functions
	@mkdir -p build-fuzz/corpus-ds_kll
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_ds_kll.c src/util/[a-z]*.c \
	  -lm -lpthread -o build-fuzz/fuzz_ds_kll
	./build-fuzz/fuzz_ds_kll -max_total_time=$(FUZZ_SECONDS) -max_len=8192 build-fuzz/corpus-ds_kll tests/fuzz/corpus/ds_kll
	@# the ST_Geometry readers (value, ESRI shape, WKT) of the st_* functions
	@mkdir -p build-fuzz/corpus-geo
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_geo.c src/util/[a-z]*.c \
	  -lm -lpthread -o build-fuzz/fuzz_geo
	./build-fuzz/fuzz_geo -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-geo tests/fuzz/corpus/geo
	@# the reader of DataSketches quantiles sketches (ds_quantile_doubles_*)
	@mkdir -p build-fuzz/corpus-ds_quantiles
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_ds_quantiles.c src/util/[a-z]*.c \
	  -lm -lpthread -o build-fuzz/fuzz_ds_quantiles
	./build-fuzz/fuzz_ds_quantiles -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-ds_quantiles tests/fuzz/corpus/ds_quantiles
	@mkdir -p build-fuzz/corpus-spill
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all tests/fuzz/fuzz_spill.c src/exec/spill_block.c \
	  src/exec/op_agg_own.c src/exec/op_agg_hist.c src/exec/op_agg_ngrams.c src/exec/op_agg_sketch.c \
	  src/exec/op_agg_cstats.c src/exec/op_agg_bloom.c src/exec/op_agg_ds_theta.c src/exec/op_agg_ds_kll.c src/exec/op_agg_ds_hll.c \
	  src/exec/op_agg_ds_quantiles.c \
	  src/vector/vector.c src/util/[a-z]*.c -lm -lpthread -o build-fuzz/fuzz_spill
	./build-fuzz/fuzz_spill -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-spill tests/fuzz/corpus/spill
	@mkdir -p build-fuzz/corpus-funcs
	clang $(FUZZ_CFLAGS) -fno-sanitize-recover=all -I/usr/include/libxml2 tests/fuzz/fuzz_funcs.c \
	  src/vector/[a-z]*.c src/util/[a-z]*.c -lcrypto -lxml2 -licui18n -licuuc -lz -lm -lpthread \
	  -o build-fuzz/fuzz_funcs
	./build-fuzz/fuzz_funcs -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build-fuzz/corpus-funcs tests/fuzz/corpus/funcs

valgrind: deps
	@cmake -S . -B build-debug -DCMAKE_BUILD_TYPE=Debug >/dev/null
	@cmake --build build-debug -j $(JOBS)
	@printf '#!/bin/sh\nexec valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite,indirect %s/build-debug/hivelite "$$@"\n' "$$PWD" > build-debug/hivelite-vg
	@chmod +x build-debug/hivelite-vg
	python3 tests/sqllogic.py --hivelite build-debug/hivelite-vg $$(find tests/sql -name '*.test' | sort)

# BENCH_SCALE=1 (20 million lineitem rows) by default; BENCH_SCALE=0.01 for a
# smoke run.  See bench/README.md for the other knobs.
bench: deps
	@./bench/run.sh

# STRESS_SECONDS of tests/crash/stress.py (writers and readers on one
# warehouse), then STRESS_KILLS random kills of every write kind
STRESS_SECONDS ?= 600
STRESS_KILLS ?= 400
stress: build
	python3 tests/crash/stress.py --hivelite build/hivelite --seconds $(STRESS_SECONDS)
	python3 tests/crash/crash_matrix.py --hivelite build/hivelite --random $(STRESS_KILLS)

# tests/server/load.py (psycopg2 clients of `hivelite serve`) for longer
LOAD_SECONDS ?= 600
LOAD_CLIENTS ?= 64
load: build
	/usr/bin/python3 tests/server/load.py --hivelite build/hivelite --seconds $(LOAD_SECONDS) \
	  --clients $(LOAD_CLIENTS)

format:
	@clang-format -i $$(find src include tests -name '*.[ch]')

clean:
	rm -rf build build-asan build-debug build-fuzz
