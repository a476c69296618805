"""Learning-rate sweeps of the federated composite methods, vectorised over the grid.

A sweep tunes the client and server step sizes ``(eta_c, eta_s)`` over a grid for FedMiD, FedMiD-OSP, FedDualAvg,
FedDualAvg-OSP and FedAvg with subgradients (:data:`fedtheory.algorithms.composite.ALGORITHMS`), with partial
participation and minibatch gradients. Every grid point is a replica of one array computation: the state of a sweep is
``(S, C, G, p)`` (seeds, sampled clients, grid points, coordinates), and one local step of every client of every grid
point of every seed is one pair of batched matrix products. Only the ``C`` sampled clients of a round compute (unlike
:func:`fedtheory.algorithms.composite.run`, whose clients all compute and whose sampled ones enter ``Delta``).

Sampling is shared by the grid points of a seed (common random numbers) and drawn exactly as
:func:`fedtheory.algorithms.composite.run` draws it on ``S`` replicas: per round ``rng.random((S, M))`` (the first
``C`` of its ``argsort`` are the sampled clients, only drawn under partial participation), then per local step
``rng.integers(0, n, (S, M, b))`` (:class:`~fedtheory.oracles.Minibatch`: ``b`` rows with replacement), of which
the sampled clients' rows are used. A one-point grid therefore follows the path of ``composite.run`` up to
rounding.

``psi`` enters through a 1-homogeneous base regularizer ``psi_1`` (:class:`~fedtheory.regularizers.L1`,
:class:`~fedtheory.regularizers.NuclearNorm`, or :class:`~fedtheory.regularizers.Masked` around one) and a weight
``lam`` per seed, ``psi = lam psi_1``. Every proximal map of the algorithms is then
``prox_{t psi}(v) = t lam prox_{psi_1}(v / (t lam))`` (positive homogeneity), with ``t`` varying over the grid.

Divergence is an outcome of a tuning grid, not an error: a replica whose server state stops being finite or leaves
``[-blowup, blowup]`` is recorded as diverged at that round, its metrics are ``NaN`` from then on, and a grid
point that diverged for every seed stops being computed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from .._validate import generator, positive, positive_int
from ..algorithms.composite import ALGORITHMS, Euclidean
from ..errors import InvalidParameterError, ReferenceSolveError
from ..problems import LogisticRegression, MeanSquaredError
from ..regularizers import L1, Masked, NuclearNorm, Regularizer

Metrics = Callable[[np.ndarray], dict]


@dataclass(frozen=True)
class CompositeSweep:
    """A tuning grid of one algorithm.

    Attributes
    ----------
    algorithm : str
    eta_c, eta_s : ndarray (G,)
        The grid points.
    rounds : ndarray (T,)
        Rounds at which the metrics were recorded (0 is the start).
    metrics : dict of name -> ndarray (G, S, T)
        Metrics of the server primal ``x^{(r,0)}``; ``NaN`` once a replica diverged.
    diverged_at : ndarray of int (G, S)
        The round at which a replica diverged, ``-1`` if it never did.
    final : ndarray (G, S, p)
        Server primals after the last round (``NaN`` for diverged replicas).
    """

    algorithm: str
    eta_c: np.ndarray
    eta_s: np.ndarray
    rounds: np.ndarray
    metrics: dict
    diverged_at: np.ndarray
    final: np.ndarray

    @property
    def diverged(self) -> np.ndarray:
        """(G, S): whether each replica diverged."""
        return self.diverged_at >= 0

    def tail_mean(self, name: str, last: int) -> np.ndarray:
        """(G, S): mean of metric ``name`` over the records of the last ``last`` rounds (``NaN`` if diverged)."""
        keep = self.rounds > self.rounds[-1] - positive_int("last", last)
        return self.metrics[name][..., keep].mean(axis=-1)

    def select(self, name: str, last: int, *, maximize: bool, tiebreak=None) -> np.ndarray:
        """(S,): per seed, the grid index with the best :meth:`tail_mean` of ``name``; a diverged replica never wins
        (unless every grid point diverged).

        Among exactly tied grid points the smallest ``tiebreak`` (array (G, S), e.g. rounds to a target) wins, then
        the first grid point.
        """
        score = self.tail_mean(name, last)
        score = np.where(np.isnan(score), -np.inf if maximize else np.inf, score)
        best = score.max(axis=0) if maximize else score.min(axis=0)
        key = np.zeros(score.shape) if tiebreak is None else np.asarray(tiebreak, dtype=float)
        key = np.where(np.isfinite(key), key, np.finfo(float).max)  # "never" ranks last among the tied points
        return np.argmin(np.where(score == best, key, np.inf), axis=0)  # only tied points compete

    def first(self, name: str, test: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """(G, S): the first recorded round at which ``test(metric)`` holds (``inf`` if never)."""
        hit = test(self.metrics[name])
        return np.where(hit.any(axis=-1), self.rounds[np.argmax(hit, axis=-1)], np.inf)

    def curve(self, name: str, index) -> np.ndarray:
        """(S, T): metric ``name`` of grid point ``index[s]`` for each seed ``s``."""
        index = np.asarray(index)
        return self.metrics[name][index, np.arange(index.size)]


def grid(eta_c, eta_s) -> tuple[np.ndarray, np.ndarray]:
    """The outer product of two step-size lists as paired arrays ``(eta_c, eta_s)``, ``eta_s`` varying fastest."""
    ec, es = (np.asarray([positive(n, v) for v in np.ravel(a)]) for n, a in (("eta_c", eta_c), ("eta_s", eta_s)))
    return np.repeat(ec, es.size), np.tile(es, ec.size)


def _homogeneous(psi) -> bool:
    if isinstance(psi, Masked):
        psi = psi.inner
    return isinstance(psi, (L1, NuclearNorm))


class _Prox:
    """``prox_{t lam psi_1}`` for thresholds ``t lam`` broadcast over the leading axes of ``v``.

    An l1 norm (possibly masked) is soft-thresholded directly, ``v - clip(v, -tau w, tau w)`` with ``w`` the 0/1
    weights of the penalised coordinates; any other 1-homogeneous ``psi_1`` uses
    ``prox_{tau psi_1}(v) = tau prox_{psi_1}(v / tau)``.
    """

    def __init__(self, psi: Regularizer, lam: np.ndarray):
        self.psi, self.lam = psi, lam
        inner = psi.inner if isinstance(psi, Masked) else psi
        self.weights = None
        if isinstance(inner, L1):
            self.weights = inner.lam * (psi.penalized.astype(float) if isinstance(psi, Masked) else np.ones(1))

    def __call__(self, v: np.ndarray, t) -> np.ndarray:
        tau = (np.asarray(t, dtype=float) * self.lam)[..., None]  # lam: (S, 1, 1) or (S, 1), t over the grid
        if not np.any(tau):
            return v
        if self.weights is not None:
            bound = tau * self.weights
            return v - np.clip(v, -bound, bound)
        # prox_{tau psi_1}(v) = tau prox_{psi_1}(v / tau) (1-homogeneity); a tau below 1e-200 shrinks by less than
        # 1e-200 (v / tau would overflow), so it is the identity to float precision.
        active = tau > 1e-200
        safe = np.where(active, tau, 1.0)
        return np.where(active, safe * self.psi.prox(v / safe, 1.0), v)


def _stack(problems, S: int) -> tuple[np.ndarray, np.ndarray, bool, float]:
    shared = not isinstance(problems, Sequence)
    problems = [problems] * S if shared else list(problems)
    if len(problems) != S:
        raise InvalidParameterError("problems", f"one problem or {S} (one per seed)", len(problems))
    kinds = {type(p) for p in problems}
    if len(kinds) != 1 or not kinds <= {MeanSquaredError, LogisticRegression}:
        raise InvalidParameterError("problems", "MeanSquaredError or LogisticRegression instances of one kind", kinds)
    logistic = kinds == {LogisticRegression}
    if shared:  # one data set: a read-only view per seed, no copies
        Z = np.broadcast_to(problems[0].features, (S, *problems[0].features.shape))
        target = problems[0].labels if logistic else problems[0].targets
        y = np.broadcast_to(target, (S, *target.shape))
    else:
        Z = np.stack([p.features for p in problems])
        y = np.stack([p.labels if logistic else p.targets for p in problems])
    if any(p.features.shape != problems[0].features.shape for p in problems):
        raise InvalidParameterError(
            "problems", "data sets of equal shape (M, n, p)", [p.features.shape for p in problems]
        )
    l2 = {float(p.l2) for p in problems} if logistic else {0.0}
    if len(l2) != 1:
        raise InvalidParameterError("problems", "one l2 weight for every seed", l2)
    return Z, y, logistic, l2.pop()


def run_sweep(
    problems,
    psi: Regularizer | None,
    lam,
    algorithm: str,
    eta_c,
    eta_s,
    *,
    K: int,
    R: int,
    batch_size: int,
    clients_per_round: int | None,
    seeds: int,
    rng: np.random.Generator,
    metrics: Metrics,
    record_every: int = 1,
    x0=None,
    blowup: float = 1e10,
) -> CompositeSweep:
    """Run ``algorithm`` for ``R`` rounds of ``K`` local steps on every grid point ``(eta_c[i], eta_s[i])``.

    Parameters
    ----------
    problems : MeanSquaredError or LogisticRegression, or a sequence of ``seeds`` of them
        The clients' data: one data set shared by the seeds, or one per seed (equal shapes). The loss of a batch
        is its mean squared error (without a factor 1/2, :class:`~fedtheory.problems.MeanSquaredError`) or mean
        logistic loss plus ``l2 ||x||^2/2``.
    psi : Regularizer or None
        ``psi_1``: L1, NuclearNorm or Masked around one (1-homogeneous); ``None`` is ``psi = 0``.
    lam : float or array (seeds,)
        ``psi = lam psi_1`` for each seed.
    algorithm : str
        One of :data:`fedtheory.algorithms.composite.ALGORITHMS`.
    eta_c, eta_s : arrays (G,)
        Grid points (see :func:`grid`).
    K, R, batch_size : int
        Local steps per round, rounds, rows per minibatch gradient.
    clients_per_round : int or None
        ``|S^(r)|``; ``None`` is full participation.
    seeds : int
        Independent replicas ``S``.
    metrics : callable
        ``metrics(x)`` with server primals ``x`` (S, G, p) returns a dict of arrays (S, G).
    record_every : int
        Record the metrics every ``record_every`` rounds (and after the last).
    x0 : array (p,), optional
        ``x^{(0,0)}`` (default 0).
    blowup : float
        A server state with an entry beyond ``blowup`` in absolute value counts as diverged.
    """
    if algorithm not in ALGORITHMS:
        raise InvalidParameterError("algorithm", f"one of {', '.join(ALGORITHMS)}", algorithm)
    S = positive_int("seeds", seeds)
    K, R, b = positive_int("K", K), positive_int("R", R), positive_int("batch_size", batch_size)
    rng = generator("rng", rng)
    record_every = positive_int("record_every", record_every)
    blowup = positive("blowup", blowup)
    Z, Y, logistic, l2 = _stack(problems, S)
    _, M, n, p = Z.shape
    C = M if clients_per_round is None else positive_int("clients_per_round", clients_per_round)
    if C > M:
        raise InvalidParameterError("clients_per_round", f"an integer in [1, M = {M}]", C)
    ec, es = (np.asarray(a, dtype=float).ravel() for a in (eta_c, eta_s))
    if ec.size != es.size or ec.size == 0 or np.any(ec <= 0) or np.any(es <= 0):
        raise InvalidParameterError("eta_c", "equal-length arrays of positive step sizes", (ec, es))
    lam = np.broadcast_to(np.asarray(lam, dtype=float), (S,)).copy()
    if np.any(lam < 0):
        raise InvalidParameterError("lam", "weights >= 0", lam)
    if psi is not None and not _homogeneous(psi):
        raise InvalidParameterError("psi", "None, L1, NuclearNorm or Masked around one of them", type(psi).__name__)
    subgradient = Euclidean(psi).subgradient if algorithm == "FedAvg(subgradient)" else None
    if subgradient is not None:
        subgradient(np.zeros(p))  # raises unless psi_1 has a subgradient selection
    G = ec.size
    x0 = np.zeros(p) if x0 is None else np.asarray(x0, dtype=float)
    if x0.shape != (p,) or not np.all(np.isfinite(x0)):
        raise InvalidParameterError("x0", f"a finite vector of length {p}", x0)

    client_prox = _Prox(psi, lam[:, None, None]) if psi is not None else None
    server_prox = _Prox(psi, lam[:, None]) if psi is not None else None
    dual = algorithm in ("FedDualAvg", "FedDualAvg-OSP")
    seed_rows = np.arange(S)[:, None, None]

    def gradient(x, Zb, yb):
        """Mean batch gradient at client points ``x`` (S, C, g, p) on rows ``Zb`` (S, C, b, p)."""
        u = Zb @ np.swapaxes(x, -1, -2)  # (S, C, b, g)
        if logistic:
            r = -yb[..., None] * expit(-yb[..., None] * u) / b
        else:
            r = 2.0 * (u - yb[..., None]) / b
        g = np.swapaxes(r, -1, -2) @ Zb
        return g + l2 * x if l2 else g

    def server_step(anchor, average, es_a):
        return np.where(es_a == 1, average, anchor + es_a * (average - anchor))

    active = np.arange(G)
    x = np.broadcast_to(x0, (S, G, p)).copy()
    y = x.copy() if dual else None
    dead_at = np.full((S, G), -1)
    records, rounds = [], []

    def record(r):
        dead = dead_at >= 0
        values = metrics(x_full())  # diverged replicas hold 0 (finite), their metrics are NaN
        records.append({k: np.where(dead, np.nan, np.asarray(v, dtype=float)) for k, v in values.items()})
        rounds.append(r)

    def x_full():
        out = np.zeros((S, G, p))
        out[:, active] = x
        return out

    record(0)
    with np.errstate(over="ignore", invalid="ignore"):
        for r in range(R):
            ec_a, es_a = ec[active], es[active]
            if C < M:
                chosen = np.argsort(rng.random((S, M)), axis=1)[:, :C]
            else:
                chosen = np.broadcast_to(np.arange(M), (S, M))
            start = y if dual else x
            z = np.broadcast_to(start[:, None], (S, C, *start.shape[1:]))
            for k in range(K):
                idx = np.take_along_axis(rng.integers(0, n, size=(S, M, b)), chosen[..., None], axis=1)
                Zb, yb = Z[seed_rows, chosen[..., None], idx], Y[seed_rows, chosen[..., None], idx]
                if algorithm == "FedDualAvg":
                    if psi is None:
                        xc = z
                    elif k == 0:  # the clients start at the server's y, whose prox at eta_c eta_s r K is x: no SVD
                        xc = np.broadcast_to(x[:, None], z.shape)
                    else:
                        xc = client_prox(z, ec_a * (es_a * r * K + k))
                    z = z - ec_a[:, None] * gradient(xc, Zb, yb)
                elif algorithm == "FedDualAvg-OSP":
                    z = z - ec_a[:, None] * gradient(z, Zb, yb)
                else:
                    z = z - ec_a[:, None] * gradient(z, Zb, yb)
                    if psi is not None and algorithm in ("FedMiD", "FedMiD(no server prox)"):
                        z = client_prox(z, ec_a)
                    elif psi is not None and subgradient is not None:
                        z = z - (ec_a[:, None] * lam[:, None, None, None]) * subgradient(z)
            new = server_step(start, z.mean(axis=1), es_a[:, None])
            if dual:
                y = new
                x = server_prox(y, ec_a * (es_a * (r + 1) * K)) if psi is not None else y
            elif psi is not None and subgradient is None and algorithm != "FedMiD(no server prox)":
                x = server_prox(new, es_a * ec_a * K)
            else:
                x = new
            state = x if not dual else np.concatenate([x, y], axis=-1)
            bad = ~np.all(np.isfinite(state) & (np.abs(state) <= blowup), axis=-1)  # (S, g)
            fresh = bad & (dead_at[:, active] < 0)
            dead_at[:, active] = np.where(fresh, r + 1, dead_at[:, active])
            x[bad] = 0.0
            if dual:
                y[bad] = 0.0
            alive = np.any(dead_at[:, active] < 0, axis=0)
            if not alive.all():
                active = active[alive]
                x = x[:, alive]
                y = y[:, alive] if dual else None
            if (r + 1) % record_every == 0 or r + 1 == R:
                record(r + 1)
    final = np.where((dead_at >= 0)[..., None], np.nan, x_full())
    names = records[0].keys()
    stacked = {k: np.moveaxis(np.stack([rec[k] for rec in records], axis=-1), 0, 1) for k in names}
    return CompositeSweep(algorithm, ec, es, np.asarray(rounds), stacked, dead_at.T.copy(), np.moveaxis(final, 0, 1))


@dataclass(frozen=True)
class PathPoint:
    """A certified minimiser of ``F + lam psi_1`` (see :func:`regularization_path`).

    Attributes
    ----------
    lam : float
    x : ndarray (p,)
    kkt_residual : float
        ``||x - T(x)||_2`` with ``T(z) = prox_{lam psi_1/L}(z - grad F(z)/L)``.
    distance_bound : float
        ``(L/mu) kkt_residual >= ||x - x*||_2`` (``T`` is a ``(1 - mu/L)``-contraction).
    """

    lam: float
    x: np.ndarray
    kkt_residual: float
    distance_bound: float


def regularization_path(smooth, psi: Regularizer, lams, *, iterations: int = 20000, kkt_tol: float = 1e-10):
    """Certified minimisers of ``F + lam psi_1`` over ``lams`` (in the given order, each warm-started at the last).

    The certificate is the one :func:`fedtheory.reference.composite_optimum` returns after Clarabel: restarted FISTA
    on the proximal-gradient map ``T`` with step ``1/L``, and the bound ``||x - x*|| <= (L/mu) ||x - T(x)||`` of a
    ``mu``-strongly convex quadratic ``F`` (here without Clarabel's start, which dominates the cost at ``p = 1025``).

    Parameters
    ----------
    smooth : quadratic
        ``F(x) = x'A x/2 - b'x + F(0)`` exposing ``A_mean``, ``b_mean`` (e.g.
        :class:`~fedtheory.problems.MeanSquaredError`) with ``lambda_min(A) > 0``.
    psi : Regularizer
        ``psi_1``; its ``prox(v, t)`` is the proximal map of ``t psi_1``.
    lams : array
        Weights ``lam >= 0``.

    Raises
    ------
    ReferenceSolveError
        If some point's residual exceeds ``kkt_tol max(1, ||x||)``.
    """
    A, b = np.asarray(smooth.A_mean, dtype=float), np.asarray(smooth.b_mean, dtype=float)
    eig = np.linalg.eigvalsh(A)
    L, mu = float(eig[-1]), float(eig[0])
    if not mu > A.shape[0] * np.finfo(float).eps * L:
        raise InvalidParameterError("smooth", "a strongly convex quadratic (lambda_min(A) > 0)", mu)
    iterations = positive_int("iterations", iterations)
    x, out = np.zeros(A.shape[0]), []
    for lam in np.ravel(lams):
        lam = positive("lams", lam, allow_zero=True)

        def step(z, lam=lam):
            return psi.prox(z - (A @ z - b) / L, lam / L)

        x, res = _fista(step, step(x), kkt_tol, iterations)
        if res > kkt_tol * max(1.0, float(np.linalg.norm(x))):
            raise ReferenceSolveError(f"path point lam = {lam:g} not certified after {iterations} steps: {res:.2e}")
        out.append(PathPoint(float(lam), x, res, L / mu * res))
    return out


def _fista(step, x: np.ndarray, tol: float, iterations: int) -> tuple[np.ndarray, float]:
    """FISTA with gradient restart (O'Donoghue and Candes 2015) on the proximal-gradient map ``step`` from ``x``,
    stopping at the first checked image ``z = step(.)`` with ``||z - step(z)|| <= tol max(1, ||z||)`` (checked every
    10 steps); returns that image (or the last one) and its residual."""
    x_prev, y, t = x, x, 1.0
    for k in range(iterations):
        x_new = step(y)
        if k % 10 == 0 or k == iterations - 1:
            res = float(np.linalg.norm(x_new - step(x_new)))
            if res <= tol * max(1.0, float(np.linalg.norm(x_new))):
                break
        t_new = (1.0 + np.sqrt(1.0 + 4.0 * t * t)) / 2.0
        if np.dot(y - x_new, x_new - x_prev) > 0:  # momentum points uphill: restart
            y, t_new = x_new, 1.0
        else:
            y = x_new + (t - 1.0) / t_new * (x_new - x_prev)
        x_prev, t = x_new, t_new
    return x_new, res
