// PgPeer.java -- pgJDBC (Debian's libpostgresql-jdbc-java) against
// `hivelite serve`; run by tests/server/jdbc.py, which compares what this
// prints with the expected text line by line.  Usage: PgPeer PORT
import java.sql.*;

public class PgPeer {
  static void row(ResultSet rs) throws SQLException {
    StringBuilder b = new StringBuilder();
    b.append(rs.getInt("id")).append('|').append(rs.getString("name")).append('|')
        .append(rs.getDouble("score")).append('|').append(rs.getBigDecimal("amount")).append('|')
        .append(rs.getDate("day")).append('|').append(rs.getTimestamp("ts")).append('|')
        .append(rs.getBoolean("ok")).append('|').append(rs.getLong("big")).append('|');
    byte[] raw = rs.getBytes("raw");
    b.append(raw == null ? "null" : new String(raw)).append('|').append(rs.getShort("small"));
    System.out.println(b);
  }

  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/warehouse?user=jdbc";
    try (Connection c = DriverManager.getConnection(url)) {
      DatabaseMetaData md = c.getMetaData();
      System.out.println("server " + md.getDatabaseProductName() + " "
          + md.getDatabaseMajorVersion());
      try (Statement st = c.createStatement();
           ResultSet rs = st.executeQuery("SELECT * FROM web.t ORDER BY id")) {
        ResultSetMetaData m = rs.getMetaData();
        StringBuilder types = new StringBuilder("types");
        for (int i = 1; i <= m.getColumnCount(); i++)
          types.append(' ').append(m.getColumnName(i)).append(':').append(m.getColumnTypeName(i));
        System.out.println(types);
        while (rs.next()) row(rs);
      }
      // past pgJDBC's prepareThreshold (5): a named server statement, and
      // binary results for the types pgJDBC reads in binary
      try (PreparedStatement ps = c.prepareStatement("SELECT * FROM web.t ORDER BY id")) {
        for (int i = 1; i <= 7; i++) {
          try (ResultSet rs = ps.executeQuery()) {
            System.out.println("execution " + i);
            while (rs.next()) row(rs);
          }
        }
      }
      // a fetch size inside a transaction: Execute with a row limit,
      // PortalSuspended, then the rest
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        st.setFetchSize(2);
        try (ResultSet rs = st.executeQuery("SELECT x FROM web.many ORDER BY x")) {
          long sum = 0;
          int n = 0;
          while (rs.next()) {
            sum += rs.getInt(1);
            n++;
          }
          System.out.println("fetched " + n + " rows, sum " + sum);
        }
      }
      c.commit();
      c.setAutoCommit(true);
      try (Statement st = c.createStatement()) {
        st.executeQuery("SELECT * FROM web.nosuch");
      } catch (SQLException e) {
        System.out.println("error " + e.getSQLState() + " " + e.getMessage().split("\n")[0]);
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT id FROM web.t WHERE id = ?")) {
        ps.setInt(1, 1);
        ps.executeQuery();
      } catch (SQLException e) {
        System.out.println("parameter " + e.getSQLState() + " " + e.getMessage());
      }
      try (Statement st = c.createStatement()) {
        System.out.println("update count " + st.executeUpdate("INSERT INTO web.many VALUES (100)"));
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM web.many")) {
          rs.next();
          System.out.println("count " + rs.getLong(1));
        }
      }
    }
  }
}
