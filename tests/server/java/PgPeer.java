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

  static void dump(String what, ResultSet rs, String... cols) throws SQLException {
    while (rs.next()) {
      StringBuilder b = new StringBuilder(what);
      for (String col : cols) b.append(' ').append(col).append('=').append(rs.getString(col));
      System.out.println(b);
    }
    rs.close();
  }

  // DatabaseMetaData, answered by the server's catalog layer
  static void metadata(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      DatabaseMetaData md = c.getMetaData();
      dump("schema", md.getSchemas(), "TABLE_SCHEM");
      dump("table", md.getTables(null, "web", "%", new String[] {"TABLE"}), "TABLE_SCHEM",
          "TABLE_NAME", "TABLE_TYPE");
      dump("column", md.getColumns(null, "web", "t", "%"), "COLUMN_NAME", "DATA_TYPE",
          "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE", "ORDINAL_POSITION");
      dump("key", md.getPrimaryKeys(null, "web", "t"), "COLUMN_NAME");
      System.out.println("metadata done");
    }
  }

  static long firstLong(PreparedStatement st, String col, String where, String value)
      throws SQLException {
    long found = 0;
    try (ResultSet rs = st.executeQuery()) {
      while (rs.next())
        if (rs.getString(where).equals(value)) found = rs.getLong(col);
    }
    return found;
  }

  // The shapes of the catalog queries DBeaver's navigator sends on
  // opening a connection and a schema (prepared, OIDs as parameters)
  static void dbeaver(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      try (Statement st = c.createStatement()) {
        dump("session", st.executeQuery("SELECT current_schema(),session_user"), "current_schema",
            "session_user");
      }
      try (PreparedStatement st = c.prepareStatement(
               "SELECT db.oid,db.* FROM pg_catalog.pg_database db WHERE datname=?")) {
        st.setString(1, "warehouse");
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next())
            System.out.println("database " + rs.getString("datname") + " allowconn="
                + rs.getBoolean("datallowconn") + " template=" + rs.getBoolean("datistemplate"));
        }
      }
      PreparedStatement ns = c.prepareStatement(
          "SELECT n.oid,n.*,d.description FROM pg_catalog.pg_namespace n\n"
          + "LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=n.oid AND d.objsubid=0 AND "
          + "d.classoid='pg_namespace'::regclass\n ORDER BY nspname");
      dump("schema", ns.executeQuery(), "nspname", "nspowner");
      long web = firstLong(ns, "oid", "nspname", "web");
      String tables = "SELECT c.oid,c.*,d.description\nFROM pg_catalog.pg_class c\n"
          + "LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND "
          + "d.classoid='pg_class'::regclass\nWHERE c.relnamespace=? AND c.relkind not in "
          + "('i','I','c')";
      long t;
      try (PreparedStatement st = c.prepareStatement(tables)) {
        st.setLong(1, web);
        dump("table", st.executeQuery(), "relname", "relkind", "relhasindex");
        t = firstLong(st, "oid", "relname", "t");
      }
      try (PreparedStatement st = c.prepareStatement(tables + " AND relname=?")) {
        st.setLong(1, web);
        st.setString(2, "many");
        dump("one table", st.executeQuery(), "relname");
      }
      String columns = "SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) "
          + "as def_value,dsc.description\nFROM pg_catalog.pg_attribute a\n"
          + "INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid)\n"
          + "LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = "
          + "ad.adnum)\nLEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND "
          + "a.attnum = dsc.objsubid)\nWHERE NOT a.attisdropped AND c.relkind not in "
          + "('i','I','c') AND ";
      try (PreparedStatement st = c.prepareStatement(columns + "c.oid=? ORDER BY a.attnum")) {
        st.setLong(1, t);
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next())
            System.out.println("column " + rs.getString("relname") + "." + rs.getString("attname")
                + " type=" + rs.getLong("atttypid") + " num=" + rs.getInt("attnum")
                + " mod=" + rs.getInt("atttypmod") + " notnull=" + rs.getBoolean("attnotnull")
                + " table=" + (rs.getLong("attrelid") == t));
        }
      }
      try (PreparedStatement st =
               c.prepareStatement(columns + "c.relnamespace=? ORDER BY a.attnum")) {
        st.setLong(1, web);
        int n = 0;
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next()) n++;
        }
        System.out.println("columns of the schema " + n);
      }
      try (Statement st = c.createStatement();
           ResultSet rs = st.executeQuery("SELECT t.oid,t.*,c.relkind,"
               + "format_type(nullif(t.typbasetype, 0), t.typtypmod) as base_type_name, "
               + "d.description\nFROM pg_catalog.pg_type t\nLEFT OUTER JOIN pg_catalog.pg_class c "
               + "ON c.oid=t.typrelid\nLEFT OUTER JOIN pg_catalog.pg_description d ON "
               + "t.oid=d.objoid\nWHERE t.typname IS NOT NULL")) {
        StringBuilder b = new StringBuilder("types");
        while (rs.next()) b.append(' ').append(rs.getLong("oid")).append(':')
            .append(rs.getString("typname"));
        System.out.println(b);
      }
      ns.close();
      System.out.println("dbeaver done");
    }
  }

  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://127.0.0.1:" + args[0] + "/warehouse?user=jdbc";
    if (args.length > 1 && args[1].equals("metadata")) {
      metadata(url);
      return;
    }
    if (args.length > 1 && args[1].equals("dbeaver")) {
      dbeaver(url);
      return;
    }
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
      // parameters of every type, past the prepare threshold too
      try (PreparedStatement ps = c.prepareStatement(
               "SELECT id, name FROM web.t WHERE id = ? AND big = ? AND score = ? AND amount = ? "
               + "AND day = ? AND ts = ? AND ok = ? AND raw = ? AND small = ? AND name = ?")) {
        for (int i = 1; i <= 7; i++) {
          ps.setInt(1, 1);
          ps.setLong(2, 9000000000L);
          ps.setDouble(3, 1.5);
          ps.setBigDecimal(4, new java.math.BigDecimal("12345.678"));
          ps.setDate(5, java.sql.Date.valueOf("2024-01-02"));
          ps.setTimestamp(6, java.sql.Timestamp.valueOf("2024-01-02 03:04:05.123456"));
          ps.setBoolean(7, true);
          ps.setBytes(8, "hi".getBytes());
          ps.setShort(9, (short) 7);
          ps.setString(10, "ann");
          try (ResultSet rs = ps.executeQuery()) {
            StringBuilder b = new StringBuilder("parameters " + i + ":");
            while (rs.next()) b.append(' ').append(rs.getInt(1)).append('/').append(rs.getString(2));
            System.out.println(b);
          }
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT ?, ? + 1, ?")) {
        ps.setString(1, "it's");
        ps.setInt(2, 41);
        ps.setNull(3, Types.INTEGER);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          System.out.println("select " + rs.getString(1) + " " + rs.getInt(2) + " " + rs.getObject(3));
        }
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO web.many VALUES (?)")) {
        ps.setInt(1, 100);
        System.out.println("insert with a parameter " + ps.executeUpdate());
      }
      try (Statement st = c.createStatement()) {
        System.out.println("update count " + st.executeUpdate("INSERT INTO web.many VALUES (10)"));
        System.out.println(
            "update count of two rows " + st.executeUpdate("INSERT INTO web.many VALUES (11), (12)"));
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM web.many")) {
          rs.next();
          System.out.println("count " + rs.getLong(1));
        }
      }
    }
  }
}
