"""Tables 1-9 of the paper as printed: data only, typed from the paper's pages in their printed layout and parsed.

Every number keeps its printed digits (``decimal.Decimal`` from the printed string), so the claims recompute the text's
differences exactly (:func:`exact`) and judge them at the precision the text prints (:func:`half_unit`). An accuracy
cell is a :class:`Cell` (mean and std over the 5 runs of Appendix E.2, in %).

Printed objects: Table 1 (Synthetic(0.5, 0.5), global accuracy per number of local epochs E), Tables 2 and 3 (CIFAR-10,
E = 5, global and local accuracy), Table 4 (class partitions), Table 5 (data-size ranges), Tables 6-8 (CIFAR-10 E = 1,
MNIST E = 1 and E = 5, global accuracy), Table 9 (Shakespeare: accuracy and variance of per-device accuracy).
Tables 2, 3, 6, 7, 8 are printed in blocks by C (the most common number of classes per device, Appendix E.3) with
the power-law exponent as column.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

REGISTERS_CLAIMS = False  # the tables as data; the claims are in the sibling tab_text module

EPOCHS = (1, 5, 10, 25, 50)
"""The columns of Table 1: local training epochs E."""
EXPONENTS = ("1.1", "1.2", "1.3", "1.4", "1.5")
"""The power-law exponents, the columns of Tables 2-8, as printed."""
CLASSES = (1, 2, 3)
"""The values of C, the blocks of Tables 2, 3, 4, 6, 7, 8."""
DATASETS = ("MNIST", "CIFAR-10")
"""The rows of Tables 4 and 5."""
ROWS_9 = ("acc", "var")
"""Table 9's two rows per E: test accuracy, and the variance of per-device test accuracy."""


class Cell(NamedTuple):
    """An accuracy cell: mean and std (in %, or %^2 for Table 9's variance row), with their printed digits."""

    mean: Decimal
    std: Decimal


# ---- Table 1 -------------------------------------------------------------------------------------------------------
_TABLE_1 = """
    FedAvg         83.61±0.43  83.42±0.58  83.49±0.70  83.73±0.57  82.94±0.66
    q-FedAvg       87.12±0.25  86.76±0.15  86.46±0.28  86.76±0.12  86.71±0.12
    FedProx        86.23±0.42  85.59±0.37  85.34±0.61  85.00±0.63  85.34±0.48
    Scaffold       83.84±0.09  82.95±0.30  83.48±0.21  83.60±0.21  82.80±0.62
    FedBC          87.83±0.35  87.48±0.18  87.43±0.20  86.99±0.11  87.26±0.12
"""

# ---- Table 2 (CIFAR-10, global accuracy, E = 5) --------------------------------------------------------------------
_TABLE_2 = """
C=1 FedAvg         50.15±0.58  50.66±1.88  57.23±0.74  53.69±2.24  60.82±0.85
    q-FedAvg       49.17±1.38  49.32±1.64  57.35±1.05  54.40±1.57  60.56±1.19
    FedProx        49.92±1.16  50.21±2.00  57.14±0.60  56.30±1.95  60.57±0.65
    Scaffold       46.86±2.03  36.55±2.63  37.81±2.50  30.99±1.23  36.08±3.25
    Per-FedAvg     45.93±0.86  37.03±6.22  56.43±2.35  52.82±1.98  56.31±5.52
    pFedMe         47.18±1.28  43.69±1.38  50.76±1.44  45.12±1.92  50.19±2.24
    FedBC          50.35±0.91  55.25±1.27  58.93±1.52  58.10±1.56  61.12±1.24
C=2 FedAvg         57.10±0.85  56.94±1.66  57.67±2.76  32.87±2.82  58.59±3.14
    q-FedAvg       57.20±0.68  58.29±1.67  57.71±2.09  57.10±2.44  57.90±3.27
    FedProx        57.18±1.21  57.64±1.64  57.98±1.73  39.99±4.18  58.63±2.91
    Scaffold       55.51±1.79  24.48±3.34  36.69±2.78  41.79±0.42  32.18±9.18
    Per-FedAvg     55.29±0.82  54.67±1.88  54.64±1.96  39.66±6.94  60.16±1.46
    pFedMe         51.45±0.44  46.80±2.04  47.98±1.46  30.81±3.22  49.25±1.68
    FedBC          56.45±1.05  55.64±1.45  58.02±2.10  60.92±2.43  64.20±2.13
C=3 FedAvg         64.19±2.06  53.83±3.38  57.54±1.17  60.96±0.95  58.91±2.76
    q-FedAvg       62.76±1.53  61.37±2.06  61.80±1.73  63.40±2.16  64.01±1.96
    FedProx        64.40±1.80  54.81±2.16  57.28±1.90  61.66±0.42  59.85±2.81
    Scaffold       61.46±1.86  54.04±6.99  38.38±2.80  30.75±5.68  33.04±9.85
    Per-FedAvg     61.83±1.74  52.24±1.84  58.16±0.61  60.36±1.96  59.27±2.46
    pFedMe         53.52±1.59  42.92±1.64  52.50±1.79  54.39±1.91  53.26±1.24
    FedBC          63.43±2.55  62.90±2.26  64.87±1.44  66.23±0.65  66.80±1.07
"""

