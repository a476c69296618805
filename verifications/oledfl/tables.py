"""Tables I-IV of the paper as printed: data only, typed from the paper's pages in their printed layout and parsed.

Every number keeps its printed digits (``decimal.Decimal`` from the printed string), so the claims recompute the text's
differences and ratios exactly (:func:`exact`) and judge them at the precision the text prints (:func:`half_unit`).
A cell of Table III that the run never reached is kept as the printed marker :data:`NOT_REACHED` (">500"); the claims
decide how to read it.

Printed objects: Table I, Table II (top-1 test accuracy, mean and std), Table III (rounds to a target accuracy on
CIFAR-10 with the speed-up printed in parentheses), Table IV (top-1 test accuracy per topology, CIFAR-10 Dir 0.3).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

REGISTERS_CLAIMS = False  # the tables as data; the claims are in the sibling tab_*_text modules

NOT_REACHED = ">500"
"""Table III's marker for a target accuracy not reached within the T = 500 rounds of the experiments."""
ROUNDS_T = 500
"""The number of communication rounds of every experiment (Section V-A)."""

METHODS = ("FedAvg", "FedSAM", "SCAFFOLD", "D-PSGD", "DFedAvg", "DFedAvgM", "DFedSAM", "OledFL-SGD", "OledFL-SAM")
"""The rows of Tables II and III, in printed order."""
CFL_BASELINES = ("FedAvg", "FedSAM", "SCAFFOLD")
DFL_BASELINES = ("D-PSGD", "DFedAvg", "DFedAvgM", "DFedSAM")
OLEDFL = ("OledFL-SGD", "OledFL-SAM")
"""OledFL-SGD is Ole added to DFedAvg, OledFL-SAM Ole added to DFedSAM (Section I)."""


class Accuracy(NamedTuple):
    """A Table II cell: top-1 test accuracy (%) as mean and std, with their printed digits."""

    mean: Decimal
    std: Decimal


class Rounds(NamedTuple):
    """A Table III cell: rounds to the target accuracy (an int, or :data:`NOT_REACHED`) and the printed speed-up
    (``None`` where the cell prints none)."""

    rounds: int | str
    speedup: Decimal | None


# ---- Table I -------------------------------------------------------------------------------------------------------
TABLE_I_COLUMNS = ("non-convex", "convergence analysis", "generalization analysis", "multi-local update",
                   "no bounded gradient")  # fmt: skip
_TABLE_I = """
DPSGD       ✓ ✓ ✓ × ✓
DFedAvg     ✓ ✓ × ✓ ×
DFedAvgM    ✓ ✓ × ✓ ×
DFedSAM     ✓ ✓ × ✓ ✓
OledFL      ✓ ✓ ✓ ✓ ✓
"""

# ---- Table II ------------------------------------------------------------------------------------------------------
TABLE_II_COLUMNS = (
    "C10 Dir 0.3", "C10 Dir 0.6", "C10 IID", "C100 Dir 0.3", "C100 Dir 0.6", "C100 IID",
    "C10 Path 2", "C10 Path 4", "C10 Path 6", "C100 Path 10", "C100 Path 20", "C100 Path 30",
)  # fmt: skip
"""C10/C100: CIFAR-10/100; Dir alpha: Dirichlet partition; Path k: k classes per client (Section V-A)."""
_TABLE_II_DIRICHLET = """
FedAvg      78.10±0.81  79.00±1.04  81.16±0.20    54.50±0.70  55.69±0.72  56.94±0.41
FedSAM      80.22±0.70  81.43±0.28  82.83±0.23    57.76±0.36  58.62±0.51  59.97±0.19
SCAFFOLD    78.39±0.35  79.85±0.18  81.75±0.23    60.23±0.30  61.42±0.52  62.75±0.31
D-PSGD      59.76±0.04  60.03±0.13  62.93±0.12    55.68±0.20  56.68±0.10  57.60±0.12
DFedAvg     77.25±0.12  77.83±0.11  79.97±0.08    58.17±0.10  58.22±0.50  59.00±0.31
DFedAvgM    79.30±0.24  80.66±0.07  82.72±0.20    57.79±0.29  58.13±0.39  58.90±0.47
DFedSAM     79.37±0.07  80.47±0.09  82.14±0.09    57.67±0.20  58.55±0.23  59.53±0.24
OledFL-SGD  82.20±0.20  82.72±0.22  84.10±0.24    60.00±0.15  60.65±0.30  62.58±0.21
OledFL-SAM  84.45±0.19  84.70±0.10  85.75±0.20    61.22±0.12  61.78±0.22  63.55±0.20
"""
_TABLE_II_PATHOLOGICAL = """
FedAvg      69.01±0.96  75.80±1.01  76.76±1.11    52.12±0.70  55.70±0.63  57.14±0.26
FedSAM      69.33±1.32  75.78±1.04  77.55±0.68    52.46±0.69  55.75±0.55  57.60±0.36
SCAFFOLD    64.28±2.12  78.08±0.39  80.35±0.19    54.17±0.51  58.32±0.67  60.50±0.35
D-PSGD      59.53±0.40  63.80±0.22  64.86±0.48    52.66±0.58  55.79±0.11  56.82±0.35
DFedAvg     74.73±0.26  77.50±0.25  79.00±0.25    54.72±0.19  57.57±0.11  58.30±0.24
DFedAvgM    75.10±0.27  79.50±0.33  81.07±0.27    48.19±0.45  53.60±0.64  53.95±0.85
DFedSAM     75.08±0.11  79.85±0.09  81.36±0.11    53.86±0.17  57.58±0.22  58.80±0.21
OledFL-SGD  78.20±0.24  81.54±0.25  83.10±0.30    55.03±0.11  58.87±0.13  59.75±0.10
OledFL-SAM  79.58±0.18  83.45±0.21  84.90±0.18    56.68±0.16  60.22±0.24  61.57±0.21
"""

