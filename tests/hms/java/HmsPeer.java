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
 * Exit 0 when every check that ran passed (PENDING lines name the steps
 * that did not run), 1 otherwise, 2 on bad usage. */
import org.apache.thrift.transport.TTransportException;

public final class HmsPeer {
  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: HmsPeer read|write|drop|framed HOST PORT WAREHOUSE FROM TO");
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
}
