/* Want.java -- the Hive 2.3 structs the Java peer test expects or sends:
 * storage descriptors, tables and partitions of text tables, as Spark's
 * and Trino's clients build them, and as hivelite serves them back (the
 * structs compare field by field with the generated equals, which also
 * compares which optional fields are set). */
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Order;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.SkewedInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;

final class Want {
  static final String TEXT_IN = "org.apache.hadoop.mapred.TextInputFormat";
  static final String TEXT_OUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
  static final String LAZY = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  static final String ACCURATE = "{\"BASIC_STATS\":\"true\"}";

  static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i + 1 < kv.length; i += 2)
      m.put(kv[i], kv[i + 1]);
    return m;
  }

  /* A copy of A with B's entries added. */
  static Map<String, String> plus(Map<String, String> a, Map<String, String> b) {
    Map<String, String> m = new HashMap<>(a);
    m.putAll(b);
    return m;
  }

  /* The basic statistics as Hive writes them into parameters. */
  static Map<String, String> stats(long files, long rows, long size, long raw) {
    return map("numFiles", "" + files, "numRows", "" + rows, "totalSize", "" + size, "rawDataSize",
               "" + raw, "COLUMN_STATS_ACCURATE", ACCURATE);
  }

  static FieldSchema col(String name, String type) {
    FieldSchema f = new FieldSchema();
    f.setName(name);
    f.setType(type);
    return f;
  }

  static FieldSchema col(String name, String type, String comment) {
    return col(name, type).setComment(comment);
  }

  /* A comma-delimited text storage descriptor (LOCATION null: none). */
  static StorageDescriptor textSd(List<FieldSchema> cols, String location) {
    StorageDescriptor sd = new StorageDescriptor();
    sd.setCols(new ArrayList<>(cols));
    if (location != null) sd.setLocation(location);
    sd.setInputFormat(TEXT_IN);
    sd.setOutputFormat(TEXT_OUT);
    sd.setCompressed(false);
    sd.setNumBuckets(-1);
    sd.setSerdeInfo(
        new SerDeInfo(null, LAZY, map("field.delim", ",", "serialization.format", ",")));
    sd.getSerdeInfo().unsetName();
    sd.setBucketCols(new ArrayList<>());
    sd.setSortCols(new ArrayList<Order>());
    sd.setParameters(new HashMap<>());
    sd.setSkewedInfo(new SkewedInfo(new ArrayList<>(), new ArrayList<>(), new HashMap<>()));
    sd.setStoredAsSubDirectories(false);
    return sd;
  }

  static Table table(String db, String name, StorageDescriptor sd, List<FieldSchema> keys,
                     Map<String, String> params, String type, int createTime) {
    Table t = new Table();
    t.setTableName(name);
    t.setDbName(db);
    t.setCreateTime(createTime);
    t.setLastAccessTime(0);
    t.setRetention(0);
    t.setSd(sd);
    t.setPartitionKeys(new ArrayList<>(keys));
    t.setParameters(new HashMap<>(params));
    t.setTableType(type);
    /* Hive 2.3's metastore answers both (temporary has an IDL default;
     * rewriteEnabled is false for a table that is no materialized view) */
    t.setTemporary(false);
    t.setRewriteEnabled(false);
    return t;
  }

  static Partition partition(String db, String table, List<String> values, StorageDescriptor sd,
                             Map<String, String> params, int createTime) {
    Partition p = new Partition();
    p.setValues(new ArrayList<>(values));
    p.setDbName(db);
    p.setTableName(table);
    p.setCreateTime(createTime);
    p.setLastAccessTime(0);
    p.setSd(sd);
    p.setParameters(new HashMap<>(params));
    return p;
  }

  private Want() {}
}
