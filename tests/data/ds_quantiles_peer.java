package org.apache.datasketches.quantiles;

import org.apache.datasketches.memory.Memory;

/* Peer for hivelite's util/ds_quantiles: prints sketches made with a seeded Random. */
public class DsqPeer {
  static final long SEED = 20260901L;
  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) sb.append(String.format("%02X", x));
    return sb.toString();
  }
  static UpdateDoublesSketch make(int k, int n, int mul, int mod) {
    DoublesSketch.setRandom(SEED);
    UpdateDoublesSketch s = DoublesSketch.builder().setK(k).build();
    for (int i = 0; i < n; i++) s.update((double) ((i * (long) mul) % mod));
    return s;
  }
  static void show(String name, DoublesSketch s) {
    byte[] b = s.toByteArray(true);
    DoublesSketch w = DoublesSketch.wrap(Memory.wrap(b));
    System.out.println(name + " bytes " + hex(b));
    System.out.println(name + " q " + java.util.Arrays.toString(w.getQuantiles(new double[] {0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0})));
    System.out.println(name + " cdf " + java.util.Arrays.toString(w.getCDF(new double[] {10, 50, 90})));
    System.out.println(name + " pmf " + java.util.Arrays.toString(w.getPMF(new double[] {10, 50, 90})));
    System.out.println(name + " even " + java.util.Arrays.toString(w.getQuantiles(5)));
  }
  public static void main(String[] a) {
    show("small", make(128, 10, 1, 1000));
    show("k4", make(4, 100, 37, 101));
    show("k8", make(8, 1000, 7919, 997));
    DoublesSketch s = DoublesSketch.wrap(Memory.wrap(make(4, 100, 37, 101).toByteArray(true)));
    System.out.print("k4 str" + s.toString());
    DoublesSketch e = DoublesSketch.wrap(Memory.wrap(DoublesSketch.builder().build().toByteArray(true)));
    System.out.print("empty str" + e.toString());
    // unions: A (k 8) then B (k 16) into a union of maxK 16, the union's draws from SEED
    UpdateDoublesSketch A = make(8, 77, 13, 89);
    UpdateDoublesSketch B = make(16, 300, 31, 211);
    DoublesSketch.setRandom(SEED);
    DoublesUnion u = DoublesUnion.builder().setMaxK(16).build();
    u.update(DoublesSketch.wrap(Memory.wrap(B.toByteArray(true))));
    u.update(DoublesSketch.wrap(Memory.wrap(A.toByteArray(true))));
    show("unionBA", u.getResultAndReset());
    DoublesSketch.setRandom(SEED);
    DoublesUnion u2 = DoublesUnion.builder().setMaxK(16).build();
    u2.update(DoublesSketch.wrap(Memory.wrap(A.toByteArray(true))));
    u2.update(DoublesSketch.wrap(Memory.wrap(B.toByteArray(true))));
    show("unionAB", u2.getResultAndReset());
    UpdateDoublesSketch C = make(8, 40, 3, 50);
    DoublesSketch.setRandom(SEED);
    DoublesUnion u3 = DoublesUnion.builder().setMaxK(8).build();
    u3.update(DoublesSketch.wrap(Memory.wrap(C.toByteArray(true))));
    u3.update(DoublesSketch.wrap(Memory.wrap(A.toByteArray(true))));
    show("unionCA", u3.getResultAndReset());
  }
}