# ---- Table 3 (CIFAR-10, local accuracy, E = 5) ---------------------------------------------------------------------
_TABLE_3 = """
C=1 Per-FedAvg     99.92±0.15  85.58±0.66  94.99±0.37  91.10±1.90  85.09±1.42
    pFedMe         86.28±0.59  72.05±0.35  81.21±0.27  82.46±0.65  76.94±0.82
    FedBC          91.96±0.70  77.52±0.60  84.87±1.01  86.15±0.43  81.31±0.22
    FedBC-FineTune 97.36±0.22  84.54±0.17  91.89±0.44  87.18±0.21  82.01±0.17
    Per-FedBC      99.39±1.09  85.42±0.75  93.79±1.57  91.15±2.10  85.18±1.08
C=2 Per-FedAvg     93.45±0.28  86.29±0.93  87.38±1.19  62.01±5.60  86.28±1.32
    pFedMe         73.16±0.45  68.01±0.55  69.76±0.68  49.97±0.58  60.16±1.50
    FedBC          78.04±0.57  73.24±0.47  74.95±0.36  53.83±0.56  71.22±1.21
    FedBC-FineTune 89.27±0.29  77.64±0.28  79.69±0.11  56.83±0.34  80.63±0.51
    Per-FedBC      93.09±0.41  86.55±1.76  88.47±2.11  70.20±4.60  87.47±1.12
C=3 Per-FedAvg     85.79±0.87  75.69±2.30  89.14±0.71  90.98±3.37  81.63±3.32
    pFedMe         57.93±1.05  47.84±1.17  70.16±0.60  68.76±0.91  59.71±0.50
    FedBC          60.31±0.74  52.77±1.34  73.09±0.85  74.56±0.90  65.05±1.00
    FedBC-FineTune 74.42±0.29  67.46±0.59  90.08±0.42  88.84±0.82  72.60±0.34
    Per-FedBC      85.61±1.18  80.96±2.50  91.22±0.95  91.85±1.54  83.40±1.41
"""

# ---- Table 4 (class partitions: {k×c, ...} = k devices with c classes each) ----------------------------------------
_TABLE_4 = """
C=1 MNIST     {2×3,5×2,13×1}      {1×4,1×3,4×2,14×1}  {1×4,1×3,4×2,14×1}  {1×6,1×3,2×2,16×1}  {1×6,1×3,2×2,16×1}
    CIFAR-10  {2×3,5×2,13×1}      {1×6,1×3,4×2,14×1}  {1×5,1×3,2×2,16×1}  {1×6,1×3,2×2,16×1}  {1×6,1×3,2×2,16×1}
C=2 MNIST     {1×5,1×4,3×3,15×2}  {1×6,1×4,1×3,17×2}  {1×6,1×4,1×3,17×2}  {1×6,1×4,1×3,17×2}  {1×6,1×4,1×3,17×2}
    CIFAR-10  {1×5,1×4,3×3,15×2}  {1×5,2×4,17×2}      {1×6,1×4,1×3,17×2}  {1×6,1×4,1×3,17×2}  {1×6,1×4,1×3,17×2}
C=3 MNIST     {1×7,2×4,17×3}      {1×7,2×4,17×3}      {1×8,2×4,17×3}      {1×8,2×4,17×3}      {1×8,2×4,17×3}
    CIFAR-10  {2×5,1×4,17×3}      {1×7,2×4,17×3}      {1×8,2×4,17×3}      {1×8,2×4,17×3}      {1×9,1×4,18×3}
"""
DEVICES_4 = 20
"""Table 4's caption: "Total number of devices is 20"."""

