/*
 * SaslPeer.java -- a Java client of hivelite's metastore over Kerberos, run
 * by tests/hms/server_kerberos.py: Apache Thrift's Java TSaslClientTransport
 * (Debian's libthrift-java, the runtime of Hive, Spark and Trino) with the
 * JDK's own GSSAPI SASL client, logged in from a keytab through JAAS's
 * Krb5LoginModule as Hadoop's UserGroupInformation does.  It calls
 * get_all_databases with the binary protocol written by hand (no generated
 * code: what is under test is the transport) and prints the names, one
 * line "databases: a,b".
 *
 *   java -Djava.security.krb5.conf=KRB5_CONF -cp thrift.jar:slf4j-api.jar:slf4j-nop.jar:DIR \
 *        SaslPeer PORT SERVER_HOST QOP KEYTAB PRINCIPAL
 * Errors: "ERROR <exception class>: message" on stderr, exit 1.
 */
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import javax.security.auth.Subject;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.auth.login.LoginContext;
import javax.security.sasl.Sasl;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;

public class SaslPeer {
  public static void main(String[] args) throws Exception {
    final int port = Integer.parseInt(args[0]);
    final String host = args[1], qop = args[2], keytab = args[3], principal = args[4];
    Configuration jaas = new Configuration() {
      @Override
      public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
        Map<String, String> o = new HashMap<>();
        o.put("useKeyTab", "true");
        o.put("keyTab", keytab);
        o.put("principal", principal);
        o.put("storeKey", "true");
        o.put("doNotPrompt", "true");
        o.put("useTicketCache", "false");
        o.put("refreshKrb5Config", "true");
        return new AppConfigurationEntry[] {new AppConfigurationEntry(
            "com.sun.security.auth.module.Krb5LoginModule",
            AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, o)};
      }
    };
    try {
      LoginContext lc = new LoginContext("hivelite", null, null, jaas);
      lc.login();
      String out = Subject.doAs(lc.getSubject(), (PrivilegedExceptionAction<String>) () -> {
        Map<String, String> props = new HashMap<>();
        props.put(Sasl.QOP, qop);
        props.put(Sasl.SERVER_AUTH, "true");
        TSocket sock = new TSocket("127.0.0.1", port, 20000);
        TSaslClientTransport t =
            new TSaslClientTransport("GSSAPI", null, "hive", host, props, null, sock);
        t.open();
        TBinaryProtocol p = new TBinaryProtocol(t);
        p.writeMessageBegin(new TMessage("get_all_databases", TMessageType.CALL, 1));
        p.writeStructBegin(new TStruct("get_all_databases_args"));
        p.writeFieldStop();
        p.writeStructEnd();
        p.writeMessageEnd();
        t.flush();
        TMessage m = p.readMessageBegin();
        if (m.type != TMessageType.REPLY || m.seqid != 1) throw new Exception("bad reply " + m);
        StringBuilder sb = new StringBuilder("databases: ");
        p.readStructBegin();
        for (;;) {
          TField f = p.readFieldBegin();
          if (f.type == TType.STOP) break;
          if (f.id == 0 && f.type == TType.LIST) {
            TList l = p.readListBegin();
            for (int i = 0; i < l.size; i++) sb.append(i > 0 ? "," : "").append(p.readString());
            p.readListEnd();
          } else {
            throw new Exception("unexpected field " + f.id);
          }
          p.readFieldEnd();
        }
        p.readStructEnd();
        p.readMessageEnd();
        t.close();
        return sb.toString();
      });
      System.out.println(out);
    } catch (Exception e) {
      Throwable c = e;
      while (c.getCause() != null && c instanceof java.security.PrivilegedActionException) c = c.getCause();
      System.err.println("ERROR " + c.getClass().getName() + ": " + c.getMessage());
      System.exit(1);
    }
  }
}
