"""The JAX sweep engine against the numpy reference: same index stream, same gaps to float64 rounding."""

import sys

import numpy as np
import pytest

from fedtheory.errors import InvalidParameterError
from fedtheory.problems import LeastSquares, LogisticRegression, MeanSquaredError, logistic_data
from fedtheory.sweeps import fedac, jax_engine
from fedtheory.sweeps.fedac import ALGORITHMS, run_sweep

pytest.importorskip("jax")  # jax_engine itself imports without JAX
pytestmark = pytest.mark.jax  # after every other test: see tests/conftest.py

RTOL = 1e-12  # float64 rounding of a few dozen contractive steps, with the gap evaluated by the same numpy code


def _logistic(per_client: bool):
    data = logistic_data(np.random.default_rng(0), n_clients=3, n_per_client=40, dim=4, l2=0.1)
    if per_client:
        return LogisticRegression(data.features, data.labels, l2=0.1)
    return LogisticRegression(data.features[0], data.labels[0], l2=0.1)


def _least_squares(per_client: bool):
    rng = np.random.default_rng(1)
    X = 3 * rng.standard_normal((3, 40, 4) if per_client else (40, 4))
    p = LeastSquares(X, X @ np.ones(4) + rng.standard_normal(X.shape[:-1]))
    p.l2 = 1e-4  # the strong-convexity estimate both engines read as FedAc's mu (the l2 weight of a logistic problem)
    return p


PROBLEMS = {"logistic": _logistic, "least-squares": _least_squares}
# step sizes with converging and overflowing replicas (infinite gaps): every algorithm on least squares, FedAvg and
# MB-SGD on the logistic problem (FedAc's eta <= 1/mu keeps the logistic iterates bounded)
ETAS = {"logistic": [0.05, 0.5, 1e6], "least-squares": [0.001, 0.01, 1e4]}


def _both(problem, algorithm, etas, **sizes):
    kw = dict(M=3, K=2, T=128, seeds=2, eval_every=16) | sizes
    ref = run_sweep(problem, 0.0, algorithm, etas=etas, rng=np.random.default_rng(5), engine="numpy", **kw)
    out = run_sweep(problem, 0.0, algorithm, etas=etas, rng=np.random.default_rng(5), engine="jax", **kw)
    return ref, out


def _agree(ref, out):
    np.testing.assert_array_equal(out.rounds_at, ref.rounds_at)
    np.testing.assert_array_equal(np.isinf(out.gap), np.isinf(ref.gap))
    np.testing.assert_allclose(out.gap, ref.gap, rtol=RTOL)


@pytest.mark.parametrize("kind", PROBLEMS)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_agrees_with_numpy_including_divergent_replicas(kind, algorithm):
    p = PROBLEMS[kind](per_client=False)
    diverges = kind == "least-squares" or algorithm in ("fedavg", "mb-sgd")
    etas = ETAS[kind] if diverges else [0.05, 0.5, 1 / p.l2]
    ref, out = _both(p, algorithm, etas)
    _agree(ref, out)
    assert np.all(np.isfinite(ref.gap[:2]))
    assert np.all(np.isinf(ref.gap[2, :, -1])) == diverges  # dead replicas, dead at the same round in both engines


@pytest.mark.parametrize("kind", PROBLEMS)
@pytest.mark.parametrize("algorithm", ["fedac-i", "fedavg"])
def test_per_client_data_agrees_with_numpy(kind, algorithm):
    ref, out = _both(PROBLEMS[kind](per_client=True), algorithm, [0.05, 0.2])
    _agree(ref, out)


def test_per_client_data_with_a_minibatch_baseline_is_refused_like_numpy():
    p = _logistic(per_client=True)
    for engine in ("numpy", "jax"):
        with pytest.raises(InvalidParameterError, match="M"):
            run_sweep(p, 0.0, "mb-sgd", M=3, K=2, T=4, etas=[0.1], seeds=1, rng=np.random.default_rng(0), engine=engine)


def test_a_large_minibatch_is_summed_in_chunks(monkeypatch):
    # M K = 12 rows per step in chunks of 5: two full chunks and one padded with zero weights
    monkeypatch.setattr(jax_engine, "CHUNK", 5)
    ref, out = _both(_logistic(per_client=False), "mb-ac-sgd", [0.05, 0.5])
    _agree(ref, out)


