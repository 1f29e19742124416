/* TrinoFlow.java -- the metastore calls Trino's Hive connector makes
 * (ThriftHiveMetastore over ThriftHiveMetastoreClient), replayed against
 * `hivelite metastore` and checked exactly: listing (views through
 * get_tables_by_type, falling back to get_table_names_by_filter on
 * UNKNOWN_METHOD), planning (get_table_req falling back to get_table,
 * get_fields, partition names with get_partition_names_ps and "" for a
 * free key, get_partitions_by_names, table and partition column
 * statistics), CREATE TABLE, INSERT (files first, then add_partitions with
 * basic statistics, column statistics, alter_table with the table's
 * statistics, alter_partitions for a second write), and the drops.  Facts
 * from Trino's public sources; the code is ours. */
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.api.ColumnStatistics;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsData;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsDesc;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsObj;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.EnvironmentContext;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.hadoop.hive.metastore.api.LongColumnStatsData;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.PartitionsStatsRequest;
import org.apache.hadoop.hive.metastore.api.StringColumnStatsData;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.api.TableStatsRequest;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;

final class TrinoFlow {
  static final String T = "tjt"; /* the table this flow creates */
  final Peer p;
  final Fixture f;

  TrinoFlow(Peer p, Fixture f) {
    this.p = p;
    this.f = f;
  }

  ThriftHiveMetastore.Client c() {
    return p.client;
  }

  /* Trino's alternativeCall: the first alternative, and the next one when
   * the answer is UNKNOWN_METHOD (remembered per client in Trino; here
   * printed, since hivelite should serve the first). */
  <V> V alternative(String m1, Peer.Call<V> a, String m2, Peer.Call<V> b) throws TException {
    try {
      return p.call(m1, a);
    } catch (TApplicationException e) {
      if (e.getType() != TApplicationException.UNKNOWN_METHOD) throw e;
      System.out.println("note " + m1 + ": UNKNOWN_METHOD, Trino falls back to " + m2);
      return p.call(m2, b);
    }
  }

  Table getTable(String db, String name) throws TException {
    GetTableRequest req = new GetTableRequest(db, name);
    if (Fixture.caps() != null) req.setCapabilities(Fixture.caps());
    return alternative(
        "get_table_req",
        () -> c().get_table_req(req).getTable(), "get_table", () -> c().get_table(db, name));
  }

  void list() {
    p.section("trino list", () -> {
      p.check("get_all_databases", p.call("get_all_databases", () -> c().get_all_databases()),
              Peer.list("default", "web"));
      Database want = new Database("web", "web logs", f.uri("web.db"), Want.map("team", "w"));
      p.check("get_database(web)", p.call("get_database", () -> c().get_database("web")), want);
      p.check("get_all_tables(web)", p.call("get_all_tables", () -> c().get_all_tables("web")),
              Peer.list("hits"));
      return null;
    });
    p.section("trino list views", () -> {
      /* getAllViews */
      p.check("views of web",
              alternative(
                  "get_tables_by_type",
                  ()
                      -> c().get_tables_by_type("web", ".*", "VIRTUAL_VIEW"),
                  "get_table_names_by_filter",
                  ()
                      -> c().get_table_names_by_filter(
                          "web", "hive_filter_field_params__presto_view = \"true\"", (short)-1)),
              Peer.list());
      return null;
    });
  }

