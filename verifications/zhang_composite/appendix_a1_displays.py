"""Appendix A.1 ("Detailed derivation of Equation (2)") display by display, with the printed summation ranges, along
runs of Algorithm 1: (15), (16), (17) with its base case, the display after (17) that rewrites C^r, and the display
that rewrites the server step (the last step of (2)).

Runs, rounding scales and the witness search: :mod:`.alg_1_runs` (its docstring). In the notation of the appendix
(stacked over clients, ``W`` the client average): ``WC^{r+1}`` is the client mean of the corrections after round
``r``, ``sum_t grad f(Z_t^r)`` the traced gradients of round ``r``, and ``mean grad f`` their client mean.

As printed, (15), the second and third lines of the display after (17), and the second and third lines of the
server display sum the gradients over ``t = 1..tau-1``; the derivation (from (14) and (16)) needs ``t = 0..tau-1``,
and the first line of the display after (17), the last line of it and (2) itself are printed with ``t = 0``. The
printed lines miss the ``t = 0`` term, a gradient at ``P(x^r)`` (``grad f_i``, its client mean ``grad f``, or in the
third line of the display after (17) their difference, the clients' heterogeneity), which is not 0 in general -- for
every ``tau``, ``tau = 1`` included, where the printed sums are empty. Each such display is a ``printed`` claim
that fails, with a ``corrected`` claim (``t = 0``) that holds. No hypothesis enters beyond the definitions: the
displays are identities for every run of (14).

Steps that restate the code's own lines (line 18 for the first line of the display after (17), line 14 for the
first line of the server display) are not judged. The corrected lines of (15) are client averages of lines 18 and 14,
so they hold by construction on Algorithm 1 (recorded; the coupled variant, whose server averages post-prox models,
is their negative control); the other corrected lines use (16) (the telescoped local steps) or ``WC = 0`` (the
conclusion of (17)), which a perturbed correction breaks (their negative control).
"""

from __future__ import annotations

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim
from fedtheory.harness.tolerances import SCALED_ROUNDING

from .alg_1_runs import (
    CASES,
    CONTROL,
    PERTURBED,
    P,
    Rounds,
    amax,
    correction_scale,
    judged,
    over_cases,
    search_points,
    server_scale,
    traced,
    worst,
)

MISPRINT = (
    "none beyond the definitions: the display is an identity for every run of (14) (any n >= 1, tau >= 1, eta, "
    "eta_g > 0, start, oracle); the witness is a run of Algorithm 1 on the prescribed-minimiser instance "
    "(heterogeneous quadratics, g = 0.5 ||.||_1, d = 10) at the parameters of its grid entry"
)
COUPLED = "the coupled variant (line 9 applied to the post-prox model, post-prox models sent)"


def _sums(rd: Rounds, first: int) -> tuple[np.ndarray, np.ndarray]:
    """``(1/tau) sum_{t=first}^{tau-1}`` of the traced gradients per client (R, S, n, d) and its client mean
    (R, S, d)."""
    per_client = rd.g[:, first:].sum(axis=1) / rd.params.tau
    return per_client, per_client.mean(axis=-2)


def _eq_15(rd: Rounds, first: int) -> dict:
    """(15): ``WC^{r+1}`` against both printed right sides, the sums from ``t = first``."""
    q = rd.params
    _, mean = _sums(rd, first)
    lhs = rd.c[1:].mean(axis=-2)
    line_1 = (rd.p - rd.x[1:]) / q.eta_tilde - mean
    line_2 = -(rd.z_hat[:, -1].mean(axis=-2) - rd.p) / (q.eta * q.tau) - mean
    scale = correction_scale(rd)
    return {"(15) line 1": amax(lhs - line_1) / scale, "(15) line 2": amax(lhs - line_2) / scale}


def _display_c(rd: Rounds, first: int) -> dict:
    """The display after (17): ``C^r`` (r >= 2, from round r - 1) against its lines 2-4, lines 2 and 3 with the sums
    from ``t = first`` (line 4 as printed, from ``t = 0``)."""
    q = rd.params
    part, part_mean = _sums(rd, first)
    full, full_mean = _sums(rd, 0)
    C = rd.c[1:]
    line_2 = -(rd.z_hat[:, -1].mean(axis=-2) - rd.p)[:, :, None] / (q.eta * q.tau) - part
    line_3 = (part_mean + rd.c[:-1].mean(axis=-2))[:, :, None] - part
    line_4 = full_mean[:, :, None] - full
    scale = correction_scale(rd)
    return {f"line {k}": amax(C - line, (-2, -1)) / scale for k, line in ((2, line_2), (3, line_3), (4, line_4))}


