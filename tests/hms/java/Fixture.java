/* Fixture.java -- what the Java peer test knows of its warehouse: the
 * table hivelite made with SQL before the server started (web.hits, see
 * tests/hms/java_peer.py), the tables the Java client creates (web.sjt the
 * Spark way, web.tjt the Trino way) and the rows of the text files it
 * writes into their partition directories, and the time windows that
 * createTime values must fall in. */
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.apache.hadoop.hive.metastore.api.ClientCapabilities;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.Table;

final class Fixture {
  static final String USER = "hlpeer";
  static final String GROUP = "hlpeers";
  static final String DB = "web";

  final String wh;              /* the warehouse directory (absolute) */
  final int setupFrom, setupTo; /* when hivelite made web.hits (epoch seconds) */
  final int started = (int)(System.currentTimeMillis() / 1000);

  Fixture(String wh, int setupFrom, int setupTo) {
    this.wh = wh;
    this.setupFrom = setupFrom;
    this.setupTo = setupTo;
  }

  String uri(String rel) {
    return "file:" + wh + (rel.isEmpty() ? "" : "/" + rel);
  }

  /* The capabilities sent with get_table_req and
   * get_table_objects_by_name_req: Hive 2.3's client sends none (its
   * VERSION is null); Trino's INSERT_ONLY_TABLES is not in the 2.3 IDL, so
   * the Trino flow sends none either. */
  static ClientCapabilities caps() {
    return null;
  }

  // ---- web.hits, made by hivelite SQL
  static final List<String> HIT_NAMES =
      Peer.list("ds=2024-01-01/h=1", "ds=2024-01-02/h=2", "ds=2024-01-03/h=3");

  static List<FieldSchema> hitCols() {
    return Peer.list(Want.col("id", "int", "the id"), Want.col("url", "string"));
  }

  static List<FieldSchema> hitKeys() {
    return Peer.list(Want.col("ds", "string"), Want.col("h", "int"));
  }

  /* web.hits as the server must answer it, its createTime taken from GOT
   * when it lies in the set-up window (else -1: the comparison fails). */
  Table hits(Table got) {
    Table t = Want.table(DB, "hits", Want.textSd(hitCols(), uri("web.db/hits")), hitKeys(),
                         Want.plus(Want.map("k", "v", "hivelite.incremental.field", "ds",
                                            "hivelite.incremental.kind", "date"),
                                   Want.stats(2, 3, 15, 12)),
                         "MANAGED_TABLE",
                         setupTime(got == null ? -1 : got.getCreateTime()));
    return t;
  }

  /* Partition I (0..2) of web.hits; its createTime as in hits(). */
  Partition hitPart(int i, Partition got) {
    String[][] vals = {{"2024-01-01", "1"}, {"2024-01-02", "2"}, {"2024-01-03", "3"}};
    java.util.Map<String, String> params = i == 0   ? Want.stats(1, 2, 9, 7)
                                           : i == 1 ? Want.stats(1, 1, 6, 5)
                                                    : Want.map();
    return Want.partition(DB, "hits", Peer.list(vals[i]),
                          Want.textSd(hitCols(), uri("web.db/hits/" + HIT_NAMES.get(i))), params,
                          setupTime(got == null ? -1 : got.getCreateTime()));
  }

  List<Partition> hitParts(List<Partition> got, int... idx) {
    List<Partition> r = new java.util.ArrayList<>();
    for (int k = 0; k < idx.length; k++)
      r.add(hitPart(idx[k], got != null && k < got.size() ? got.get(k) : null));
    return r;
  }

  int setupTime(int t) {
    return t >= setupFrom && t <= setupTo ? t : -1;
  }

  /* T when it lies between the start of this run and now (else -1). */
  int runTime(int t) {
    int now = (int)(System.currentTimeMillis() / 1000);
    return t >= started && t <= now ? t : -1;
  }

  /* Writes one text file of ROWS (lines without their newline) into the
   * partition directory REL under the warehouse, as an engine does before
   * it registers the partition; returns its size in bytes. */
  long writeFile(String rel, String file, String... rows) {
    Path dir = Paths.get(wh, rel);
    StringBuilder sb = new StringBuilder();
    for (String r : rows)
      sb.append(r).append('\n');
    byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
    try {
      Files.createDirectories(dir);
      Files.write(dir.resolve(file), b);
    } catch (IOException e) {
      throw new UncheckedIOException(e); /* a FAIL of the section */
    }
    return b.length;
  }

  /* rawDataSize as Hive counts it for text: the row bytes without newlines. */
  static long raw(String... rows) {
    long n = 0;
    for (String r : rows)
      n += r.getBytes(StandardCharsets.UTF_8).length;
    return n;
  }
}
