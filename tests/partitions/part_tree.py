#!/usr/bin/env python3
"""part_tree.py -- writes a Hive partition tree `dt=D/hr=H/` of N_DT days
(from 2020-01-01) by N_HR hours (0..N_HR-1) under ROOT, each leaf empty or
holding one one-line text file.  Shared by bench/partitions.sh (a million
partitions) and tests/partitions/scale.py (a few thousand), so that both
measure and check the same shape.  With --text the dt values are s000,
s001, ... instead of days: a STRING first key that is not text dates (the
incremental-field decision of bench/partitions_ab.sh).

Usage: part_tree.py ROOT N_DT N_HR [--files] [--text]
Standard library only.
"""
import datetime
import os
import sys


def day(i):
    """The i-th day of the tree, as its dt value (yyyy-MM-dd)."""
    return (datetime.date(2020, 1, 1) + datetime.timedelta(days=i)).isoformat()


def write(root, n_dt, n_hr, files, text=False):
    for d in range(n_dt):
        dt = "s%03d" % d if text else day(d)
        top = os.path.join(root, "dt=" + dt)
        os.makedirs(top, exist_ok=True)
        for h in range(n_hr):
            leaf = os.path.join(top, "hr=%d" % h)
            os.mkdir(leaf)
            if files:
                with open(os.path.join(leaf, "part-0.txt"), "w") as f:
                    f.write("%s-%d\n" % (dt, h))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 3:
        sys.exit(__doc__)
    write(args[0], int(args[1]), int(args[2]), "--files" in sys.argv, "--text" in sys.argv)