def _display_server(rd: Rounds, first: int) -> dict:
    """The server display (last step of (2)): ``x^{r+1}`` against lines 2 and 3, the sums from ``t = first``."""
    q = rd.params
    _, mean = _sums(rd, first)
    step = q.eta * q.eta_g * q.tau
    line_2 = rd.p - step * (mean + rd.c[:-1].mean(axis=-2))
    line_3 = rd.p - step * mean
    scale = server_scale(rd)
    return {"line 2": amax(rd.x[1:] - line_2) / scale, "line 3": amax(rd.x[1:] - line_3) / scale}


def _printed(ctx: Context, residuals, sums_from: str) -> Evidence:
    """A printed display (sums from ``t = 1``) on the runs; the witness records the worst ``tau = 1`` entry and the
    corrected display's worst residual."""
    points = over_cases(ctx, lambda rd: residuals(rd, 1))
    ev = points.evidence("==", atol=SCALED_ROUNDING)
    tau = np.asarray(points.grid["tau"])
    measured = np.asarray(points.measured)
    corrected = max(
        worst(v) for i in range(len(CASES)) for v in residuals(traced(ctx, i, True, 0.0, "decoupled"), 0).values()
    )
    ev.witness = {
        "hypotheses": MISPRINT,
        "printed": f"sums over {sums_from}",
        "worst scaled residual at tau = 1": float(measured[tau == 1].max()),
        "worst scaled residual of the corrected display (t = 0..tau-1)": corrected,
    }
    return ev


def _corrected(ctx: Context, residuals, control: Rounds, what: str) -> Evidence:
    """A corrected display (sums from ``t = 0``) on the runs and by the witness search, with its negative control."""
    points = over_cases(ctx, lambda rd: residuals(rd, 0))
    search_points(points, lambda rd: residuals(rd, 0), ctx)
    return judged(points, np.concatenate([v.ravel() for v in residuals(control, 0).values()]), what)