def test_the_engine_follows_the_environment(monkeypatch):
    calls = []

    def spy(problem, rng, R, *args):
        calls.append(R)
        return iter(())

    monkeypatch.setattr(jax_engine, "server_iterates", spy)
    p = _logistic(per_client=False)
    kw = dict(M=2, K=2, T=4, etas=[0.1], seeds=1)
    monkeypatch.setenv("FEDTHEORY_SWEEP_ENGINE", "jax")
    assert run_sweep(p, 0.0, "fedavg", rng=np.random.default_rng(0), **kw).rounds_at.tolist() == [0]  # spy: no rounds
    assert calls == [2]
    monkeypatch.setenv("FEDTHEORY_SWEEP_ENGINE", "numpy")
    assert run_sweep(p, 0.0, "fedavg", rng=np.random.default_rng(0), **kw).rounds_at.tolist() == [0, 2]
    assert calls == [2]


def test_bad_engine_problem_and_missing_jax(monkeypatch):
    p = _logistic(per_client=False)
    kw = dict(M=2, K=2, T=4, etas=[0.1], seeds=1, rng=np.random.default_rng(0))
    with pytest.raises(InvalidParameterError, match="engine"):
        run_sweep(p, 0.0, "fedavg", engine="cupy", **kw)
    other = MeanSquaredError(np.ones((5, 3)), np.ones(5))  # a finite sum Minibatch samples, unknown to the JAX engine
    other.l2 = 0.1  # the FedAc mu the sweep reads
    with pytest.raises(InvalidParameterError, match="problem"):
        run_sweep(other, 0.0, "fedavg", engine="jax", **kw)
    monkeypatch.setitem(__import__("sys").modules, "jax", None)
    with pytest.raises(ImportError, match=r"pip install 'fedtheory\[jax\]'"):
        run_sweep(p, 0.0, "fedavg", engine="jax", **kw)


class _Recorder:
    """Stands in for a sweep family or ``run_sweep``: records its arguments, runs nothing."""

    def __init__(self):
        self.calls = []

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        return fedac.Sweep("fedavg", 1, 1, 1, np.ones(1), np.ones((1, 1, 1)), np.zeros(1))


def test_paper_scale_switches_the_sizes_of_section_3_7_and_nothing_else(monkeypatch):
    from fedtheory.backends import paper_scale, set_paper_scale
    from fedtheory.harness.claims import select

    # the claim modules, as the harness loads them (tests import no paper module)
    ex, es = (
        sys.modules[claim.where.rsplit(":", 1)[0]]
        for claim in select(["yuan-thesis/fig-3.1:fedac", "yuan-thesis/fig-3.3:similar"], exact=True)
    )
    assert ex.__name__.endswith(".experiments") and es.__name__.endswith(".experiments_settings")

    printed = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]  # section 3.7.2
    families = {}
    for name in ("_sweep", "_printed_sweep"):
        families[name] = _Recorder()
        monkeypatch.setattr(ex, name, families[name])
    settings_sweep = _Recorder()
    monkeypatch.setattr(es, "_sweep", settings_sweep)
    monkeypatch.setenv("FEDTHEORY_PAPER_SCALE", "0")  # restored after the test, whatever set_paper_scale does

    # off (the default): today's stand-in sizes, families and settings
    assert not paper_scale()
    s = ex.sizes()
    assert (s.n, s.T, s.Ks, s.M, s.Ms, s.eval_every, s.engine) == (4000, 512, (1, 8, 64), 128, (32, 64, 128), 64, None)
    np.testing.assert_array_equal(s.etas, ex.ETAS)
    ex.sweep("quick", "vanilla", 128, 8, 3)
    assert families["_sweep"].calls[-1][0] == ("quick", "vanilla", 128, 8, 3) and not families["_printed_sweep"].calls
    with pytest.raises(ValueError, match="lambda"):
        ex.sweep("quick", "vanilla", 128, 8, 3, ex.FIG_3_5_L2)  # the stand-in keeps lambda = 1e-3
    assert (es.scaled(es.A9A), es.m_main()) == (es.A9A, 8)
    es.best("quick", es.EPSILON, "fedac-i", 4)
    assert settings_sweep.calls[-1][0] == ("quick", es.EPSILON, "fedac-i", 8, 4)

    # on: the printed sizes on the JAX engine, from their own families and settings
    set_paper_scale(True)
    assert paper_scale()
    s = ex.sizes()
    assert (s.n, s.T, s.M, s.eval_every, s.engine) == (32561, 4096, 8192, 512, "jax")
    assert s.Ks == (1, 2, 4, 8, 16, 32, 64, 128, 256) and max(s.Ms) == 8192
    np.testing.assert_array_equal(s.etas, printed)
    ex.sweep("quick", "mb-sgd", 8192, 256, 3)
    assert families["_printed_sweep"].calls[-1][0] == ("quick", "mb-sgd", 8192, 256, 3)
    run = _Recorder()
    monkeypatch.setattr(ex, "run_sweep", run)
    ex._grid((None, type("Ref", (), {"value": 0.5})()), "fedac-i", 8192, 64, s.etas, 3, None, s)
    assert {k: run.calls[-1][1][k] for k in ("T", "eval_every", "engine", "draws")} == {
        "T": 4096,
        "eval_every": 512,
        "engine": "jax",
        "draws": "device",
    }
    ex.sweep("quick", "vanilla", 8192, 8, 3, ex.FIG_3_5_L2)  # Figure 3.5 at its caption's lambda, its own grid
    assert families["_printed_sweep"].calls[-1][0] == ("quick", "vanilla", 8192, 8, 3, 1e-4)
    assert (es.scaled(es.A9A), es.m_main()) == (es.PRINTED[es.A9A], 2048)
    es.best("quick", es.EPSILON, "fedac-i", 4)
    assert settings_sweep.calls[-1][0] == ("quick", es.PRINTED[es.EPSILON], "fedac-i", 2048, 4)
    a9a = es.SETTINGS[es.PRINTED[es.A9A]]
    assert (a9a.Ks, a9a.etas, a9a.engine, a9a.draws) == (s.Ks, tuple(printed), "jax", "device")
    assert es.SETTINGS[es.PRINTED[es.EPSILON]].etas == (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50)
    problem = a9a.build()
    assert (problem.n_samples, problem.dim, problem.l2) == (32561, 123, 1e-2)
    set_paper_scale(False)
    assert not paper_scale() and ex.sizes() == ex.STAND_IN_SIZES


