/* Peer.java -- the harness of the Java peer test of `hivelite metastore`
 * (tests/hms/java_peer.py runs it): one Thrift connection made as the Hive
 * 2.3 client (Spark's) or Trino makes it, exact checks that print `ok` /
 * `FAIL` lines, and the list of server methods that have not landed yet.
 *
 * Why a list of pending methods: the server grows method by method; a
 * sequence step calls its method through call(), and a method answered with
 * TApplicationException UNKNOWN_METHOD is a failure unless it is listed in
 * PENDING_METHODS, in which case the whole section stops and prints a
 * PENDING line, so that nobody reads the run as a pass of that step.  A
 * listed method that the server does answer is checked like any other (and
 * a NOTE asks to take it off the list). */
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.hadoop.hive.metastore.api.ThriftHiveMetastore;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

final class Peer {
  static final String FRAMED = "(framed transport)";

  /* Server methods the sequences call that have not landed on main yet (see
   * the class comment).  Keep it to what the server really lacks. */
  static final Set<String> PENDING_METHODS = new LinkedHashSet<>(Arrays.asList(
      /* none: every method the sequences call is served (add a name here
       * only for a method the server really lacks) */));

  /* A method in PENDING_METHODS answered UNKNOWN_METHOD: the section stops. */
  static final class Pending extends RuntimeException {
    final String method;

    Pending(String method) {
      super("pending: " + method);
      this.method = method;
    }
  }

  interface Call<T> {
    T run() throws TException;
  }

  final List<String> failures = new ArrayList<>();
  final Set<String> pendingSeen = new LinkedHashSet<>();
  final Set<String> pendingServed = new LinkedHashSet<>();
  final String host;
  final int port;
  final boolean framed;
  TSocket socket; /* under transport (the same one unless framed) */
  TTransport transport;
  ThriftHiveMetastore.Client client;

  Peer(String host, int port, boolean framed) {
    this.host = host;
    this.port = port;
    this.framed = framed;
  }

  /* Spark's HiveMetaStoreClient 2.3 and Trino both open a TSocket (whose
   * streams are buffered) under TBinaryProtocol; framed only when
   * configured (hive.metastore.thrift.framed.transport.enabled). */
  void open() throws TException {
    socket = new TSocket(host, port, 30000);
    transport = framed ? new TFramedTransport(socket) : socket;
    transport.open();
    client = new ThriftHiveMetastore.Client(new TBinaryProtocol(transport));
  }

  void close() {
    if (transport != null) transport.close();
    transport = null;
  }

  /* Runs one call of METHOD; UNKNOWN_METHOD on a pending method raises
   * Pending, any other outcome is the caller's. */
  <T> T call(String method, Call<T> c) throws TException {
    try {
      T r = c.run();
      if (PENDING_METHODS.contains(method)) pendingServed.add(method);
      return r;
    } catch (TApplicationException e) {
      if (e.getType() == TApplicationException.UNKNOWN_METHOD && PENDING_METHODS.contains(method)) {
        pendingSeen.add(method);
        throw new Pending(method);
      }
      throw e;
    }
  }

  /* A step needs what an earlier step makes (a table created through the
   * server): when that step's METHOD is pending and PRESENT is false, the
   * section stops as pending too. */
  void requires(boolean present, String method) {
    if (!present && PENDING_METHODS.contains(method)) {
      pendingSeen.add(method);
      throw new Pending(method);
    }
  }

  /* What a call raised, as "Class: message" ("TApplicationException 1:
   * message" for those), or "no exception". */
  static String raised(Call<?> c) {
    try {
      c.run();
      return "no exception";
    } catch (TApplicationException e) {
      return "TApplicationException " + e.getType() + ": " + e.getMessage();
    } catch (TException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  /* raised(), but a pending method answered UNKNOWN_METHOD stops the
   * section as call() does. */
  String raisedBy(String method, Call<?> c) {
    String r = raised(c);
    if (r.startsWith("TApplicationException 1: ") && PENDING_METHODS.contains(method)) {
      pendingSeen.add(method);
      throw new Pending(method);
    }
    if (PENDING_METHODS.contains(method) && !r.startsWith("TApplicationException 1: "))
      pendingServed.add(method);
    return r;
  }

  void check(String what, Object got, Object want) {
    if (Objects.equals(got, want)) {
      System.out.println("ok   " + what);
    } else {
      failures.add(what);
      System.out.println("FAIL " + what + "\n  got:  " + got + "\n  want: " + want);
    }
  }

  void fail(String what, String why) {
    failures.add(what);
    System.out.println("FAIL " + what + ": " + why);
  }

  /* Runs one section of a sequence; a Pending stops it with a PENDING
   * line, any other exception is a FAIL of the section. Returns whether the
   * section ran to its end. */
  boolean section(String name, Call<Void> body) {
    System.out.println("---- " + name + (framed ? " (framed)" : ""));
    try {
      body.run();
      return true;
    } catch (Pending p) {
      System.out.println("PENDING " + name + ": stopped at " + p.method +
                         ", which the server does not serve yet (listed in Peer.PENDING_METHODS)");
      return false;
    } catch (TException | RuntimeException e) {
      fail(name, "unexpected " + e);
      e.printStackTrace(System.out);
      return false;
    }
  }

  @SafeVarargs
  static <T> List<T> list(T... xs) {
    return new ArrayList<>(Arrays.asList(xs));
  }

  static <T extends Comparable<T>> List<T> sorted(List<T> xs) {
    List<T> r = new ArrayList<>(xs);
    Collections.sort(r);
    return r;
  }

  /* The summary every phase ends with; exit status 1 on any failure. */
  int finish() {
    for (String m : pendingSeen)
      System.out.println("PENDING method not on the server yet: " + m);
    for (String m : pendingServed)
      System.out.println("NOTE " + m + " is served now: take it off Peer.PENDING_METHODS");
    if (!failures.isEmpty()) {
      System.out.println(failures.size() + " check(s) failed");
      return 1;
    }
    System.out.println(
        "all checks passed" +
        (pendingSeen.isEmpty()
             ? ""
             : " (" + pendingSeen.size() + " method(s) pending: those steps did NOT run)"));
    return 0;
  }
}
