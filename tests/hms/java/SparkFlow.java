/* SparkFlow.java -- the metastore calls Spark's built-in Hive 2.3 client
 * makes (HiveClientImpl over Hive 2.3's Hive and HiveMetaStoreClient), in
 * their order, replayed against `hivelite metastore` and checked exactly:
 * connecting (set_ugi, the default database), listing, planning a query on
 * a partitioned table (get_table_req with capabilities, get_config_value,
 * get_partitions_by_filter with Spark's filter text, the fast fallback of
 * partition names then partitions by names), CREATE TABLE, INSERT INTO a
 * partition twice (files written first, then add_partition and
 * alter_partition), statistics on the table and the partition, and the
 * drops.  Facts from the public sources of Spark (HiveShim, HiveClientImpl)
 * and Hive 2.3 (Hive.java, HiveMetaStoreClient); the code is ours. */
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.GetTableRequest;
import org.apache.hadoop.hive.metastore.api.GetTablesRequest;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.thrift.TException;

final class SparkFlow {
  static final String T = "sjt"; /* the table this flow creates */
  final Peer p;
  final Fixture f;

  SparkFlow(Peer p, Fixture f) {
    this.p = p;
    this.f = f;
  }

  ThriftHiveMetastore.Client c() {
    return p.client;
  }

  Table getTable(String db, String name) throws TException {
    GetTableRequest req = new GetTableRequest(db, name);
    if (Fixture.caps() != null) req.setCapabilities(Fixture.caps());
    return p.call("get_table_req", () -> c().get_table_req(req)).getTable();
  }

  /* HiveMetaStoreClient.open: set_ugi right after connecting (2.3's default
   * hive.metastore.execute.setugi=true); Hive answers the groups followed
   * by the user. */
  void connect() {
    p.section("spark set_ugi", () -> {
      p.check("set_ugi",
              p.call("set_ugi", () -> c().set_ugi(Fixture.USER, Peer.list(Fixture.GROUP))),
              Peer.list(Fixture.GROUP, Fixture.USER));
      return null;
    });
    p.section("spark connect", () -> {
      /* SharedState: databaseExists("default") */
      Database want = new Database("default", "Default Hive database", f.uri(""), new HashMap<>());
      p.check("get_database(default)", p.call("get_database", () -> c().get_database("default")),
              want);
      return null;
    });
  }

  void list() {
    p.section("spark list", () -> {
      p.check("get_databases(*)", p.call("get_databases", () -> c().get_databases("*")),
              Peer.list("default", "web"));
      p.check("get_tables(web, *)", p.call("get_tables", () -> c().get_tables("web", "*")),
              Peer.list("hits"));
      return null;
    });
    p.section("spark list by type", () -> {
      p.check(
          "get_tables_by_type(web, *, MANAGED_TABLE)",
          p.call("get_tables_by_type", () -> c().get_tables_by_type("web", "*", "MANAGED_TABLE")),
          Peer.list("hits"));
      p.check(
          "get_tables_by_type(web, *, VIRTUAL_VIEW)",
          p.call("get_tables_by_type", () -> c().get_tables_by_type("web", "*", "VIRTUAL_VIEW")),
          Peer.list());
      return null;
    });
    p.section("spark tables by name", () -> {
      /* getRawTablesByName: 2.3's getTableObjectsByName sends the _req */
      GetTablesRequest req = new GetTablesRequest("web");
      req.setTblNames(Peer.list("hits", "nosuch"));
      if (Fixture.caps() != null) req.setCapabilities(Fixture.caps());
      List<Table> got =
          p.call("get_table_objects_by_name_req", () -> c().get_table_objects_by_name_req(req))
              .getTables();
      p.check("get_table_objects_by_name_req(web, [hits, nosuch])", got,
              Peer.list(f.hits(got.isEmpty() ? null : got.get(0))));
      return null;
    });
  }