# ---- Table 5 (data-size ranges [min max] per device) ---------------------------------------------------------------
_TABLE_5 = """
    MNIST     [1222 7486]  [374 12057]  [110 16444]  [32 21197]  [10 23410]
    CIFAR-10  [1047 6433]  [320 10398]  [94 14032]   [28 17814]  [9 20067]
"""

# ---- Table 6 (CIFAR-10, global accuracy, E = 1) --------------------------------------------------------------------
_TABLE_6 = """
C=1 FedAvg         45.13±1.34  47.40±1.57  54.56±1.72  54.60±2.45  58.88±1.34
    q-FedAvg       45.66±1.83  46.75±2.05  54.27±2.29  54.49±2.12  59.25±1.75
    FedProx        45.05±1.38  48.37±2.03  54.94±1.11  54.82±0.62  58.88±1.28
    Scaffold       34.94±1.14  34.57±1.72  28.82±8.60  24.18±6.22  25.21±6.85
    FedBC          45.63±1.37  49.13±1.66  58.21±1.51  55.43±1.60  58.21±1.61
C=2 FedAvg         51.82±1.02  53.86±2.16  54.07±4.55  38.45±3.07  56.55±3.83
    q-FedAvg       52.14±0.47  54.55±1.46  53.67±4.52  54.45±6.46  56.41±2.53
    FedProx        51.78±0.78  53.48±1.56  53.93±3.15  37.01±1.77  58.22±3.09
    Scaffold       47.98±0.51  43.98±1.50  32.38±2.29  37.70±7.28  23.54±8.44
    FedBC          51.83±1.32  52.59±1.60  56.11±1.52  50.41±5.80  56.55±2.81
C=3 FedAvg         57.31±1.10  49.42±4.00  53.19±1.36  55.53±1.39  54.84±1.37
    q-FedAvg       59.22±0.70  55.26±3.87  55.39±3.20  56.88±2.12  58.51±3.68
    FedProx        58.17±1.55  49.37±3.59  52.78±1.82  56.36±1.19  56.57±0.83
    Scaffold       55.18±1.47  49.86±1.96  33.71±2.14  34.74±2.68  35.53±3.78
    FedBC          58.32±2.23  56.37±2.90  58.97±1.32  61.09±0.95  61.17±0.86
"""

# ---- Table 7 (MNIST, global accuracy, E = 1) -----------------------------------------------------------------------
_TABLE_7 = """
C=1 FedAvg         93.71±0.25  93.05±0.26  90.75±0.64  94.38±0.18  94.36±0.37
    q-FedAvg       94.15±0.11  93.25±0.40  92.36±0.95  94.59±0.15  94.23±0.50
    FedProx        93.88±0.31  93.79±0.45  91.69±0.51  94.39±0.15  94.39±0.39
    Scaffold       94.14±0.14  92.79±0.11  93.62±0.25  94.65±0.35  94.49±0.21
    FedBC          94.11±0.28  94.75±0.37  93.86±0.41  94.79±0.41  95.04±0.30
C=2 FedAvg         95.97±0.15  95.33±0.39  95.39±0.27  95.50±0.29  95.39±0.34
    q-FedAvg       95.87±0.14  95.63±0.27  95.71±0.30  95.53±0.32  95.81±0.46
    FedProx        95.85±0.18  95.39±0.33  95.38±0.34  95.46±0.28  95.38±0.37
    Scaffold       95.93±0.16  96.31±0.09  94.70±0.18  94.73±0.11  94.59±0.18
    FedBC          96.06±0.16  95.03±0.31  95.62±0.28  95.69±0.27  95.79±0.28
C=3 FedAvg         96.69±0.24  96.12±0.42  95.78±0.14  96.51±0.06  96.23±0.19
    q-FedAvg       96.65±0.10  96.54±0.22  96.11±0.26  96.56±0.19  96.43±0.18
    FedProx        96.75±0.12  95.86±0.38  95.77±0.17  96.53±0.07  96.20±0.17
    Scaffold       97.04±0.09  96.99±0.21  94.40±0.11  94.58±0.07  94.09±0.17
    FedBC          96.83±0.13  96.88±0.13  96.46±0.26  96.72±0.16  96.40±0.13
"""

