# Golden values for src/data/reference-split.ts: numpy's legacy RandomState(seed).permutation(n),
# the draw under scikit-learn's train_test_split(random_state=seed). Output: test/fixtures/numpy-permutation.json.
# Run: python3 tools/golden/gen_numpy_permutation.py > test/fixtures/numpy-permutation.json (Debian's python3-numpy).
import json
import numpy as np

cases = [(1234, 10), (0, 37), (4294967295, 5), (1234, 1000), (7, 1)]
print(json.dumps({"numpy": np.__version__, "cases": [{"seed": s, "n": n, "permutation": np.random.RandomState(s).permutation(n).tolist()} for s, n in cases]}))