  void plan() {
    p.section("trino plan", () -> {
      Table t = getTable("web", "hits");
      p.check("getTable(web, hits)", t, f.hits(t));
      return null;
    });
    p.section("trino plan: fields", () -> {
      p.check("get_fields(web, hits)", p.call("get_fields", () -> c().get_fields("web", "hits")),
              Fixture.hitCols());
      return null;
    });
    p.section("trino plan: schema", () -> {
      List<FieldSchema> schema = Fixture.hitCols();
      schema.addAll(Fixture.hitKeys());
      p.check("get_schema(web, hits)", p.call("get_schema", () -> c().get_schema("web", "hits")),
              schema);
      return null;
    });
    p.section("trino plan: names by values", () -> {
      /* a pin on ds only: "" for the key left free */
      p.check("get_partition_names_ps(web, hits, [2024-01-01, \"\"])",
              p.call("get_partition_names_ps",
                     ()
                         -> c().get_partition_names_ps("web", "hits", Peer.list("2024-01-01", ""),
                                                       (short)-1)),
              Peer.list(Fixture.HIT_NAMES.get(0)));
      p.check(
          "get_partition_names_ps(web, hits, [\"\", 2])",
          p.call("get_partition_names_ps",
                 () -> c().get_partition_names_ps("web", "hits", Peer.list("", "2"), (short)-1)),
          Peer.list(Fixture.HIT_NAMES.get(1)));
      return null;
    });
    p.section("trino plan: names, partitions by names", () -> {
      p.check(
          "get_partition_names(web, hits)",
          p.call("get_partition_names", () -> c().get_partition_names("web", "hits", (short)-1)),
          Fixture.HIT_NAMES);
      List<Partition> got =
          p.call("get_partitions_by_names",
                 () -> c().get_partitions_by_names("web", "hits", Fixture.HIT_NAMES));
      p.check("get_partitions_by_names(web, hits, all)", got, f.hitParts(got, 0, 1, 2));
      return null;
    });
    p.section("trino plan: statistics", () -> {
      /* statistics for the planner: none were computed for columns */
      p.check("get_table_statistics_req(web, hits)",
              p.call("get_table_statistics_req",
                     ()
                         -> c().get_table_statistics_req(
                             new TableStatsRequest("web", "hits", Peer.list("id", "url"))))
                  .getTableStats(),
              Peer.list());
      return null;
    });
    p.section("trino plan: partition statistics", () -> {
      p.check("get_partitions_statistics_req(web, hits)",
              p.call("get_partitions_statistics_req",
                     ()
                         -> c().get_partitions_statistics_req(new PartitionsStatsRequest(
                             "web", "hits", Peer.list("id", "url"), Fixture.HIT_NAMES)))
                  .getPartStats(),
              new HashMap<String, List<ColumnStatisticsObj>>());
      return null;
    });
  }

  void negative() {
    p.section("trino errors", () -> {
      p.check("getTable(web, nosuch)", Peer.raised(() -> getTable("web", "nosuch")),
              "NoSuchObjectException: table \"web.nosuch\" does not exist");
      p.check("get_table(nosuch, t)", Peer.raised(() -> c().get_table("nosuch", "t")),
              "NoSuchObjectException: database \"nosuch\" does not exist");
      p.check("get_master_keys (not implemented)", Peer.raised(() -> c().get_master_keys()),
              "TApplicationException 1: Invalid method name: 'get_master_keys'");
      p.check("get_all_tables(web) after UNKNOWN_METHOD",
              p.call("get_all_tables", () -> c().get_all_tables("web")), Peer.list("hits"));
      return null;
    });
  }

  // ---- writes

  static List<FieldSchema> cols() {
    return Peer.list(Want.col("id", "bigint"), Want.col("name", "string"));
  }

  static final Map<String, String> TRINO_PARAMS =
      Want.map("trino_version", "435", "trino_query_id", "20240101_000000_00001_hlpr");

  Table trinoTable(Map<String, String> params) {
    Table t = Want.table("web", T, Want.textSd(cols(), f.uri("web.db/" + T)),
                         Peer.list(Want.col("ds", "string")), params, "MANAGED_TABLE", f.started);
    t.setOwner(Fixture.USER);
    return t;
  }

  Partition trinoPart(String ds, Map<String, String> params) {
    return Want.partition("web", T, Peer.list(ds),
                          Want.textSd(cols(), f.uri("web.db/" + T + "/ds=" + ds)), params,
                          f.started);
  }

  /* The server's createTime must lie in this run; transient_lastDdlTime
   * (Hive adds it) too, then it is left out of the comparison. */
  <S> S readBack(String what, S got) {
    if (got instanceof Table) {
      Table t = ((Table)got).deepCopy();
      t.setCreateTime(f.runTime(t.getCreateTime()) == -1 ? -1 : f.started);
      t.setParameters(ddl(what, t.getParameters()));
      @SuppressWarnings("unchecked") S r = (S)t;
      return r;
    }
    Partition q = ((Partition)got).deepCopy();
    q.setCreateTime(f.runTime(q.getCreateTime()) == -1 ? -1 : f.started);
    q.setParameters(ddl(what, q.getParameters()));
    @SuppressWarnings("unchecked") S r = (S)q;
    return r;
  }

  Map<String, String> ddl(String what, Map<String, String> params) {
    Map<String, String> m = new HashMap<>(params);
    String v = m.remove("transient_lastDdlTime");
    if (v != null)
      p.check(what + ": transient_lastDdlTime in this run", f.runTime(Integer.parseInt(v)) != -1,
              true);
    return m;
  }