  /* SELECT ... FROM web.hits WHERE <partition predicate> */
  void plan() {
    p.section("spark plan", () -> {
      Table t = getTable("web", "hits");
      p.check("get_table_req(web, hits)", t, f.hits(t));
      return null;
    });
    p.section("spark plan: direct SQL setting", () -> {
      /* Shim_v2_3.getPartitionsByFilter reads the metastore's direct SQL
       * setting first, for its warning on a fallback */
      String direct = p.call("get_config_value",
                             () -> c().get_config_value("hive.metastore.try.direct.sql", "true"));
      /* hivelite answers false: its filter is its own, not Hive's direct SQL */
      p.check("get_config_value(hive.metastore.try.direct.sql)", direct, "false");
      return null;
    });
    p.section("spark plan: by filter", () -> {
      /* convertFilters: string literals in double quotes, ints bare, " and " */
      String filter = "ds >= \"2024-01-02\" and h < 3";
      List<Partition> got;
      try {
        got = p.call("get_partitions_by_filter",
                     () -> c().get_partitions_by_filter("web", "hits", filter, (short)-1));
      } catch (org.apache.hadoop.hive.metastore.api.MetaException e) {
        /* Spark's fallback on a MetaException: every partition, pruned by
         * Spark itself; a server that cannot filter typed keys gets here */
        System.out.println("note get_partitions_by_filter: MetaException " + e.getMessage() +
                           "; Spark falls back to get_partitions");
        got = p.call("get_partitions", () -> c().get_partitions("web", "hits", (short)-1));
        p.check("get_partitions (fallback)", got, f.hitParts(got, 0, 1, 2));
        got = null;
      }
      if (got != null) p.check("get_partitions_by_filter(" + filter + ")", got, f.hitParts(got, 1));
      List<Partition> g2 = p.call(
          "get_partitions_by_filter",
          () -> c().get_partitions_by_filter("web", "hits", "ds = \"2024-01-01\"", (short)-1));
      p.check("get_partitions_by_filter(ds = \"2024-01-01\")", g2, f.hitParts(g2, 0));
      return null;
    });
    p.section("spark plan: fast fallback", () -> {
      /* prunePartitionsFastFallback (a predicate Hive's filter cannot take):
       * names, pruned by Spark, then the partitions by names */
      p.check(
          "get_partition_names(web, hits)",
          p.call("get_partition_names", () -> c().get_partition_names("web", "hits", (short)-1)),
          Fixture.HIT_NAMES);
      List<String> names = Peer.list(Fixture.HIT_NAMES.get(0), Fixture.HIT_NAMES.get(2));
      List<Partition> g3 = p.call("get_partitions_by_names",
                                  () -> c().get_partitions_by_names("web", "hits", names));
      p.check("get_partitions_by_names(web, hits, [1, 3])", g3, f.hitParts(g3, 0, 2));
      return null;
    });
    p.section("spark plan: by spec", () -> {
      /* getPartitions(table, spec) and getPartitionOption(spec) */
      List<Partition> g4 = p.call(
          "get_partitions_ps_with_auth",
          ()
              -> c().get_partitions_ps_with_auth("web", "hits", Peer.list("2024-01-01"), (short)-1,
                                                 Fixture.USER, Peer.list(Fixture.GROUP)));
      p.check("get_partitions_ps_with_auth(web, hits, [2024-01-01])", g4, f.hitParts(g4, 0));
      return null;
    });
    p.section("spark plan: one partition", () -> {
      Partition g5 =
          p.call("get_partition_with_auth",
                 ()
                     -> c().get_partition_with_auth("web", "hits", Peer.list("2024-01-02", "2"),
                                                    Fixture.USER, Peer.list(Fixture.GROUP)));
      p.check("get_partition_with_auth(web, hits, [2024-01-02, 2])", g5, f.hitPart(1, g5));
      return null;
    });
  }

  void negative() {
    p.section("spark errors", () -> {
      p.check("get_table_req(web, nosuch)", Peer.raised(() -> getTable("web", "nosuch")),
              "NoSuchObjectException: table \"web.nosuch\" does not exist");
      p.check("get_master_keys (not implemented)", Peer.raised(() -> c().get_master_keys()),
              "TApplicationException 1: Invalid method name: 'get_master_keys'");
      p.check("get_all_databases after UNKNOWN_METHOD",
              p.call("get_all_databases", () -> c().get_all_databases()),
              Peer.list("default", "web"));
      return null;
    });
  }

  // ---- writes

  static List<org.apache.hadoop.hive.metastore.api.FieldSchema> cols() {
    return Peer.list(Want.col("id", "int"), Want.col("name", "string"));
  }

  static List<org.apache.hadoop.hive.metastore.api.FieldSchema> keys() {
    return Peer.list(Want.col("ds", "string"), Want.col("h", "int"));
  }

  static final String PART = "ds=2024-02-01/h=1";
  static final List<String> VALS = Peer.list("2024-02-01", "1");

