#!/bin/sh
# run_fuzz.sh CLANG SRC_DIR BUILD_DIR FIXTURES SECONDS -- CTest driver of the
# Parquet reader fuzzer (fuzz_parquet.c): builds it with clang's libFuzzer,
# ASan and UBSan into BUILD_DIR (rebuilt only when a source is newer), makes
# a seed corpus from the Parquet fixtures in a temporary directory (the
# fixtures are not copied into the repository), and fuzzes for SECONDS.
# Any crash, sanitizer report, leak or timeout fails the test; exit 77
# (skipped) when the fixtures are absent.
set -e
CLANG=$1 SRC=$2 OUT=$3 FIX=$4 SECS=${5:-20}
[ -d "$FIX/parquet" ] || { echo "fixtures not found: skipped"; exit 77; }
mkdir -p "$OUT/fuzz_obj"
BIN=$OUT/fuzz_parquet
SOURCES="$SRC/tests/fuzz/fuzz_parquet.c $(ls "$SRC"/src/format/parquet/[a-z]*.c) $SRC/src/exec/vector.c
  $(ls "$SRC"/src/storage/[a-z]*.c) $(ls "$SRC"/src/util/[a-z]*.c)"
PKGS="zlib libzstd snappy liblz4 libbrotlidec libbrotlienc"
CFLAGS="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -D_GNU_SOURCE -std=c11 -I$SRC/include -I$SRC/src $(pkg-config --cflags $PKGS)"
# compile what changed, two at a time (CI has two cores)
for f in $SOURCES; do
  o=$OUT/fuzz_obj/$(echo "$f" | sed "s|^$SRC/||; s|/|_|g; s|\.c$|.o|")
  if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ -n "$(find "$SRC/src" -name '*.h' -newer "$o" | head -1)" ]; then
    echo "$f $o"
  fi
done | xargs -r -n 2 -P 2 sh -c "$CLANG $CFLAGS -c \"\$0\" -o \"\$1\""
OBJS=$(for f in $SOURCES; do echo "$OUT/fuzz_obj/$(echo "$f" | sed "s|^$SRC/||; s|/|_|g; s|\.c$|.o|")"; done)
$CLANG -fsanitize=fuzzer,address,undefined $OBJS $(pkg-config --libs $PKGS) -lm -lpthread -o "$BIN"
CORPUS=$(mktemp -d)
trap 'rm -rf "$CORPUS"' EXIT
for f in "$FIX"/parquet/*.parquet; do
  # seeds up to max_len: larger files would be cut anyway
  if [ "$(wc -c < "$f")" -le 65536 ]; then cp "$f" "$CORPUS/"; fi
done
# a crasher is kept as BUILD_DIR/fuzz-crash-* for replay
status=0
"$BIN" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -max_total_time="$SECS" \
  -artifact_prefix="$OUT/fuzz-" -print_final_stats=1 "$CORPUS" > "$OUT/fuzz_parquet.log" 2>&1 ||
  status=$?
tail -30 "$OUT/fuzz_parquet.log"
exit $status