  /* CREATE TABLE web.tjt (id BIGINT, name VARCHAR) WITH (format='TEXTFILE',
   * partitioned_by=ARRAY['ds']): the database, the table's absence, then
   * create_table (Trino sets the location under the database's). */
  boolean create() {
    return p.section("trino create table", () -> {
      Database db = p.call("get_database", () -> c().get_database("web"));
      p.check("get_database(web).locationUri", db.getLocationUri(), f.uri("web.db"));
      p.check("getTable(web, tjt) before", Peer.raised(() -> getTable("web", T)),
              "NoSuchObjectException: table \"web.tjt\" does not exist");
      Table t = trinoTable(TRINO_PARAMS);
      p.call("create_table", () -> {
        c().create_table(t);
        return null;
      });
      p.check("getTable(web, tjt) after create", readBack("tjt", getTable("web", T)), t);
      p.check("create_table(tjt) again", p.raisedBy("create_table", () -> {
                                            c().create_table(t);
                                            return null;
                                          }).startsWith("AlreadyExistsException: "), true);
      return null;
    });
  }

  static ColumnStatisticsObj longCol(String name, long lo, long hi, long nulls, long dvs) {
    LongColumnStatsData d = new LongColumnStatsData(nulls, dvs);
    d.setLowValue(lo);
    d.setHighValue(hi);
    return new ColumnStatisticsObj(name, "bigint", ColumnStatisticsData.longStats(d));
  }

  static ColumnStatisticsObj strCol(String name, long maxLen, double avgLen, long nulls, long dvs) {
    return new ColumnStatisticsObj(
        name, "string",
        ColumnStatisticsData.stringStats(new StringColumnStatsData(maxLen, avgLen, nulls, dvs)));
  }