  /* The table as HiveClientImpl.toHiveTable builds it for CREATE TABLE
   * web.sjt (id INT, name STRING) PARTITIONED BY (ds STRING, h INT) ROW
   * FORMAT DELIMITED FIELDS TERMINATED BY ',' */
  Table sparkTable(Map<String, String> params) {
    Table t = Want.table("web", T, Want.textSd(cols(), f.uri("web.db/" + T)), keys(), params,
                         "MANAGED_TABLE", f.started);
    t.setOwner(Fixture.USER);
    return t;
  }

  static final Map<String, String> SPARK_PARAMS = Want.map("spark.sql.create.version", "3.5.1");

  /* A table or partition read back: the server's createTime (Hive sets its
   * own) must lie in this run, and the transient_lastDdlTime Hive adds is
   * a time of this run too. */
  Map<String, String> dropDdlTime(String what, Map<String, String> params) {
    Map<String, String> m = new HashMap<>(params);
    String ddl = m.remove("transient_lastDdlTime");
    if (ddl != null)
      p.check(what + ": transient_lastDdlTime in this run", f.runTime(Integer.parseInt(ddl)) != -1,
              true);
    return m;
  }

  Table readBack(String what, Table got) {
    Table t = got.deepCopy();
    t.setCreateTime(f.runTime(t.getCreateTime()) == -1 ? -1 : f.started);
    t.setParameters(dropDdlTime(what, t.getParameters()));
    return t;
  }

  Partition readBack(String what, Partition got) {
    Partition q = got.deepCopy();
    q.setCreateTime(f.runTime(q.getCreateTime()) == -1 ? -1 : f.started);
    q.setParameters(dropDdlTime(what, q.getParameters()));
    return q;
  }

  Partition sparkPart(Map<String, String> params) {
    StorageDescriptor sd = Want.textSd(cols(), f.uri("web.db/" + T + "/" + PART));
    return Want.partition("web", T, VALS, sd, params, f.started);
  }

  /* CREATE TABLE: HiveExternalCatalog.createTable -> requireDbExists,
   * tableExists (get_table_req), Hive.createTable ->
   * create_table_with_environment_context (no context). */
  boolean create() {
    return p.section("spark create table", () -> {
      Database db = p.call("get_database", () -> c().get_database("web"));
      p.check("get_database(web).locationUri", db.getLocationUri(), f.uri("web.db"));
      p.check("tableExists(web.sjt) before", Peer.raised(() -> getTable("web", T)),
              "NoSuchObjectException: table \"web.sjt\" does not exist");
      Table t = sparkTable(SPARK_PARAMS);
      p.call("create_table_with_environment_context", () -> {
        c().create_table_with_environment_context(t, null);
        return null;
      });
      Table got = getTable("web", T);
      p.check("get_table_req(web, sjt) after create", readBack("sjt", got), t);
      String dup = p.raisedBy("create_table_with_environment_context", () -> {
        c().create_table_with_environment_context(t, null);
        return null;
      });
      p.check("create sjt again: AlreadyExistsException",
              dup.startsWith("AlreadyExistsException: "), true);
      return null;
    });
  }

