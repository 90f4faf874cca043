#!/usr/bin/python3
"""Golden values for FALE's percentile edges (src/methods/fale/): numpy.percentile with the FALE
reference's 10 levels numpy.linspace(0, 100, 10) (method "linear", numpy's default), then
numpy.unique, on Adult's test file and on two small hand-checkable arrays.

Development-time only; the tests read the JSON it writes and never need Python.

    /usr/bin/python3 tools/golden/gen_fale_percentiles.py     # writes test/fixtures/fale-percentiles-numpy.json

Needs Debian's python3-numpy. The data comes from $LUCID_DATA_DIR (default ../shared/data):
adult/adult.test; rows with a `?` in any field are dropped, leaving 15060 rows (as loadAdult's
test split). Keys are the loader's column names.
"""
import json
import os
import sys

import numpy as np

POSITIONS = {"Age": 0, "fnlwgt": 2, "Education-Num": 4, "Hours per week": 12}


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read_adult_test():
    data_dir = os.environ.get("LUCID_DATA_DIR") or os.path.join(repo_root(), "..", "shared", "data")
    rows = []
    with open(os.path.join(data_dir, "adult", "adult.test"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("|"):
                continue
            fields = [s.strip() for s in line.split(",")]
            if len(fields) != 15 or not fields[0].lstrip("-").isdigit() or "?" in fields:
                continue
            rows.append(fields)
    return {c: np.array([float(r[p]) for r in rows], dtype=np.float64) for c, p in POSITIONS.items()}, len(rows)


def main():
    q = np.linspace(0, 100, 10)
    cols, n = read_adult_test()
    out = {
        "source": "numpy %s numpy.percentile(x, numpy.linspace(0, 100, 10)) (method linear) on the Adult test split (%d rows) as loadAdult returns it; then numpy.unique" % (np.__version__, n),
        "levels": [float(v) for v in q],
        "edges": {},
    }
    for name, x in cols.items():
        e = np.percentile(x, q)
        out["edges"][name] = {"percentiles": [float(v) for v in e], "unique": [float(v) for v in np.unique(e)]}
    small = np.array([0, 1, 4, 9, 16], dtype=np.float64)
    out["small"] = {"x": [0, 1, 4, 9, 16], "percentiles": [float(v) for v in np.percentile(small, q)]}
    ties = [3, 1, 1, 1, 1, 1, 2, 7, 7, 7, 5, 1]
    e = np.percentile(np.array(ties, dtype=np.float64), q)
    out["ties"] = {"x": ties, "percentiles": [float(v) for v in e], "unique": [float(v) for v in np.unique(e)]}
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo_root(), "test", "fixtures", "fale-percentiles-numpy.json")
    with open(dest, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print("wrote", dest)


if __name__ == "__main__":
    main()
