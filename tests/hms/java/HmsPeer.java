/* HmsPeer.java -- the entry point of the Java peer test of `hivelite
 * metastore` (tests/hms/java_peer.py starts the server and runs this
 * against it, once per phase):
 *
 *   java HmsPeer PHASE HOST PORT WAREHOUSE SETUP_FROM SETUP_TO
 *
 * PHASE read:   Spark's and Trino's connect/list/plan sequences on web.hits
 *               (made by hivelite SQL) and the error cases
 *       write:  both clients create a partitioned table and insert into it
 *       drop:   both drop a partition and their table
 *       framed: Trino's list and plan sequences over the framed transport
 *               (skipped, saying why, when the server closes the connection)
 *       attached: web.att, which hivelite made and filled while attached to
 *               the server (`hivelite -m thrift://...`), read as Trino
 *               plans it: table, partition names, partitions by names
 * Exit 0 when every check that ran passed (PENDING lines name the steps
 * that did not run), 1 otherwise, 2 on bad usage. */
import org.apache.thrift.transport.TTransportException;

public final class HmsPeer {
  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println(
          "usage: HmsPeer read|write|drop|framed|attached HOST PORT WAREHOUSE FROM TO");
      System.exit(2);
    }
    String phase = args[0];
    Fixture f = new Fixture(args[3], Integer.parseInt(args[4]), Integer.parseInt(args[5]));
    Peer p = new Peer(args[1], Integer.parseInt(args[2]), phase.equals("framed"));
    p.open();
    SparkFlow spark = new SparkFlow(p, f);
    TrinoFlow trino = new TrinoFlow(p, f);
    switch (phase) {
    case "read":
      spark.connect();
      spark.list();
      spark.plan();
      spark.negative();
      p.close();
      p.open(); /* Trino's own connection */
      trino.list();
      trino.plan();
      trino.negative();
      break;
    case "attached":
      attached(p, args[3]);
      break;
    case "write":
      spark.connect();
      if (spark.create()) spark.insert();
      p.close();
      p.open();
      if (trino.create()) trino.insert();
      break;
    case "drop":
      spark.connect();
      spark.drop();
      p.close();
      p.open();
      trino.drop();
      break;
    case "framed":
      /* a server without the framed transport reads the frame length as
       * a message header: it either closes the connection (skip, saying
       * so) or waits for bytes that never come (a failure, unless the
       * framed transport is still pending) */
      p.socket.setTimeout(10000);
      try {
        p.client.get_all_databases();
      } catch (TTransportException e) {
        boolean timedOut = e.getCause() instanceof java.net.SocketTimeoutException;
        p.close();
        if (!timedOut) {
          System.out.println("SKIP framed pass: the server closed the framed connection (" +
                             e.getMessage() + ")");
        } else if (Peer.PENDING_METHODS.contains(Peer.FRAMED)) {
          p.pendingSeen.add(Peer.FRAMED);
          System.out.println("PENDING framed pass: no answer to a framed call in 10 s");
        } else {
          p.fail("framed get_all_databases", "no answer in 10 s: " + e);
        }
        System.exit(p.finish());
      }
      p.socket.setTimeout(30000);
      trino.list();
      trino.plan();
      trino.negative();
      break;
    default:
      System.err.println("unknown phase " + phase);
      System.exit(2);
    }
    p.close();
    System.exit(p.finish());
  }

  /* web.att as hivelite attached through the metastore API made it: text
   * table, two partitions with their row counts, in the served warehouse. */
  static void attached(Peer p, String warehouse) throws Exception {
    org.apache.hadoop.hive.metastore.api.Table t = p.client.get_table("web", "att");
    String loc = "file:" + warehouse + "/web.db/att";
    p.check("attached: table type", t.getTableType(), "MANAGED_TABLE");
    p.check("attached: location", t.getSd().getLocation(), loc);
    java.util.List<String> cols = new java.util.ArrayList<>();
    for (org.apache.hadoop.hive.metastore.api.FieldSchema c : t.getSd().getCols())
      cols.add(c.getName() + " " + c.getType());
    p.check("attached: columns", cols, java.util.Arrays.asList("id int", "v string"));
    java.util.List<String> keys = new java.util.ArrayList<>();
    for (org.apache.hadoop.hive.metastore.api.FieldSchema c : t.getPartitionKeys())
      keys.add(c.getName() + " " + c.getType());
    p.check("attached: partition keys", keys, java.util.Arrays.asList("ds string", "h int"));
    p.check("attached: serde", t.getSd().getSerdeInfo().getSerializationLib(),
            "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    java.util.List<String> names = p.client.get_partition_names("web", "att", (short)-1);
    p.check("attached: partition names", names, java.util.Arrays.asList("ds=x/h=1", "ds=y/h=2"));
    java.util.List<String> got = new java.util.ArrayList<>();
    for (org.apache.hadoop.hive.metastore.api.Partition part :
         p.client.get_partitions_by_names("web", "att", names))
      got.add(String.join(",", part.getValues()) + " " + part.getSd().getLocation() + " " +
              part.getParameters().get("numRows"));
    p.check("attached: partitions", got,
            java.util.Arrays.asList("x,1 " + loc + "/ds=x/h=1 2", "y,2 " + loc + "/ds=y/h=2 1"));
  }
}