# ---- Table 8 (MNIST, global accuracy, E = 5) -----------------------------------------------------------------------
_TABLE_8 = """
C=1 FedAvg         93.36±0.33  93.26±0.30  90.52±0.96  94.37±0.31  94.34±0.41
    q-FedAvg       93.13±0.42  93.20±0.29  92.10±1.56  94.64±0.19  94.30±0.49
    FedProx        93.24±0.55  92.09±0.76  90.52±0.97  94.39±0.36  94.45±0.57
    Scaffold       94.92±0.12  93.88±0.34  90.43±2.66  77.00±3.95  76.19±4.34
    FedBC          93.82±0.41  94.01±0.33  93.18±0.54  94.98±0.30  95.33±0.27
C=2 FedAvg         95.62±0.19  95.59±0.37  95.66±0.27  95.73±0.42  95.62±0.45
    q-FedAvg       95.65±0.11  95.78±0.20  96.05±0.26  95.86±0.41  96.20±0.36
    FedProx        95.97±0.19  95.60±0.39  95.76±0.29  95.74±0.47  95.56±0.55
    Scaffold       96.68±0.05  96.40±0.13  93.93±0.99  91.94±1.66  76.46±5.20
    FedBC          96.15±0.17  95.80±0.29  95.91±0.42  96.03±0.30  96.02±0.32
C=3 FedAvg         97.29±0.23  96.68±0.32  96.21±0.17  96.80±0.12  96.50±0.15
    q-FedAvg       97.43±0.05  97.02±0.22  96.69±0.26  96.92±0.10  96.58±0.23
    FedProx        97.14±0.16  96.69±0.30  96.21±0.12  96.86±0.08  96.50±0.11
    Scaffold       97.75±0.06  97.08±0.22  95.84±0.27  93.51±0.51  89.44±1.96
    FedBC          97.23±0.13  97.11±0.14  96.80±0.12  97.10±0.19  96.87±0.24
"""

# ---- Table 9 (Shakespeare, 138 devices; each printed cell stacks accuracy over variance) ---------------------------
METHODS_9 = ("FedAvg", "q-FedAvg", "FedProx", "Scaffold", "FedBC")
"""Table 9's columns (printed "q-Fedavg" for q-FedAvg)."""
_TABLE_9 = """
1 acc  52.10±0.20  51.95±0.30   52.07±0.16   32.13±4.13  51.97±0.34
1 var  79.75±8.91  84.43±15.20  85.19±6.95   60.93±4.78  79.45±7.02
5 acc  49.21±0.20  50.44±0.20   50.58±0.25   32.50±3.64  50.69±0.29
5 var  91.10±4.22  81.05±10.46  81.60±10.13  56.54±8.65  85.44±13.01
"""


def _cell(text: str) -> Cell:
    mean, std = text.split("±")
    return Cell(Decimal(mean), Decimal(std))


def _partition(text: str) -> tuple[tuple[int, int], ...]:
    """``"{1×5,2×4,17×2}"`` -> ``((1, 5), (2, 4), (17, 2))``: (devices, classes per device)."""
    return tuple(tuple(int(n) for n in part.split("×")) for part in text.strip("{}").split(","))