# ---- Table III -----------------------------------------------------------------------------------------------------
TABLE_III_COLUMNS = (
    "Dir 0.3 Acc@75", "Dir 0.3 Acc@77", "Dir 0.3 Acc@80", "Dir 0.6 Acc@75", "Dir 0.6 Acc@77", "Dir 0.6 Acc@80",
    "IID Acc@78", "IID Acc@80", "IID Acc@82",
    "Path 2 Acc@55", "Path 2 Acc@65", "Path 2 Acc@70", "Path 4 Acc@65", "Path 4 Acc@70", "Path 4 Acc@75",
    "Path 6 Acc@70", "Path 6 Acc@75", "Path 6 Acc@80",
)  # fmt: skip
"""CIFAR-10 only; the first nine columns are the printed Dirichlet/IID half, the last nine the Pathological half."""
_TABLE_III_DIRICHLET = """
FedAvg      141(1.3)  244(1.7)  >500      111(1.4)  166(1.7)  485(1.0)  150(1.2)  243(2.0)  >500
FedSAM      141(1.3)  202(2.1)  402(1.2)  121(1.3)  165(1.7)  296(1.7)  142(1.2)  199(2.4)  363(0.8)
SCAFFOLD    264(0.7)  356(1.2)  >500      202(0.8)  262(1.1)  470(1.1)  180(1.0)  273(1.8)  >500
D-PSGD      >500      >500      >500      >500      >500      >500      >500      >500      >500
DFedAvg     179(1.0)  419(1.0)  >500      152(1.0)  283(1.0)  >500      176(1.0)  479(1.0)  >500
DFedAvgM    93(1.9)   141(3.0)  >500      64(2.4)   99(2.9)   305(1.6)  59(3.0)   117(4.1)  303(1.7)
DFedSAM     187(1.0)  265(1.6)  >500      155(1.0)  203(1.4)  414(1.2)  143(1.2)  212(2.3)  452(1.1)
OledFL-SGD  54(3.3)   77(5.4)   146(3.4)  41(3.7)   58(4.9)   110(4.5)  37(4.8)   59(8.1)   91(5.5)
OledFL-SAM  57(3.1)   68(6.2)   104(4.8)  45(2.9)   53(5.3)   82(6.1)   48(3.7)   63(7.6)   90(5.6)
"""
_TABLE_III_PATHOLOGICAL = """
FedAvg      137(0.5)  283(0.5)  >500      113(0.5)  180(0.5)  327(0.6)  129(0.5)  208(0.5)  >500
FedSAM      156(0.4)  313(0.4)  453(0.5)  119(0.5)  172(0.5)  333(0.6)  132(0.4)  225(0.5)  >500
SCAFFOLD    183(0.3)  439(0.3)  >500      122(0.5)  172(0.5)  287(0.7)  114(0.5)  182(0.6)  439(1.1)
D-PSGD      340(0.2)  >500      >500      >500      >500      >500      >500      >500      >500
DFedAvg     62(1.0)   139(1.0)  223(1.0)  59(1.0)   92(1.0)   187(1.0)  59(1.0)   113(1.0)  >500
DFedAvgM    126(0.5)  179(0.8)  244(0.9)  46(1.3)   64(1.4)   119(1.6)  32(1.8)   65(1.7)   257(1.9)
DFedSAM     75(0.8)   157(0.9)  248(0.9)  75(0.8)   111(0.8)  187(1.0)  84(0.7)   128(0.9)  328(1.5)
OledFL-SGD  34(1.8)   66(2.1)   94(2.4)   25(2.4)   36(2.6)   57(3.3)   24(2.5)   37(3.1)   89(5.6)
OledFL-SAM  44(1.4)   88(1.6)   117(1.9)  30(2.0)   41(2.2)   63(3.0)   31(1.9)   43(2.6)   83(6.0)
"""

