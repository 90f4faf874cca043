#!/usr/bin/python3
"""Golden values for the VGM (src/models/ctgan/vgm.ts): scikit-learn's BayesianGaussianMixture on the
numeric columns of the Adult test file, with the settings CTGAN's transformer (RDT
ClusterBasedNormalizer) uses, for several random_state values.

Development-time only; the tests read the JSON it writes and never need Python.

    /usr/bin/python3 tools/golden/gen_vgm.py                 # writes test/fixtures/golden-vgm-adult.json
    /usr/bin/python3 tools/golden/gen_vgm.py /tmp/out        # or into another directory

Needs Debian's python3-sklearn (1.2) and python3-numpy. The data comes from $LUCID_DATA_DIR
(default ../shared/data relative to the repository, i.e. /work/shared/data): adult/adult.test,
with or without the header line / the `|1x3 Cross validator` line. Rows with a `?` in any field
are dropped, leaving 15060 rows.
"""
import json
import os
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import BayesianGaussianMixture

COLUMNS = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
# Positions in the 15-field UCI layout.
POSITIONS = {"age": 0, "fnlwgt": 2, "education-num": 4, "capital-gain": 10, "capital-loss": 11, "hours-per-week": 12}
SEEDS = list(range(10))
SETTINGS = dict(
    n_components=10,
    weight_concentration_prior_type="dirichlet_process",
    weight_concentration_prior=0.001,
    covariance_type="full",
    reg_covar=1e-6,
    max_iter=100,
    tol=1e-3,
    n_init=1,
    init_params="kmeans",
)
THRESHOLD = 0.005


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read_adult_test():
    data_dir = os.environ.get("LUCID_DATA_DIR") or os.path.join(repo_root(), "..", "shared", "data")
    path = os.path.join(data_dir, "adult", "adult.test")
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("|"):
                continue
            fields = [s.strip() for s in line.split(",")]
            if len(fields) != 15 or not fields[0].lstrip("-").isdigit():
                continue  # header line
            if "?" in fields:
                continue
            rows.append(fields)
    cols = {c: np.array([float(r[POSITIONS[c]]) for r in rows], dtype=np.float64) for c in COLUMNS}
    return path, len(rows), cols


def fit(x, seed):
    bgm = BayesianGaussianMixture(random_state=seed, **SETTINGS)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        bgm.fit(x.reshape(-1, 1))
    secs = time.perf_counter() - t0
    w = bgm.weights_
    means = bgm.means_[:, 0]
    stds = np.sqrt(bgm.covariances_[:, 0, 0])
    active = np.flatnonzero(w > THRESHOLD)
    order = active[np.argsort(means[active])]
    return {
        "seed": seed,
        "n_modes": int(active.size),
        # active modes (weight > 0.005), sorted by mean
        "weights": [float(v) for v in w[order]],
        "means": [float(v) for v in means[order]],
        "stds": [float(v) for v in stds[order]],
        # every component, sorted by weight (largest first)
        "all_weights": [float(v) for v in np.sort(w)[::-1]],
        "score": float(bgm.score(x.reshape(-1, 1))),
        "lower_bound": float(bgm.lower_bound_),
        "n_iter": int(bgm.n_iter_),
        "converged": bool(bgm.converged_),
        "fit_seconds": round(secs, 3),
    }


def quantile_labels(x, k):
    """A deterministic initialisation both implementations can reproduce exactly: sample i goes to
    component floor(rank_i * k / n), ranks from a stable sort (ties keep their row order)."""
    n = x.size
    order = np.argsort(x, kind="stable")
    labels = np.empty(n, dtype=np.int64)
    labels[order] = (np.arange(n) * k) // n
    return labels


class FixedInitBGM(BayesianGaussianMixture):
    """sklearn's model with the k-means initialisation replaced by given labels (one-hot
    responsibilities, exactly as _initialize_parameters builds them from the k-means labels), and
    the lower bound of every iteration recorded."""

    def __init__(self, init_labels=None, **kw):
        super().__init__(**kw)
        self.init_labels = init_labels

    def _initialize_parameters(self, X, random_state):
        resp = np.zeros((X.shape[0], self.n_components))
        resp[np.arange(X.shape[0]), self.init_labels] = 1
        self.lb_trace_ = []
        self._initialize(X, resp)

    def _compute_lower_bound(self, log_resp, log_prob_norm):
        lb = super()._compute_lower_bound(log_resp, log_prob_norm)
        self.lb_trace_.append(float(lb))
        return lb


PROBE_QUANTILES = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1.0]


def fit_fixed(x):
    k = SETTINGS["n_components"]
    bgm = FixedInitBGM(init_labels=quantile_labels(x, k), **SETTINGS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        bgm.fit(x.reshape(-1, 1))
    probes = np.quantile(x, PROBE_QUANTILES, method="lower")
    probes = np.concatenate([probes, [x.min() - 3 * x.std(), x.max() + 3 * x.std()]])
    return {
        "init": "quantile_labels",
        # every component in component order (the same order as ours, since the init is the same)
        "weights": [float(v) for v in bgm.weights_],
        "means": [float(v) for v in bgm.means_[:, 0]],
        "covariances": [float(v) for v in bgm.covariances_[:, 0, 0]],
        "weight_concentration_a": [float(v) for v in bgm.weight_concentration_[0]],
        "weight_concentration_b": [float(v) for v in bgm.weight_concentration_[1]],
        "mean_precision": [float(v) for v in bgm.mean_precision_],
        "degrees_of_freedom": [float(v) for v in bgm.degrees_of_freedom_],
        "lower_bound": float(bgm.lower_bound_),
        "lb_trace": bgm.lb_trace_,
        "n_iter": int(bgm.n_iter_),
        "converged": bool(bgm.converged_),
        "score": float(bgm.score(x.reshape(-1, 1))),
        "probe_x": [float(v) for v in probes],
        "probe_proba": [[float(v) for v in row] for row in bgm.predict_proba(probes.reshape(-1, 1))],
        "probe_score_samples": [float(v) for v in bgm.score_samples(probes.reshape(-1, 1))],
    }


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo_root(), "test", "fixtures")
    path, n, cols = read_adult_test()
    result = {
        "fixture": "golden-vgm-adult",
        "format_version": 1,
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
        "command": "/usr/bin/python3 tools/golden/gen_vgm.py",
        "data": "adult/adult.test, rows with '?' dropped",
        "rows": n,
        "settings": dict(SETTINGS, mean_precision_prior=None, mean_prior=None, degrees_of_freedom_prior=None,
                         covariance_prior=None),
        "threshold": THRESHOLD,
        "seeds": SEEDS,
        "columns": {},
    }
    for c in COLUMNS:
        x = cols[c]
        fits = [fit(x, s) for s in SEEDS]
        result["columns"][c] = {
            "mean": float(x.mean()),
            "std": float(x.std(ddof=1)),
            "fits": fits,
            "fixed_init": fit_fixed(x),
        }
        print(c, [(f["n_modes"], round(f["score"], 4), f["n_iter"], f["fit_seconds"]) for f in fits], file=sys.stderr)
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "golden-vgm-adult.json")
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(out)


if __name__ == "__main__":
    main()