# --- (15) ------------------------------------------------------------------------------------------------------------
@claim(
    f"{P}/eq-15",
    source="eq. (15), Appendix A.1",
    statement="WC^{r+1} = (1/(eta_g eta tau))(P(X^r) - X^{r+1}) - (1/tau) sum_{t=1}^{tau-1} mean grad f(Z_t^r; B_t^r) "
    "= -(1/(eta tau))(W Z^_tau^r - P(X^r)) - (1/tau) sum_{t=1}^{tau-1} mean grad f(Z_t^r; B_t^r), along every run.",
    scope="printed",
    expect="fails",
)
def eq_15(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs`. Reading: the printed sums start at ``t = 1``; the client average of
    line 18 has them from ``t = 0``, so both printed right sides miss ``(1/tau) grad f(P(x^r))`` (the gradients at
    ``z_{i,0} = P(x^r)``). Reference: the state's corrections and the traced gradients."""
    return _printed(ctx, _eq_15, "t = 1..tau-1 (both lines)")


@claim(
    f"{P}/eq-15:corrected",
    source="eq. (15), Appendix A.1",
    statement="(15) with the sums over t = 0..tau-1: WC^{r+1} = (1/(eta_g eta tau))(P(X^r) - X^{r+1}) - (1/tau) "
    "sum_{t=0}^{tau-1} mean grad f(Z_t^r; B_t^r) = -(1/(eta tau))(W Z^_tau^r - P(X^r)) - (1/tau) sum_{t=0}^{tau-1} "
    "mean grad f(Z_t^r; B_t^r), along every run, to rounding.",
    scope="corrected",
    expect="holds",
)
def eq_15_corrected(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs` and the witness search. Reading: both lines are client averages of
    the code's lines 18 and 14 (the first line is line 18 averaged; the second uses line 14), so on Algorithm 1 they
    hold by construction of (14): the claim records that the repaired display is what (14) computes. The negative
    control is the coupled variant, whose server averages the post-prox models, so the second line (with the
    pre-prox ``Z^_tau``) breaks. Reference: the state's corrections and the traced gradients."""
    return _corrected(ctx, _eq_15, traced(ctx, CONTROL, True, 0.0, "coupled"), COUPLED)


# --- (16) and (17) ---------------------------------------------------------------------------------------------------
def _eq_16(rd: Rounds) -> dict:
    """(16): ``Z^_tau = Z^_0 - eta (sum_{t=0}^{tau-1} grad f(Z_t) + tau C^r)`` per client."""
    q = rd.params
    rhs = rd.z_hat[:, 0] - q.eta * (rd.g.sum(axis=1) + q.tau * rd.c[:-1])
    scale = (
        amax(rd.z_hat[:, 0], (-2, -1))
        + amax(rd.z_hat[:, -1], (-2, -1))
        + q.eta * q.tau * (amax(rd.g, (1, -2, -1)) + amax(rd.c[:-1], (-2, -1)))
    )
    return {"(16)": amax(rd.z_hat[:, -1] - rhs, (-2, -1)) / scale}


@claim(
    f"{P}/eq-16",
    source="eq. (16), Appendix A.1",
    statement="Z^_tau^r = Z^_0^r - eta (sum_{t=0}^{tau-1} grad f(Z_t^r; B_t^r) + tau C^r) along every run, to "
    "rounding.",
    scope="printed",
    expect="holds",
)
def eq_16(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs` and the witness search. Reading: (16) telescopes line 9 (the pre-prox
    model accumulates the steps taken at the post-prox models); it is checked on the traced pre-prox models, and the
    coupled variant (line 9 restarted from the post-prox model at every step) is the negative control that breaks it.
    Reference: the traced local models and gradients."""
    points = over_cases(ctx, _eq_16)
    search_points(points, _eq_16, ctx)
    return judged(points, _eq_16(traced(ctx, CONTROL, True, 0.0, "coupled"))["(16)"], COUPLED)


def _eq_17(rd: Rounds) -> dict:
    """(17) ``WC^{r+1} = WC^r`` every round, and the base case ``WC^1 = 0``."""
    scale = correction_scale(rd)
    step = amax(rd.c[1:].mean(axis=-2) - rd.c[:-1].mean(axis=-2)) / scale
    return {"WC^{r+1} - WC^r": step, "base case WC^1": amax(rd.c[0].mean(axis=-2)) / scale[0]}


@claim(
    f"{P}/eq-17",
    source="eq. (17) and the sentence before (15), Appendix A.1",
    statement="WC^{r+1} = WC^r for every r, and with the base case 'By the initialization C^1 = 0_nd, this claim "
    "[WC^{r+1} = 0] holds for r = 0' (WC^1 = 0), WC^r = 0 for all r >= 1, along every run, to rounding.",
    scope="printed",
    expect="holds",
)
def eq_17(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs` and the witness search. Reading: the base case is the initialization
    (``c^1 = 0``, fixed by construction: recorded as an entry, the index ``r = 0`` of the sentence reads ``C^{r+1} =
    C^1``); the step ``WC^{r+1} = WC^r`` is a theorem about the per-client code (each client computes its own
    correction). The coupled variant, whose server averages post-prox models, breaks the step (negative control).
    Reference: the state's corrections."""
    points = over_cases(ctx, _eq_17)
    search_points(points, _eq_17, ctx)
    control = _eq_17(traced(ctx, CONTROL, True, 0.0, "coupled"))["WC^{r+1} - WC^r"]
    return judged(points, control, COUPLED)


# --- the display after (17): C^r --------------------------------------------------------------------------------------
C_DISPLAY = (
    "C^r = (1/(eta_g eta tau))(P(X^{r-1}) - X^r) - (1/tau) sum_{t=0}^{tau-1} grad f(Z_t^{r-1}) = -(1/(eta tau))(W "
    "Z^_tau^{r-1} - P(X^{r-1})) - (1/tau) sum_{t=1}^{tau-1} grad f(Z_t^{r-1}) = (1/tau) sum_{t=1}^{tau-1} mean grad "
    "f(Z_t^{r-1}) + WC^{r-1} - (1/tau) sum_{t=1}^{tau-1} grad f(Z_t^{r-1}) = (1/tau) sum_{t=0}^{tau-1} mean grad "
    "f(Z_t^{r-1}) - (1/tau) sum_{t=0}^{tau-1} grad f(Z_t^{r-1})"
)


@claim(
    f"{P}/eq-17:c-display",
    source="the display after (17), Appendix A.1",
    statement=C_DISPLAY + " (batches B_t^{r-1} omitted), for every r >= 2 along every run.",
    scope="printed",
    expect="fails",
)
def eq_17_c_display(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs`. Reading: each line after the first (line 18, the code itself) is
    compared with ``C^r`` from the state; lines 2 and 3 print their sums from ``t = 1`` and miss ``(1/tau)
    grad f_i(P(x^{r-1}))`` (line 2) and ``(1/tau)(grad f(P(x^{r-1})) - grad f_i(P(x^{r-1})))`` (line 3, nonzero for
    heterogeneous clients); the last line is printed from ``t = 0`` and is correct (it uses ``WC^{r-1} = 0``).
    Reference: the state's corrections and the previous round's traced gradients."""
    return _printed(ctx, _display_c, "t = 1..tau-1 in lines 2 and 3, t = 0..tau-1 in line 4")


@claim(
    f"{P}/eq-17:c-display-corrected",
    source="the display after (17), Appendix A.1",
    statement="The display after (17) with the sums of lines 2 and 3 over t = 0..tau-1: C^r = -(1/(eta tau))(W "
    "Z^_tau^{r-1} - P(X^{r-1})) - (1/tau) sum_{t=0}^{tau-1} grad f(Z_t^{r-1}) = (1/tau) sum_{t=0}^{tau-1} mean grad "
    "f(Z_t^{r-1}) + WC^{r-1} - (1/tau) sum_{t=0}^{tau-1} grad f(Z_t^{r-1}) = (1/tau) sum_{t=0}^{tau-1} mean grad "
    "f(Z_t^{r-1}) - (1/tau) sum_{t=0}^{tau-1} grad f(Z_t^{r-1}), for every r >= 2, to rounding.",
    scope="corrected",
    expect="holds",
)
def eq_17_c_display_corrected(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs` and the witness search. Reading: line 2 is lines 14 and 18 combined,
    line 3 uses (16), line 4 uses ``WC^{r-1} = 0`` -- the identity ``c_i^{r+1} = v^r - (1/tau) sum_t g_{i,t}^r``
    that the drift closed form rests on; a perturbed correction breaks it (negative control). Reference: the state's
    corrections and the previous round's traced gradients."""
    return _corrected(ctx, _display_c, traced(ctx, CONTROL, True, 1.0, "decoupled"), f"run with {PERTURBED}")


# --- the server display (the last step of (2)) ------------------------------------------------------------------------
@claim(
    f"{P}/eq-17:server-display",
    source="the display after the display after (17), Appendix A.1 (last step of (2))",
    statement="X^{r+1} = P(X^r) + eta_g(W Z^_tau^r - P(X^r)) = P(X^r) - eta eta_g W(sum_{t=1}^{tau-1} grad f(Z_t^r; "
    "B_t^r) + tau C^r) = P(X^r) - eta eta_g sum_{t=1}^{tau-1} mean grad f(Z_t^r; B_t^r), along every run.",
    scope="printed",
    expect="fails",
)
def eq_17_server_display(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs`. Reading: the first line is line 14 (the code); lines 2 and 3 print
    their sums from ``t = 1`` and miss ``eta eta_g grad f(P(x^r))``; (2) itself prints the sum from ``t = 0``.
    Reference: the state's server models and the traced gradients."""
    return _printed(ctx, _display_server, "t = 1..tau-1 (lines 2 and 3)")


@claim(
    f"{P}/eq-17:server-display-corrected",
    source="the display after the display after (17), Appendix A.1 (last step of (2))",
    statement="The server display with the sums over t = 0..tau-1: X^{r+1} = P(X^r) - eta eta_g W(sum_{t=0}^{tau-1} "
    "grad f(Z_t^r; B_t^r) + tau C^r) = P(X^r) - eta eta_g sum_{t=0}^{tau-1} mean grad f(Z_t^r; B_t^r) (the last step "
    "of (2) as printed there), along every run, to rounding.",
    scope="corrected",
    expect="holds",
)
def eq_17_server_display_corrected(ctx: Context) -> Evidence:
    """Instance: the runs of :mod:`.alg_1_runs` and the witness search. Reading: line 2 uses (16), line 3 uses
    ``WC^r = 0``, which a perturbed correction breaks (negative control). Reference: the state's server models and
    the traced gradients."""
    return _corrected(ctx, _display_server, traced(ctx, CONTROL, True, 1.0, "decoupled"), f"run with {PERTURBED}")