  /* INSERT INTO web.tjt VALUES (10,'p','a'), (20,'qq','b'), (30,'r','b');
   * then INSERT INTO web.tjt VALUES (40,'s','a') into the existing ds=a. */
  boolean insert() {
    return p.section("trino insert", () -> {
      getTable("web", T);
      String[] ra = {"10,p"};
      String[] rb = {"20,qq", "30,r"};
      long sa = f.writeFile("web.db/" + T + "/ds=a", "20240101_q1_0", ra);
      long sb = f.writeFile("web.db/" + T + "/ds=b", "20240101_q1_0", rb);
      Map<String, String> stA = Want.stats(1, 1, sa, Fixture.raw(ra));
      Map<String, String> stB = Want.stats(1, 2, sb, Fixture.raw(rb));
      Partition pa = trinoPart("a", stA);
      Partition pb = trinoPart("b", stB);
      p.check("add_partitions([a, b])",
              p.call("add_partitions", () -> c().add_partitions(Peer.list(pa, pb))), 2);
      List<ColumnStatisticsObj> csA =
          Peer.list(longCol("id", 10, 10, 0, 1), strCol("name", 1, 1.0, 0, 1));
      List<ColumnStatisticsObj> csB =
          Peer.list(longCol("id", 20, 30, 0, 2), strCol("name", 2, 1.5, 0, 2));
      for (Object[] pc : new Object[][] {{"ds=a", csA}, {"ds=b", csB}}) {
        ColumnStatisticsDesc desc = new ColumnStatisticsDesc(false, "web", T);
        desc.setPartName((String)pc[0]);
        @SuppressWarnings("unchecked")
        List<ColumnStatisticsObj> objs = (List<ColumnStatisticsObj>)pc[1];
        p.check(
            "update_partition_column_statistics(" + pc[0] + ")",
            p.call("update_partition_column_statistics",
                   () -> c().update_partition_column_statistics(new ColumnStatistics(desc, objs))),
            true);
      }
      /* updateTableStatistics: the table's basic statistics in its
       * parameters, the column statistics apart */
      Table t = getTable("web", T).deepCopy();
      Map<String, String> tst =
          Want.plus(TRINO_PARAMS, Want.stats(2, 3, sa + sb, Fixture.raw(ra) + Fixture.raw(rb)));
      t.setParameters(new HashMap<>(tst));
      EnvironmentContext ctx = new EnvironmentContext(Want.map("DO_NOT_UPDATE_STATS", "true"));
      p.call("alter_table_with_environment_context", () -> {
        c().alter_table_with_environment_context("web", T, t, ctx);
        return null;
      });
      List<ColumnStatisticsObj> csT =
          Peer.list(longCol("id", 10, 30, 0, 3), strCol("name", 2, 4.0 / 3, 0, 3));
      p.check("update_table_column_statistics",
              p.call("update_table_column_statistics",
                     ()
                         -> c().update_table_column_statistics(
                             new ColumnStatistics(new ColumnStatisticsDesc(true, "web", T), csT))),
              true);
      p.check("getTable(web, tjt) with statistics", readBack("tjt stats", getTable("web", T)),
              trinoTable(tst));
      List<Partition> got =
          p.call("get_partitions_by_names",
                 () -> c().get_partitions_by_names("web", T, Peer.list("ds=a", "ds=b")));
      p.check("get_partitions_by_names(tjt) count", got.size(), 2);
      if (got.size() == 2) {
        p.check("partition ds=a", readBack("a", got.get(0)), pa);
        p.check("partition ds=b", readBack("b", got.get(1)), pb);
      }
      p.check("get_table_statistics_req(tjt)",
              p.call("get_table_statistics_req",
                     ()
                         -> c().get_table_statistics_req(
                             new TableStatsRequest("web", T, Peer.list("id", "name"))))
                  .getTableStats(),
              csT);
      Map<String, List<ColumnStatisticsObj>> wantPs = new HashMap<>();
      wantPs.put("ds=a", csA);
      wantPs.put("ds=b", csB);
      p.check("get_partitions_statistics_req(tjt)",
              p.call("get_partitions_statistics_req",
                     ()
                         -> c().get_partitions_statistics_req(new PartitionsStatsRequest(
                             "web", T, Peer.list("id", "name"), Peer.list("ds=a", "ds=b"))))
                  .getPartStats(),
              wantPs);

      /* the second INSERT into ds=a: a new file, then the partition's
       * statistics through alter_partitions (Hive 2.3 has no
       * alter_partitions_req, Trino's first alternative) */
      String[] ra2 = {"40,s"};
      long sa2 = f.writeFile("web.db/" + T + "/ds=a", "20240101_q2_0", ra2);
      List<Partition> cur = p.call("get_partitions_by_names",
                                   () -> c().get_partitions_by_names("web", T, Peer.list("ds=a")));
      Partition na = cur.get(0).deepCopy();
      Map<String, String> stA2 = Want.stats(2, 2, sa + sa2, Fixture.raw(ra) + Fixture.raw(ra2));
      na.setParameters(new HashMap<>(stA2));
      p.call("alter_partitions_with_environment_context", () -> {
        c().alter_partitions_with_environment_context("web", T, Peer.list(na), null);
        return null;
      });
      /* Trino reads a partition back through get_partitions_by_names */
      List<Partition> now = p.call("get_partitions_by_names",
                                   () -> c().get_partitions_by_names("web", T, Peer.list("ds=a")));
      p.check("get_partitions_by_names(tjt, [ds=a]) after alter_partitions", now.size(), 1);
      if (now.size() == 1)
        p.check("partition ds=a after alter_partitions", readBack("a2", now.get(0)),
                trinoPart("a", stA2));
      System.out.println("FILLED web.tjt");
      return null;
    });
  }

  /* ALTER TABLE ... DROP PARTITION is Trino's DELETE of a whole partition:
   * drop_partition (deleteData); DROP TABLE: the table, then drop_table. */
  void drop() {
    p.section("trino drop", () -> {
      p.requires(!Peer.raised(() -> getTable("web", T)).startsWith("NoSuchObjectException"),
                 "create_table");
      getTable("web", T);
      p.check("drop_partition(tjt, [b])",
              p.call("drop_partition", () -> c().drop_partition("web", T, Peer.list("b"), true)),
              true);
      p.check("get_partition_names(tjt) after drop",
              p.call("get_partition_names", () -> c().get_partition_names("web", T, (short)-1)),
              Peer.list("ds=a"));
      getTable("web", T);
      p.call("drop_table", () -> {
        c().drop_table("web", T, true);
        return null;
      });
      p.check("getTable(web, tjt) after drop", Peer.raised(() -> getTable("web", T)),
              "NoSuchObjectException: table \"web.tjt\" does not exist");
      p.check("get_all_tables(web) after the drop has no tjt",
              p.call("get_all_tables", () -> c().get_all_tables("web")).contains(T), false);
      System.out.println("DROPPED web.tjt");
      return null;
    });
  }
}