def test_device_draws_are_seeded_and_refused_without_the_jax_engine():
    p = _logistic(per_client=False)
    kw = dict(M=4, K=2, T=16, etas=[0.1, 1.0], seeds=2, eval_every=4, engine="jax", draws="device")
    one, two = (run_sweep(p, 0.0, "fedac-i", rng=np.random.default_rng(3), **kw) for _ in range(2))
    np.testing.assert_array_equal(one.gap, two.gap)
    other = run_sweep(p, 0.0, "fedac-i", rng=np.random.default_rng(4), **kw)
    assert not np.array_equal(one.gap, other.gap)
    with pytest.raises(InvalidParameterError, match="draws"):
        run_sweep(p, 0.0, "fedavg", **(kw | dict(engine="numpy")), rng=np.random.default_rng(3))
    with pytest.raises(InvalidParameterError, match="draws"):
        run_sweep(p, 0.0, "fedavg", **(kw | dict(draws="gpu")), rng=np.random.default_rng(3))


@pytest.mark.parametrize("batch", [1, 3])
def test_device_draws_sample_each_clients_rows_uniformly(batch):
    """One FedAvg step of step size 1 from 0 on per-client logistic data: the server iterate is minus the mean over
    clients of a minibatch gradient at 0, whose mean over S replicas must be minus the full gradient within five
    standard errors (a wrong client offset or a non-uniform draw biases it)."""
    p = _logistic(per_client=True)
    S, M = 4000, p.n_clients
    (_, W, dead), *_ = jax_engine.server_iterates(
        p, np.random.default_rng(7), 1, 1, M, 1, batch, np.ones((S, 1, 1)), None, "device"
    )
    assert not dead.any()
    z = (W.mean(axis=0) + p.grad(np.zeros(p.dim))) / (W.std(axis=0, ddof=1) / np.sqrt(S))
    assert np.all(np.abs(z) < 5), z
    assert np.unique(W, axis=0).shape[0] > S // 2  # the replicas draw independently


def test_the_gpu_probe_asks_a_child_interpreter(monkeypatch):
    """``verify --paper-scale --jobs N`` forks its workers after asking: the parent must not start a backend."""
    from fedtheory import backends

    calls = []
    real = backends.subprocess.run
    monkeypatch.setattr(backends.subprocess, "run", lambda *a, **k: calls.append(a) or real(*a, **k))
    jax = pytest.importorskip("jax")
    assert backends.gpu_available() is (jax.default_backend() == "gpu")
    assert len(calls) == 1 and calls[0][0][0] == sys.executable
