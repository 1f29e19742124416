#!/bin/sh
# run_fuzz.sh CLANG SRC_DIR BUILD_DIR FIXTURES SECONDS [TARGET] -- CTest driver
# of the file-reader fuzzers: TARGET parquet (default, fuzz_parquet.c) or orc
# (fuzz_orc.c; orc.proto is compiled with protoc-c into BUILD_DIR).  Builds it
# with clang's libFuzzer, ASan and UBSan into BUILD_DIR (rebuilt only when a
# source is newer), makes
# a seed corpus from the target's fixtures in a temporary directory (the
# fixtures are not copied into the repository), and fuzzes for SECONDS.
# Any crash, sanitizer report, leak or timeout fails the test; exit 77
# (skipped) when the fixtures are absent.
set -e
CLANG=$1 SRC=$2 OUT=$3 FIX=$4 SECS=${5:-20} TARGET=${6:-parquet}
[ -d "$FIX/$TARGET" ] || { echo "fixtures not found: skipped"; exit 77; }
mkdir -p "$OUT/fuzz_obj"
BIN=$OUT/fuzz_$TARGET
SOURCES="$SRC/tests/fuzz/fuzz_$TARGET.c $(ls "$SRC"/src/format/$TARGET/[a-z]*.c $SRC/src/format/[a-z]*.c) $SRC/src/vector/vector.c
  $(ls "$SRC"/src/storage/[a-z]*.c) $(ls "$SRC"/src/util/[a-z]*.c)"
PKGS="zlib libzstd snappy liblz4 libbrotlidec libbrotlienc"
EXTRA_INC=
if [ "$TARGET" = orc ]; then
  mkdir -p "$OUT/generated"
  if [ ! -f "$OUT/generated/orc.pb-c.c" ] || [ "$SRC/src/format/orc/orc.proto" -nt "$OUT/generated/orc.pb-c.c" ]; then
    protoc-c --c_out="$OUT/generated" --proto_path="$SRC/src/format/orc" "$SRC/src/format/orc/orc.proto"
  fi
  # the ORC writer (in the same folder as the reader) uses Parquet's block codecs
  SOURCES="$SOURCES $OUT/generated/orc.pb-c.c $SRC/src/format/parquet/pq_codec.c"
  PKGS="$PKGS libprotobuf-c lzo2"
  EXTRA_INC="-I$OUT/generated"
fi
CFLAGS="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -D_GNU_SOURCE -std=c11 -I$SRC/include -I$SRC/src $EXTRA_INC $(pkg-config --cflags $PKGS)"
# compile what changed, two at a time (CI has two cores)
for f in $SOURCES; do
  o=$OUT/fuzz_obj/$(echo "$f" | sed "s|^$SRC/||; s|^$OUT/||; s|/|_|g; s|\.c$|.o|")
  if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ -n "$(find "$SRC/src" -name '*.h' -newer "$o" | head -1)" ]; then
    echo "$f $o"
  fi
done | xargs -r -n 2 -P 2 sh -c "$CLANG $CFLAGS -c \"\$0\" -o \"\$1\""
OBJS=$(for f in $SOURCES; do echo "$OUT/fuzz_obj/$(echo "$f" | sed "s|^$SRC/||; s|^$OUT/||; s|/|_|g; s|\.c$|.o|")"; done)
$CLANG -fsanitize=fuzzer,address,undefined $OBJS $(pkg-config --libs $PKGS) -lm -lpthread -o "$BIN"
CORPUS=$(mktemp -d)
trap 'rm -rf "$CORPUS"' EXIT
for f in "$FIX/$TARGET"/*."$TARGET"; do
  # seeds up to max_len: larger files would be cut anyway; demo-12-zlib.orc
  # (46 KB) holds 1.9 million rows: decoding it twice takes 5-10 s under
  # ASan, close to the per-input timeout on a loaded machine, and every
  # mutation of it is as slow, so it would only slow the run down
  case "$(basename "$f")" in demo-12-zlib.orc) continue ;; esac
  if [ "$(wc -c < "$f")" -le 65536 ]; then cp "$f" "$CORPUS/"; fi
done
# a crasher is kept as BUILD_DIR/fuzz-crash-* for replay
status=0
"$BIN" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -max_total_time="$SECS" \
  -artifact_prefix="$OUT/fuzz-$TARGET-" -print_final_stats=1 "$CORPUS" > "$OUT/fuzz_$TARGET.log" 2>&1 ||
  status=$?
tail -30 "$OUT/fuzz_$TARGET.log"
exit $status