  /* INSERT INTO web.sjt PARTITION (ds='2024-02-01', h=1) twice: the files
   * land in the partition directory, then Hive.loadPartition:
   * get_partition_with_auth, add_partition for a new partition (quick stats
   * numFiles/totalSize), alter_partition_with_environment_context for an
   * existing one; then the statistics: alter_table_with_environment_context
   * (basic statistics as Hive and Spark write them) and
   * alter_partitions_with_environment_context (Spark's alterPartitions). */
  boolean insert() {
    return p.section("spark insert", () -> {
      getTable("web", T);
      String[] rows1 = {"1,x", "2,yy"};
      long s1 = f.writeFile("web.db/" + T + "/" + PART, "part-00000", rows1);
      p.check(
          "get_partition_with_auth(new partition)",
          Peer.raised(()
                          -> p.call("get_partition_with_auth",
                                    ()
                                        -> c().get_partition_with_auth("web", T, VALS, Fixture.USER,
                                                                       Peer.list(Fixture.GROUP)))),
          "NoSuchObjectException: partition (2024-02-01, 1) of web.sjt does not exist");
      Partition np = sparkPart(Want.map("numFiles", "1", "totalSize", "" + s1));
      Partition added = p.call("add_partition", () -> c().add_partition(np));
      p.check("add_partition returns the partition", readBack("add_partition", added), np);

      String[] rows2 = {"3,zzz"};
      long s2 = f.writeFile("web.db/" + T + "/" + PART, "part-00001", rows2);
      Partition old = p.call("get_partition_with_auth",
                             ()
                                 -> c().get_partition_with_auth("web", T, VALS, Fixture.USER,
                                                                Peer.list(Fixture.GROUP)));
      p.check("get_partition_with_auth(existing)", readBack("existing", old), np);
      Partition ap = old.deepCopy();
      ap.setParameters(Want.map("numFiles", "2", "totalSize", "" + (s1 + s2)));
      p.call("alter_partition_with_environment_context", () -> {
        c().alter_partition_with_environment_context("web", T, ap, null);
        return null;
      });
      Partition after =
          p.call("get_partition_by_name", () -> c().get_partition_by_name("web", T, PART));
      p.check("get_partition_by_name after alter_partition", readBack("after", after),
              sparkPart(Want.map("numFiles", "2", "totalSize", "" + (s1 + s2))));

      /* ANALYZE TABLE web.sjt PARTITION (...) COMPUTE STATISTICS, then the
       * table's: Hive's keys, and Spark's own */
      long raw = Fixture.raw(rows1) + Fixture.raw(rows2);
      Map<String, String> st = Want.stats(2, 3, s1 + s2, raw);
      Partition sp = after.deepCopy();
      sp.setParameters(new HashMap<>(st));
      p.call("alter_partitions_with_environment_context", () -> {
        c().alter_partitions_with_environment_context("web", T, Peer.list(sp), null);
        return null;
      });
      List<Partition> byName = p.call("get_partitions_by_names",
                                      () -> c().get_partitions_by_names("web", T, Peer.list(PART)));
      p.check("partition statistics after alter_partitions", byName.size(), 1);
      if (byName.size() == 1)
        p.check("partition statistics", readBack("stats", byName.get(0)), sparkPart(st));

      Table tt = getTable("web", T).deepCopy();
      Map<String, String> tparams = Want.plus(
          Want.plus(SPARK_PARAMS, st), Want.map("spark.sql.statistics.totalSize", "" + (s1 + s2),
                                                "spark.sql.statistics.numRows", "3"));
      tt.setParameters(new HashMap<>(tparams));
      p.call("alter_table_with_environment_context", () -> {
        c().alter_table_with_environment_context("web", T, tt, null);
        return null;
      });
      p.check("table statistics after alter_table", readBack("sjt stats", getTable("web", T)),
              sparkTable(tparams));
      System.out.println("FILLED web.sjt");
      return null;
    });
  }

  /* ALTER TABLE web.sjt DROP PARTITION (...) then DROP TABLE web.sjt:
   * HiveClientImpl.dropPartitions looks the partitions up by spec
   * (get_partitions_ps_with_auth) and drops each with
   * drop_partition_with_environment_context (deleteData); dropTable gets the
   * table first, then drop_table_with_environment_context (no context
   * without PURGE). */
  void drop() {
    p.section("spark drop", () -> {
      p.requires(!Peer.raised(() -> getTable("web", T)).startsWith("NoSuchObjectException"),
                 "create_table_with_environment_context");
      getTable("web", T);
      List<Partition> m =
          p.call("get_partitions_ps_with_auth",
                 ()
                     -> c().get_partitions_ps_with_auth("web", T, VALS, (short)-1, Fixture.USER,
                                                        Peer.list(Fixture.GROUP)));
      p.check("get_partitions_ps_with_auth(spec) finds one", m.size(), 1);
      p.check("drop_partition_with_environment_context",
              p.call("drop_partition_with_environment_context",
                     () -> c().drop_partition_with_environment_context("web", T, VALS, true, null)),
              true);
      p.check("get_partition_names after drop",
              p.call("get_partition_names", () -> c().get_partition_names("web", T, (short)-1)),
              Peer.list());
      p.check(
          "drop the partition again",
          Peer.raised(
              () -> c().drop_partition_with_environment_context("web", T, VALS, true, null)),
          "NoSuchObjectException: partition ('2024-02-01', '1') of table \"web.sjt\" does not exist");
      getTable("web", T);
      p.call("drop_table_with_environment_context", () -> {
        c().drop_table_with_environment_context("web", T, true, null);
        return null;
      });
      p.check("get_table_req(web, sjt) after drop", Peer.raised(() -> getTable("web", T)),
              "NoSuchObjectException: table \"web.sjt\" does not exist");
      System.out.println("DROPPED web.sjt");
      return null;
    });
  }
}
