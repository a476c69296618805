"""Fused per-client kernels for the hot recursions: FedAc (Algorithm 2) and local SGD (FedAvg) with the
:class:`~fedtheory.oracles.Minibatch` oracle on :class:`~fedtheory.problems.LogisticRegression` and
:class:`~fedtheory.problems.LeastSquares`, and softmax regression's local steps with a step count per client
(:func:`softmax_local_steps`, for :func:`fedtheory.algorithms.primal_dual.ragged_steps`).

The numpy code of :mod:`fedtheory.algorithms` is the reference; these kernels run the same arithmetic, in the same
order per coordinate, one client at a time in compiled code (numba, ``cache=True``, no ``fastmath``), so that the
``(S, M, d)`` temporaries of the numpy expressions never exist: one client's ``K`` steps touch its two ``d``-vectors
and one sampled feature row per step. Results agree with numpy to float64 rounding (only the order of the sums of
the ``d``-term inner products may differ), and non-finite values propagate as in numpy.

The random indices are numpy's: the reference oracle draws ``rng.integers(0, n, size=(S, M, b))`` at each local
step; :func:`draw_indices` makes exactly those calls, one per step, into a ``(K, S, M, b)`` array, and one kernel
call runs the ``K`` steps. (One call for all ``K`` steps would be a different stream: numpy buffers bounded-integer
draws.)

:func:`fused_oracle` decides: it returns a :class:`FusedOracle` only when :func:`fedtheory.backends.kernels` is
``"numba"``, the oracle is exactly a ``Minibatch`` (not a subclass) and its problem is exactly a
``LogisticRegression`` or a ``LeastSquares``; otherwise ``None`` and the caller runs numpy. numba is imported on the
first kernel call, so importing :mod:`fedtheory` does not pay for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from . import backends, problems
from .oracles import Minibatch

LOGISTIC, LEAST_SQUARES = 0, 1


@dataclass(frozen=True)
class FusedOracle:
    """What a kernel needs from a ``Minibatch`` oracle: the problem's data in kernel layout.

    Attributes
    ----------
    problem : LogisticRegression or LeastSquares
        The problem (its ``check_client_points`` validates the client points).
    kind : int
        ``LOGISTIC`` or ``LEAST_SQUARES``.
    features : array (M_data, n, d)
        C-contiguous; ``M_data = 1`` for identical clients.
    responses : array (M_data, n)
        Labels in {-1, +1} (logistic) or targets (least squares).
    l2 : float
        The l2 weight (0 for least squares, whose gradient has no such term).
    batch_size : int
        Rows per gradient query.
    """

    problem: object
    kind: int
    features: np.ndarray
    responses: np.ndarray
    l2: float
    batch_size: int

    @property
    def n_samples(self) -> int:
        return self.features.shape[1]


def fused_oracle(oracle) -> FusedOracle | None:
    """The kernel spec of ``oracle``, or ``None`` when the numpy reference must run (kernels set to ``"numpy"``, an
    oracle other than exactly :class:`~fedtheory.oracles.Minibatch`, or a problem other than exactly
    ``LogisticRegression`` / ``LeastSquares``)."""
    if type(oracle) is not Minibatch or backends.kernels() != "numba":
        return None
    problem = oracle.problem
    if type(problem) is problems.LogisticRegression:
        kind, responses, l2 = LOGISTIC, problem.labels, float(problem.l2)
    elif type(problem) is problems.LeastSquares:
        kind, responses, l2 = LEAST_SQUARES, problem.targets, 0.0
    else:
        return None
    return FusedOracle(
        problem,
        kind,
        np.ascontiguousarray(problem.features, dtype=np.float64),
        np.ascontiguousarray(responses, dtype=np.float64),
        l2,
        oracle.batch_size,
    )


def draw_indices(spec: FusedOracle, rng, K: int, S: int, M: int) -> np.ndarray:
    """The ``(K, S, M, b)`` row indices the numpy oracle would draw in ``K`` local steps: one
    ``rng.integers(0, n, size=(S, M, b))`` call per step, in order."""
    idx = np.empty((K, S, M, spec.batch_size), dtype=np.int64)
    for k in range(K):
        idx[k] = rng.integers(0, spec.n_samples, size=(S, M, spec.batch_size))
    return idx


def fedac_local_steps(spec: FusedOracle, x, x_ag, rng, K: int, eta, alpha_inv, beta_inv, gamma, *, mean=False):
    """``K`` FedAc steps (Algorithm 2) of every client from client points ``x, x_ag`` of shape ``(S, M, d)``
    (broadcast views welcome), as :func:`fedtheory.algorithms.fedac.local_steps` computes them.

    The coefficients are scalars or per-replica arrays (any shape with ``S`` elements). Returns the client pairs
    ``(S, M, d)``, or with ``mean=True`` their client means ``(S, d)`` (the server average, summed over clients in
    order as numpy's ``mean(axis=1)`` does).
    """
    x, x_ag = np.broadcast_arrays(spec.problem.check_client_points(x), spec.problem.check_client_points(x_ag))
    S, M, d = x.shape
    idx = draw_indices(spec, rng, K, S, M)
    out_x, out_ag = _outputs(S, M, d, mean), _outputs(S, M, d, mean)
    coefficients = [_per_replica(c, S) for c in (eta, alpha_inv, beta_inv, gamma)]
    _kernel()(spec.kind, True, mean, spec.features, spec.responses, spec.l2, _compact(x), _compact(x_ag), idx,
              *coefficients, out_x, out_ag)  # fmt: skip
    return (out_x[:, 0], out_ag[:, 0]) if mean else (out_x, out_ag)


def sgd_local_steps(spec: FusedOracle, x, rng, K: int, eta, *, mean=False):
    """``K`` local SGD steps ``x <- x - eta grad f(x; xi)`` of every client from client points ``x`` of shape
    ``(S, M, d)``, as :func:`fedtheory.algorithms.fedavg.local_sgd` computes them; ``eta`` a scalar or per-replica.
    Returns ``(S, M, d)``, or with ``mean=True`` the client means ``(S, d)``."""
    x = spec.problem.check_client_points(x)
    S, M, d = x.shape
    idx = draw_indices(spec, rng, K, S, M)
    out = _outputs(S, M, d, mean)
    eta, unused = _per_replica(eta, S), np.zeros(S)
    start = _compact(x)
    _kernel()(spec.kind, False, mean, spec.features, spec.responses, spec.l2, start, start, idx,
              eta, unused, unused, unused, out, out)  # fmt: skip
    return out[:, 0] if mean else out


def _outputs(S: int, M: int, d: int, mean: bool) -> np.ndarray:
    return np.zeros((S, 1, d)) if mean else np.empty((S, M, d))


def _per_replica(value, S: int) -> np.ndarray:
    value = np.asarray(value, dtype=np.float64)
    return np.full(S, float(value)) if value.ndim == 0 else np.ascontiguousarray(np.broadcast_to(value.ravel(), (S,)))


def _compact(x: np.ndarray) -> np.ndarray:
    """Client points ``(S, M, d)`` as a C-contiguous array, ``(S, 1, d)`` when every client holds the same point
    through a broadcast (stride 0 along clients), so that the kernel reads the server point instead of ``M`` copies."""
    if x.shape[1] > 1 and x.strides[1] == 0:
        x = x[:, :1]
    return np.ascontiguousarray(x, dtype=np.float64)


def _client_steps(kind, accelerated, mean, features, responses, l2, x0, ag0, idx, eta, a, b, gamma, out_x, out_ag):
    """Every client's ``K`` steps, one client at a time (compiled by numba; see :func:`_kernel`).

    ``x0, ag0``: starts ``(S, M or 1, d)``; ``idx``: rows ``(K, S, M, batch)``; ``eta, a, b, gamma``: per replica
    ``(S,)`` (``a, b, gamma`` unused without acceleration); ``out_x, out_ag``: ``(S, M, d)``, or with ``mean``
    zeroed ``(S, 1, d)`` to receive the client means. The arithmetic is the numpy reference's, term by term (every
    branch is outside the loops over ``d``, which the compiler vectorises).
    """
    K, S, M, batch = idx.shape
    d = x0.shape[2]
    per_client = features.shape[0] > 1
    n = features.shape[1]
    flat = features.reshape(-1)
    x, ag, md, g = np.empty(d), np.empty(d), np.empty(d), np.zeros(d)
    for s in range(S):
        for m in range(M):
            c = m if per_client else 0
            start, start_ag = (m if x0.shape[1] > 1 else 0), (m if ag0.shape[1] > 1 else 0)
            for i in range(d):
                x[i] = x0[s, start, i]
                ag[i] = ag0[s, start_ag, i]
            for k in range(K):
                # ask for the next step's rows now (memory latency, not arithmetic, bounds a client-step)
                nk, nm = (k + 1, m) if k + 1 < K else (0, m + 1)
                if nm < M:
                    for j in range(batch):
                        base = ((nm if per_client else 0) * n + idx[nk, s, nm, j]) * d
                        for i in range(0, d, 8):
                            prefetch(flat, base + i)
                point = md if accelerated else x
                if accelerated:
                    for i in range(d):
                        md[i] = b[s] * x[i] + (1 - b[s]) * ag[i]
                for j in range(batch):
                    row = features[c, idx[k, s, m, j]]
                    p0 = p1 = p2 = p3 = 0.0  # four partial sums (independent chains), added pairwise: a fixed order
                    for i in range(0, d - 3, 4):
                        p0 += row[i] * point[i]
                        p1 += row[i + 1] * point[i + 1]
                        p2 += row[i + 2] * point[i + 2]
                        p3 += row[i + 3] * point[i + 3]
                    for i in range(d - d % 4, d):
                        p0 += row[i] * point[i]
                    dot = (p0 + p1) + (p2 + p3)
                    if kind == LOGISTIC:  # -y expit(-y a'x), expit(v) = 1/(1 + exp(-v)) as scipy computes it
                        y = responses[c, idx[k, s, m, j]]
                        w = -y * (1.0 / (1.0 + np.exp(y * dot)))
                    else:  # least squares: a'x - t
                        w = dot - responses[c, idx[k, s, m, j]]
                    if j == 0:  # the rows' terms summed in order, as numpy's einsum over the batch axis
                        for i in range(d):
                            g[i] = w * row[i]
                    else:
                        for i in range(d):
                            g[i] += w * row[i]
                if batch > 1:
                    for i in range(d):
                        g[i] = g[i] / batch
                if kind == LOGISTIC:
                    for i in range(d):
                        g[i] = g[i] + l2 * point[i]
                if accelerated:
                    for i in range(d):
                        ag[i] = md[i] - eta[s] * g[i]
                        x[i] = (1 - a[s]) * x[i] + a[s] * md[i] - gamma[s] * g[i]
                else:
                    for i in range(d):
                        x[i] = x[i] - eta[s] * g[i]
            for i in range(d):
                if mean:
                    out_x[s, 0, i] += x[i]
                else:
                    out_x[s, m, i] = x[i]
                if accelerated and mean:
                    out_ag[s, 0, i] += ag[i]
                elif accelerated:
                    out_ag[s, m, i] = ag[i]
        if mean:
            for i in range(d):
                out_x[s, 0, i] = out_x[s, 0, i] / M
                if accelerated:
                    out_ag[s, 0, i] = out_ag[s, 0, i] / M


def prefetch(array, index):
    """Hint that ``array.flat[index]`` will be read soon (a cache-line prefetch in compiled code, nothing in Python)."""


@cache
def _prefetch_compiled() -> None:
    """Give :func:`prefetch` its compiled form (an LLVM prefetch intrinsic) in numba; numba imported here."""
    import numba
    from llvmlite import ir
    from numba.core import cgutils
    from numba.extending import intrinsic, overload

    @intrinsic
    def prefetch_intrinsic(typingctx, array, index):
        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            address = builder.gep(data, [args[1]])
            i32 = ir.IntType(32)
            function = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [address.type, i32, i32, i32]), "llvm.prefetch.p0"
            )
            builder.call(function, [address, i32(0), i32(3), i32(1)])  # read, keep in all levels, data cache
            return context.get_dummy_value()

        return numba.types.void(array, numba.types.intp), codegen

    overload(prefetch)(lambda array, index: lambda array, index: prefetch_intrinsic(array, index))


@cache
def _kernel():
    """:func:`_client_steps` compiled (numba imported here, on first use; compiled code cached on disk)."""
    import numba

    _prefetch_compiled()
    return numba.njit(cache=True)(_client_steps)


def softmax_local_steps(features, labels, l2, b, rows, steps, offsets, idx, eta, pull, anchor, correction, w) -> None:
    """Local minibatch SGD steps of softmax regression, a different number per client, in compiled code; ``w``
    ``(R, C, p)`` is updated in place. Row ``r`` is client ``rows[r]`` (its ``features``/``labels``) of replica ``s =
    r // (R // S)``, runs ``steps[r]`` steps ``w <- w - eta (g(w) + l2 w + pull[r] (w - anchor[s]) +
    correction[r])`` with ``g`` the mean gradient over ``b`` samples ``idx[offsets[r] + k b + j]``, ``j < b``, of
    step ``k``; ``anchor`` is ``(S, C, p)`` (one per replica, ``S`` dividing ``R``), ``correction`` ``(R, C, p)``.
    The numpy reference is :func:`fedtheory.algorithms.primal_dual.ragged_steps` with numpy kernels."""
    _softmax_kernel()(features, labels, l2, b, rows, steps, offsets, idx, eta, pull, anchor, correction, w)


def _softmax_steps(features, labels, l2, b, rows, steps, offsets, idx, eta, pull, anchor, correction, w):
    """The kernel of :func:`softmax_local_steps`, one client row ``r`` at a time, ``w`` ``(R, C, p)`` updated in
    place, no allocation inside the loops and every inner loop over contiguous memory: per step the batch's rows
    are gathered transposed into ``xt`` ``(p, b)`` (the next step's rows prefetched); the logits ``delta`` ``(C, b)``
    accumulate over the inputs ``m`` (outer loop, each logit summed in the order ``m = 0..p-1``); the softmax runs
    over the samples (max, exponentials and their sum, then ``(softmax - onehot) / b`` in place); the gradient ``g``
    ``(C, p)`` accumulates over the samples in order, on each sample's feature row; the update is the reference's
    expression per coordinate. Compiled with numpy's division semantics (no zero check: ``total >= 1`` and ``b >=
    1``), so the division loops vectorise."""
    R, C, p = w.shape
    Q = R // anchor.shape[0]
    xt, delta, v, g = np.empty((p, b)), np.empty((C, b)), np.empty((C, p)), np.empty((C, p))
    top, total, label = np.empty(b), np.empty(b), np.empty(b, dtype=labels.dtype)
    for r in range(R):
        data, labs, a, corr, mu = features[rows[r]], labels[rows[r]], anchor[r // Q], correction[r], pull[r]
        v[:] = w[r]
        for k in range(steps[r]):
            at = offsets[r] + k * b
            if k + 1 < steps[r]:
                for j in range(b):
                    for m in range(0, p, 8):
                        prefetch(data, (idx[at + b + j] * p + m))
            for j in range(b):
                row = data[idx[at + j]]
                for m in range(p):
                    xt[m, j] = row[m]
            delta[:] = 0.0
            for m in range(p):
                xm = xt[m]
                for c in range(C):
                    vcm, logits = v[c, m], delta[c]
                    for j in range(b):
                        logits[j] += vcm * xm[j]
            top[:] = delta[0]
            for c in range(1, C):
                logits = delta[c]
                for j in range(b):
                    top[j] = max(top[j], logits[j])
            total[:] = 0.0
            for c in range(C):
                logits = delta[c]
                for j in range(b):
                    logits[j] = np.exp(logits[j] - top[j])
                    total[j] += logits[j]
            for j in range(b):
                label[j] = labs[idx[at + j]]
            for c in range(C):
                logits = delta[c]
                for j in range(b):
                    logits[j] = (logits[j] / total[j] - (1.0 if label[j] == c else 0.0)) / b
            g[:] = 0.0
            for j in range(b):
                row = data[idx[at + j]]
                for c in range(C):
                    djc, gc = delta[c, j], g[c]
                    for m in range(p):
                        gc[m] += djc * row[m]
            for c in range(C):
                vc, gc, ac, cc = v[c], g[c], a[c], corr[c]
                for m in range(p):
                    step = gc[m] + l2 * vc[m]
                    step = step + mu * (vc[m] - ac[m])
                    step = step + cc[m]
                    vc[m] = vc[m] - eta * step
        w[r] = v


@cache
def _softmax_kernel():
    """:func:`_softmax_steps` compiled (numba imported here, on first use; compiled code cached on disk)."""
    import numba

    _prefetch_compiled()
    return numba.njit(cache=True, error_model="numpy")(_softmax_steps)