def _blocks(text: str, parse) -> dict[int, dict[str, dict[str, object]]]:
    """A table printed in blocks by C, rows by name, columns by exponent: C -> name -> exponent -> parsed cell."""
    table: dict[int, dict[str, dict[str, object]]] = {}
    for line in text.strip().splitlines():
        words = line.split()
        if words[0].startswith("C="):
            block = table.setdefault(int(words.pop(0)[2:]), {})
        name, *cells = words
        if len(cells) != len(EXPONENTS):
            raise ValueError(f"{name}: {len(cells)} cells typed, {len(EXPONENTS)} printed")
        block[name] = dict(zip(EXPONENTS, map(parse, cells), strict=True))
    if tuple(table) != CLASSES:
        raise ValueError("blocks typed out of the printed order C = 1, 2, 3")
    return table


def _rows(text: str, columns: tuple, parse) -> dict[str, dict[object, object]]:
    """A table printed as rows by name: name -> column -> parsed cell."""
    rows = {}
    for line in text.strip().splitlines():
        name, *cells = line.split()
        rows[name] = dict(zip(columns, map(parse, cells), strict=True))
    return rows


TABLE_1: dict[str, dict[int, Cell]] = _rows(_TABLE_1, EPOCHS, _cell)
"""Table 1: method -> E -> :class:`Cell` (global test accuracy, Synthetic(0.5, 0.5), 30 devices)."""
TABLE_2: dict[int, dict[str, dict[str, Cell]]] = _blocks(_TABLE_2, _cell)
"""Table 2: C -> method -> exponent -> :class:`Cell` (CIFAR-10 global accuracy, E = 5)."""
TABLE_3: dict[int, dict[str, dict[str, Cell]]] = _blocks(_TABLE_3, _cell)
"""Table 3: C -> method -> exponent -> :class:`Cell` (CIFAR-10 local accuracy, E = 5)."""
TABLE_4: dict[int, dict[str, dict[str, tuple[tuple[int, int], ...]]]] = _blocks(_TABLE_4, _partition)
"""Table 4: C -> dataset -> exponent -> partition ``((devices, classes), ...)``."""
TABLE_5: dict[str, dict[str, tuple[int, int]]] = {
    name: dict(zip(EXPONENTS, ((int(lo), int(hi)) for lo, hi in zip(cells[::2], cells[1::2])), strict=True))
    for name, *cells in (line.replace("[", " ").replace("]", " ").split() for line in _TABLE_5.strip().splitlines())
}
"""Table 5: dataset -> exponent -> (smallest, largest) number of samples on a device."""
TABLE_6: dict[int, dict[str, dict[str, Cell]]] = _blocks(_TABLE_6, _cell)
"""Table 6: C -> method -> exponent -> :class:`Cell` (CIFAR-10 global accuracy, E = 1)."""
TABLE_7: dict[int, dict[str, dict[str, Cell]]] = _blocks(_TABLE_7, _cell)
"""Table 7: C -> method -> exponent -> :class:`Cell` (MNIST global accuracy, E = 1)."""
TABLE_8: dict[int, dict[str, dict[str, Cell]]] = _blocks(_TABLE_8, _cell)
"""Table 8: C -> method -> exponent -> :class:`Cell` (MNIST global accuracy, E = 5)."""
TABLE_9: dict[tuple[int, str], dict[str, Cell]] = {
    (int(e), row): dict(zip(METHODS_9, map(_cell, cells), strict=True))
    for e, row, *cells in (line.split() for line in _TABLE_9.strip().splitlines())
}
"""Table 9: (E, "acc" or "var") -> method -> :class:`Cell`."""


def exact(value: Decimal | str | int) -> Fraction:
    """A printed number as an exact rational (``Decimal("87.83")`` -> 8783/100)."""
    return Fraction(Decimal(value) if isinstance(value, str) else value)


def half_unit(printed: str) -> Fraction:
    """Half a unit in the last printed digit of ``printed``: the rounding a printed value carries ("7.89" -> 1/200,
    "3" -> 1/2)."""
    return Fraction(1, 2) * Fraction(10) ** Decimal(printed).as_tuple().exponent


def in_std(cell: Cell, other: Cell) -> Fraction:
    """``cell.mean - other.mean`` in units of the larger of the two printed stds."""
    return (exact(cell.mean) - exact(other.mean)) / max(exact(cell.std), exact(other.std))