# ---- Table IV ------------------------------------------------------------------------------------------------------
TABLE_IV_COLUMNS = ("Ring", "Grid", "Exp", "Full")
"""Topologies, CIFAR-10 Dir 0.3 (Section V-C); no std is printed."""
TABLE_IV_METHODS = ("D-PSGD", "DFedAvg", "DFedAvgM", "DFedSAM", "OledFL-SGD", "OledFL-SAM")
_TABLE_IV = """
D-PSGD      51.24  52.06  55.58  65.46
DFedAvg     63.30  74.72  77.11  78.52
DFedAvgM    65.49  76.89  78.01  80.14
DFedSAM     65.12  77.86  78.88  81.04
OledFL-SGD  71.78  81.05  78.73  81.52
OledFL-SAM  74.48  82.95  79.99  83.13
"""


def _rows(text: str, columns: int) -> dict[str, list[str]]:
    """The printed rows of a table block: method name, then ``columns`` cells."""
    rows = {}
    for line in text.strip().splitlines():
        name, *cells = line.split()
        if len(cells) != columns:
            raise ValueError(f"{name}: {len(cells)} cells typed, {columns} printed")
        rows[name] = cells
    return rows


def _accuracy(cell: str) -> Accuracy:
    mean, std = cell.split("±")
    return Accuracy(Decimal(mean), Decimal(std))


def _rounds(cell: str) -> Rounds:
    if cell == NOT_REACHED:
        return Rounds(NOT_REACHED, None)
    rounds, speedup = cell.rstrip(")").split("(")
    return Rounds(int(rounds), Decimal(speedup))


def _joined(halves: tuple[str, str], columns: tuple[str, ...], parse) -> dict[str, dict[str, object]]:
    """A table printed in two halves (Dirichlet/IID, then Pathological), as method -> column -> cell."""
    width = len(columns) // 2
    first, second = (_rows(text, width) for text in halves)
    if tuple(first) != METHODS or tuple(second) != METHODS:
        raise ValueError("rows typed out of the printed order")
    return {m: dict(zip(columns, map(parse, first[m] + second[m]), strict=True)) for m in METHODS}


TABLE_I: dict[str, dict[str, bool]] = {
    m: dict(zip(TABLE_I_COLUMNS, (c == "✓" for c in cells), strict=True))
    for m, cells in _rows(_TABLE_I, len(TABLE_I_COLUMNS)).items()
}
"""Table I: method -> column -> ticked."""
TABLE_II: dict[str, dict[str, Accuracy]] = _joined(
    (_TABLE_II_DIRICHLET, _TABLE_II_PATHOLOGICAL), TABLE_II_COLUMNS, _accuracy
)
"""Table II: method -> column -> :class:`Accuracy`."""
TABLE_III: dict[str, dict[str, Rounds]] = _joined(
    (_TABLE_III_DIRICHLET, _TABLE_III_PATHOLOGICAL), TABLE_III_COLUMNS, _rounds
)
"""Table III: method -> column -> :class:`Rounds`."""
TABLE_IV: dict[str, dict[str, Decimal]] = {
    m: dict(zip(TABLE_IV_COLUMNS, map(Decimal, cells), strict=True))
    for m, cells in _rows(_TABLE_IV, len(TABLE_IV_COLUMNS)).items()
}
"""Table IV: method -> topology -> top-1 test accuracy (%)."""


def exact(value: Decimal | str | int) -> Fraction:
    """A printed number as an exact rational (``Decimal("78.10")`` -> 781/10)."""
    return Fraction(Decimal(value) if isinstance(value, str) else value)


def half_unit(printed: str) -> Fraction:
    """Half a unit in the last printed digit of ``printed``: the rounding a printed value carries ("4.5" -> 1/20,
    "2.76" -> 1/200, "8" -> 1/2)."""
    exponent = Decimal(printed).as_tuple().exponent
    return Fraction(1, 2) * Fraction(10) ** exponent


def rounds_read_as_t(cell: Rounds) -> int:
    """The rounds of a Table III cell, :data:`NOT_REACHED` read as :data:`ROUNDS_T` (a lower bound on the rounds that
    run would need, and the reading the printed speed-ups use)."""
    return ROUNDS_T if cell.rounds == NOT_REACHED else cell.rounds
