"""Mixing matrices of decentralized federated learning and their spectral quantities.

A mixing (gossip) matrix ``W`` of ``m`` clients averages each client's model with its neighbours'. The standard
conditions (e.g. Definition 1 of the decentralized-FL literature) are

1. ``w_ij > 0`` exactly on the edges of the graph and the diagonal, ``w_ij = 0`` elsewhere;
2. ``W = W'``;
3. ``null(I - W) = span{1}`` (with symmetry: doubly stochastic on a connected graph);
4. ``I >= W > -I``.

:class:`MixingMatrix` checks them on construction and names the first that fails. Condition 4 follows from the others
for a nonnegative doubly stochastic ``W`` with a positive diagonal (Gershgorin: every eigenvalue is at least
``2 w_ii - 1 > -1``), so a matrix violating it is refused under condition 1. It stores ``W`` sparse, so one
gossip step on ``(S, m, d)`` models costs ``O(nnz(W) S d)``. Directed (non-symmetric) doubly stochastic matrices
such as the exponential graph of Ying et al. are accepted with ``symmetric=False`` and checked for double
stochasticity and ``rho(W - 11'/m) < 1`` only.

Spectral quantities: ``psi = ||W - 11'/m||_2`` (for symmetric ``W`` the second-largest eigenvalue modulus), the
spectral gap ``1 - psi``, ``rho(W - 11'/m)``, ``lambda_2`` and the signed ``lambda_min``. The lookahead-shifted matrix
``W_beta = (1 + beta) W - beta I``, the consensus-optimal ``beta`` and the Chebyshev two-step recursion are here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sps

from ._validate import finite_array, generator, positive_int
from .errors import InvalidParameterError

#: Rounding allowed in the checks of a constructed matrix (sums of a few floats of size <= 1).
ATOL = 1e-12


class MixingMatrix:
    """A mixing matrix with its checks, sparse gossip and spectral quantities.

    Parameters
    ----------
    W : array (m, m) or scipy sparse matrix
    name : str
        How the matrix is called in error messages (``"W"``).
    symmetric : bool
        Check the symmetric conditions (1)-(4) (default); ``False`` accepts a directed doubly stochastic matrix
        with ``rho(W - 11'/m) < 1``.
    check : bool
        ``False`` skips the conditions (for shifted matrices such as ``W_beta``, which may have negative entries);
        only the shape, finiteness and ``W 1 = 1`` are checked.
    adjacency : array (m, m) of bool, optional
        The graph: condition (1) then also requires ``w_ij > 0`` on every edge and ``0`` off the edges.
    """

    def __init__(self, W, *, name: str = "W", symmetric: bool = True, check: bool = True, adjacency=None):
        dense = W.toarray() if sps.issparse(W) else W
        dense = finite_array(name, dense, ndim=2)
        m = dense.shape[0]
        if dense.shape != (m, m) or m < 1:
            raise InvalidParameterError(name, "a square (m, m) matrix", f"shape {dense.shape}")
        self.name, self.m, self.symmetric = name, m, symmetric
        self.dense = dense
        self.sparse = sps.csr_matrix(dense)
        self.sparse.eliminate_zeros()
        if np.max(np.abs(dense.sum(axis=1) - 1)) > ATOL:
            raise InvalidParameterError(name, "rows summing to 1 (W 1 = 1)", dense.sum(axis=1))
        if check:
            self._check(adjacency)

    # --- construction checks -------------------------------------------------------------------------------------
    def _check(self, adjacency) -> None:
        W, name, m = self.dense, self.name, self.m
        if np.min(W) < -ATOL or np.max(W) > 1 + ATOL:
            raise InvalidParameterError(name, "entries in [0, 1]", (np.min(W), np.max(W)))
        if np.any(np.diag(W) <= 0):
            raise InvalidParameterError(name, "w_ii > 0 on the diagonal (condition 1)", np.min(np.diag(W)))
        if adjacency is not None:
            adj = np.asarray(adjacency, dtype=bool) | np.eye(m, dtype=bool)
            if adj.shape != (m, m):
                raise InvalidParameterError("adjacency", f"a ({m}, {m}) boolean matrix", f"shape {adj.shape}")
            if np.any(W[~adj] != 0) or np.any(W[adj & ~np.eye(m, dtype=bool)] <= 0):
                raise InvalidParameterError(name, "w_ij > 0 exactly on the edges of the graph (condition 1)")
        if np.max(np.abs(W.sum(axis=0) - 1)) > ATOL:
            raise InvalidParameterError(name, "columns summing to 1 (doubly stochastic)", W.sum(axis=0))
        if self.symmetric:
            if np.max(np.abs(W - W.T)) > ATOL:
                raise InvalidParameterError(name, "a symmetric matrix, W = W' (condition 2)", np.max(np.abs(W - W.T)))
            eig = self.eigenvalues
            if eig[-2] > 1 - 1e-12 if m > 1 else False:
                raise InvalidParameterError(
                    name, "null(I - W) = span{1}, i.e. a connected graph (condition 3)", f"lambda_2 = {eig[-2]}"
                )
        elif m > 1 and self.rho >= 1 - 1e-12:
            raise InvalidParameterError(name, "rho(W - 11'/m) < 1 (the gossip reaches consensus)", self.rho)

    # --- spectral quantities -------------------------------------------------------------------------------------
    @cached_property
    def disagreement(self) -> np.ndarray:
        """``W - 11'/m``, dense."""
        return self.dense - 1.0 / self.m

    @cached_property
    def eigenvalues(self) -> np.ndarray:
        """Eigenvalues in ascending order (real for symmetric ``W``; complex moduli sorted otherwise)."""
        if self.symmetric:
            return np.linalg.eigvalsh((self.dense + self.dense.T) / 2)
        return np.sort_complex(np.linalg.eigvals(self.dense))

    @cached_property
    def psi(self) -> float:
        """``||W - 11'/m||_2``: the second-largest eigenvalue modulus for symmetric ``W`` (0 for the complete graph)."""
        return float(np.linalg.norm(self.disagreement, 2)) if self.m > 1 else 0.0

    @property
    def spectral_gap(self) -> float:
        """``1 - psi``."""
        return 1.0 - self.psi

    @cached_property
    def rho(self) -> float:
        """``rho(W - 11'/m)``, the asymptotic contraction of the disagreement (equals ``psi`` when symmetric)."""
        return float(np.max(np.abs(np.linalg.eigvals(self.disagreement)))) if self.m > 1 else 0.0

    @property
    def lambda_2(self) -> float:
        """The second-largest eigenvalue (signed; symmetric ``W`` only)."""
        self._need_symmetric("lambda_2")
        return float(self.eigenvalues[-2]) if self.m > 1 else 1.0

    @property
    def lambda_min(self) -> float:
        """The smallest eigenvalue (signed; symmetric ``W`` only)."""
        self._need_symmetric("lambda_min")
        return float(self.eigenvalues[0])

    @cached_property
    def edges(self) -> int:
        """Number of edges ``(i, j)``, ``i != j``, with ``w_ij != 0`` (each undirected edge counted once)."""
        off = self.sparse.count_nonzero() - np.count_nonzero(self.sparse.diagonal())
        return off // 2 if self.symmetric else off

    def _need_symmetric(self, what: str) -> None:
        if not self.symmetric:
            raise InvalidParameterError("W", f"a symmetric mixing matrix for {what}", "a directed one")

    # --- operations ----------------------------------------------------------------------------------------------
    def gossip(self, X: np.ndarray, steps: int = 1) -> np.ndarray:
        """``W^steps`` applied along the client axis of ``X`` of shape ``(..., m, d)``: ``x_i <- sum_j w_ij x_j``."""
        X = np.asarray(X, dtype=float)
        if X.ndim < 2 or X.shape[-2] != self.m:
            raise InvalidParameterError("X", f"an array of shape (..., m = {self.m}, d)", f"shape {X.shape}")
        lead, d = X.shape[:-2], X.shape[-1]
        Y = np.moveaxis(X, -2, 0).reshape(self.m, -1)
        for _ in range(positive_int("steps", steps)):
            Y = self.sparse @ Y
        return np.moveaxis(Y.reshape(self.m, *lead, d), 0, -2)

    def shifted(self, beta: float) -> MixingMatrix:
        """``W_beta = (1 + beta) W - beta I``, unchecked (it may have negative entries); symmetric iff ``W`` is."""
        return MixingMatrix(
            (1 + beta) * self.dense - beta * np.eye(self.m), name="W_beta", symmetric=self.symmetric, check=False
        )

    def __repr__(self) -> str:
        return f"MixingMatrix(m={self.m}, edges={self.edges}, psi={self.psi:.6g})"


# --- constructions -------------------------------------------------------------------------------------------------
def complete(m: int) -> MixingMatrix:
    """``W = 11'/m`` (``psi = 0``)."""
    m = positive_int("m", m)
    return MixingMatrix(np.full((m, m), 1.0 / m))


def ring(m: int, self_weight: float = 1 / 3) -> MixingMatrix:
    """Ring of ``m >= 3`` clients: ``w_ii = self_weight``, each neighbour ``(1 - self_weight)/2``.

    ``self_weight = 1/3`` is the uniform ring, ``1/2`` the lazy ring (1/2, 1/4, 1/4).
    """
    m = positive_int("m", m, minimum=3)
    if not 0 < self_weight < 1:
        raise InvalidParameterError("self_weight", "a number in (0, 1)", self_weight)
    W = self_weight * np.eye(m)
    idx = np.arange(m)
    W[idx, (idx + 1) % m] += (1 - self_weight) / 2
    W[idx, (idx - 1) % m] += (1 - self_weight) / 2
    return MixingMatrix(W, adjacency=adjacency_of(W))


def metropolis(adjacency) -> MixingMatrix:
    """Metropolis-Hastings weights ``w_ij = 1/(1 + max(d_i, d_j))`` on an undirected graph, ``w_ii`` the rest.

    They satisfy the four conditions on every connected graph (``W > -I`` since every eigenvalue is at least
    ``2 w_ii - 1 > -1``); a disconnected graph is refused (condition 3).
    """
    adj = np.asarray(adjacency, dtype=bool)
    if adj.ndim != 2 or adj.shape[0] != adj.shape[1]:
        raise InvalidParameterError("adjacency", "a square boolean matrix", f"shape {adj.shape}")
    adj = adj & ~np.eye(adj.shape[0], dtype=bool)
    if np.any(adj != adj.T):
        raise InvalidParameterError("adjacency", "a symmetric (undirected) graph")
    if not _connected(adj):
        raise InvalidParameterError("adjacency", "a connected graph (condition 3: null(I - W) = span{1})")
    deg = adj.sum(axis=1)
    W = np.where(adj, 1.0 / (1.0 + np.maximum(deg[:, None], deg[None, :])), 0.0)
    W[np.diag_indices_from(W)] = 1.0 - W.sum(axis=1)
    # Symmetric, doubly stochastic, w_ii >= 1/(1 + max deg) > 0 and w_ij > 0 on the edges by construction; W > -I by
    # Gershgorin (every eigenvalue >= 2 w_ii - 1 > -1); connected above: the conditions hold without an eigensolve.
    return MixingMatrix(W, check=False)


def torus(rows: int, cols: int) -> MixingMatrix:
    """2-D torus ``rows x cols`` (both >= 3), weight 1/5 on the four neighbours and on oneself."""
    rows, cols = positive_int("rows", rows, minimum=3), positive_int("cols", cols, minimum=3)
    W = np.zeros((rows * cols, rows * cols))
    r, c = np.divmod(np.arange(rows * cols), cols)
    me = r * cols + c
    W[me, me] = 1 / 5
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        W[me, ((r + dr) % rows) * cols + (c + dc) % cols] += 1 / 5
    return MixingMatrix(W, adjacency=adjacency_of(W))


def grid(rows: int, cols: int) -> MixingMatrix:
    """Non-wrapped 2-D grid ``rows x cols`` with Metropolis-Hastings weights."""
    rows, cols = positive_int("rows", rows), positive_int("cols", cols)
    if rows * cols < 2:
        raise InvalidParameterError("rows", "a grid of at least 2 clients", (rows, cols))
    r, c = np.divmod(np.arange(rows * cols), cols)
    adj = (np.abs(r[:, None] - r[None, :]) + np.abs(c[:, None] - c[None, :])) == 1
    return metropolis(adj)


def exponential(m: int, *, symmetric: bool = True) -> MixingMatrix:
    """Exponential graph on ``m >= 2`` clients.

    ``symmetric=False``: the directed static exponential graph of Ying et al. (2021): client ``i`` receives from
    ``i + 2^k mod m`` for ``k = 0..ceil(log2 m) - 1``, all weights ``1/(ceil(log2 m) + 1)`` (doubly stochastic, not
    symmetric). ``symmetric=True``: edges ``i <-> i +- 2^k mod m``, uniform weights ``1/(deg + 1)`` (circulant, so
    every degree is equal and ``W`` is doubly stochastic).
    """
    m = positive_int("m", m, minimum=2)
    tau = int(np.ceil(np.log2(m)))
    offsets = {(2**k) % m for k in range(tau)} - {0}
    if symmetric:
        offsets |= {(-o) % m for o in offsets}
    W = np.zeros((m, m))
    idx = np.arange(m)
    weight = 1.0 / (len(offsets) + 1) if symmetric else 1.0 / (tau + 1)
    for o in offsets:
        W[idx, (idx + o) % m] = weight
    W[idx, idx] = 1.0 - W.sum(axis=1)
    return MixingMatrix(W, symmetric=symmetric, adjacency=adjacency_of(W) if symmetric else None)


def random_neighbours(m: int, r: int, rng: np.random.Generator) -> MixingMatrix:
    """One draw of the random time-varying topology: each client picks ``r`` other clients uniformly, the graph is
    the symmetric union of the picks, with Metropolis-Hastings weights. A disconnected draw is redrawn (it has
    probability about ``m e^{-2r}``; condition 3 needs a connected graph)."""
    m, r = positive_int("m", m, minimum=2), positive_int("r", r)
    if r > m - 1:
        raise InvalidParameterError("r", f"at most m - 1 = {m - 1} neighbours", r)
    rng = generator("rng", rng)
    for _ in range(100):
        keys = rng.random((m, m))
        keys[np.diag_indices(m)] = np.inf
        picks = np.argsort(keys, axis=1)[:, :r]
        adj = np.zeros((m, m), dtype=bool)
        adj[np.repeat(np.arange(m), r), picks.ravel()] = True
        adj |= adj.T
        if _connected(adj):
            return metropolis(adj)  # connected: no eigensolve per draw
    raise InvalidParameterError("r", "enough neighbours for a connected draw", r)  # pragma: no cover


@dataclass(frozen=True)
class RandomNeighbours:
    """The time-varying topology: a fresh :func:`random_neighbours` draw every round (a callable ``(t, rng) -> W``)."""

    m: int
    r: int

    def __call__(self, t: int, rng: np.random.Generator) -> MixingMatrix:
        return random_neighbours(self.m, self.r, rng)


Topology = MixingMatrix | Callable[[int, np.random.Generator], MixingMatrix]


def at_round(topology: Topology, t: int, rng: np.random.Generator) -> MixingMatrix:
    """The mixing matrix of round ``t``: ``topology`` itself if fixed, else ``topology(t, rng)``."""
    if isinstance(topology, MixingMatrix):
        return topology
    if callable(topology):
        W = topology(t, rng)
        if isinstance(W, MixingMatrix):
            return W
    raise InvalidParameterError("W", "a MixingMatrix or a callable (t, rng) -> MixingMatrix", type(topology).__name__)


def adjacency_of(W) -> np.ndarray:
    """The graph of ``W``: ``w_ij != 0``, ``i != j``."""
    W = np.asarray(W)
    return (W != 0) & ~np.eye(W.shape[0], dtype=bool)


def _connected(adj: np.ndarray) -> bool:
    n_components, _ = sps.csgraph.connected_components(sps.csr_matrix(adj), directed=False)
    return n_components == 1


# --- spectral analysis of lookahead and Chebyshev acceleration -------------------------------------------------------
def shifted_psi(W: MixingMatrix, beta) -> np.ndarray:
    """``psi(W_beta) = max(|(1+beta) lambda_2 - beta|, |(1+beta) lambda_min - beta|)`` (vectorised over ``beta``)."""
    beta = np.asarray(beta, dtype=float)
    return np.maximum(np.abs((1 + beta) * W.lambda_2 - beta), np.abs((1 + beta) * W.lambda_min - beta))


def consensus_optimal_beta(W: MixingMatrix) -> tuple[float, float]:
    """The ``beta >= 0`` minimising ``psi(W_beta)`` and the minimum: ``beta* = max{0, (l_2 + l_m)/(2 - l_2 - l_m)}``."""
    s = W.lambda_2 + W.lambda_min
    beta = max(0.0, s / (2.0 - s)) if W.m > 1 else 0.0
    return beta, float(shifted_psi(W, beta))


def chebyshev_parameter(psi: float) -> float:
    """The Chebyshev (heavy-ball) parameter ``eta`` with ``sqrt(eta) = (1 - sqrt(1 - psi^2))/psi`` (0 at psi = 0)."""
    if not 0 <= psi < 1:
        raise InvalidParameterError("psi", "a number in [0, 1)", psi)
    return 0.0 if psi == 0 else ((1 - np.sqrt(1 - psi**2)) / psi) ** 2


def chebyshev_matrix(W: MixingMatrix, eta: float, *, disagreement: bool = False) -> np.ndarray:
    """The two-step gossip ``[[(1+eta) W, -eta I], [I, 0]]`` acting on ``(x^t, x^{t-1})``; with
    ``disagreement=True`` ``W - 11'/m`` replaces ``W`` (its spectral radius is the contraction rate)."""
    A = W.disagreement if disagreement else W.dense
    eye = np.eye(W.m)
    return np.block([[(1 + eta) * A, -eta * eye], [eye, np.zeros_like(eye)]])


def chebyshev_gossip(W: MixingMatrix, X0: np.ndarray, eta: float, steps: int) -> np.ndarray:
    """``steps`` rounds of ``x^{t+1} = (1+eta) W x^t - eta x^{t-1}`` from ``x^{-1} = x^0``; all iterates
    ``(steps + 1, ..., m, d)``."""
    prev, cur, out = X0, X0, [np.asarray(X0, dtype=float)]
    for _ in range(positive_int("steps", steps)):
        prev, cur = cur, (1 + eta) * W.gossip(cur) - eta * prev
        out.append(cur)
    return np.stack(out)
