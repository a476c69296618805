"""The parameter count of the CNN of section 4 (the MNIST experiment).

Printed: "two convolutional layers, each with 32 feature maps and a kernel size of 3x3, followed by a 2x2 max
pooling layer. The network is then connected to three fully connected layers with 64, 32, and 10 units ... The total
number of parameters is d = 112,394"; input 28 x 28 grayscale images. Not printed: the padding of the convolutions,
whether one pooling layer follows both convolutions or one follows each, whether the layers carry biases, and how
the pooling rounds an odd size. Every combination is counted exactly (integers).
"""

from __future__ import annotations

from itertools import product

import numpy as np

from fedtheory.harness.claims import Context, Evidence, claim, negative_control

PAPER = "zhang-composite"
PRINTED_D = 112_394
INPUT, CHANNELS, KERNEL, FEATURES, DENSE = 28, 1, 3, 32, (64, 32, 10)


def parameter_count(padding: str, pool_after: str, bias: bool, pool_rounding: str) -> int:
    """Trainable parameters of conv(32, 3x3) -> conv(32, 3x3) -> dense 64 -> 32 -> 10 on 28 x 28 x 1 inputs, with a
    2 x 2 max pool (stride 2) after each convolution (``pool_after = "each"``) or once after both (``"both"``).

    ``padding``: ``"same"`` keeps the size, ``"valid"`` shrinks it by ``kernel - 1``; ``pool_rounding``: ``"floor"``
    (the usual default) or ``"ceil"`` for an odd size; ``bias``: every layer carries biases (one per unit or map)."""
    size, channels, count = INPUT, CHANNELS, 0
    for layer in range(2):
        count += KERNEL * KERNEL * channels * FEATURES + (FEATURES if bias else 0)
        channels = FEATURES
        size = size if padding == "same" else size - KERNEL + 1
        if pool_after == "each" or layer == 1:
            size = size // 2 if pool_rounding == "floor" else -(-size // 2)
    width = size * size * channels
    for units in DENSE:
        count += width * units + (units if bias else 0)
        width = units
    return count


ARCHITECTURES = [
    {"padding": p, "pool_after": a, "bias": b, "pool_rounding": r}
    for p, a, b, r in product(("same", "valid"), ("each", "both"), (True, False), ("floor", "ceil"))
]


@claim(
    f"{PAPER}/sec-4.2:cnn",
    source="Section 4 (MNIST experiment)",
    statement="As printed: the CNN (two 3x3 convolutions with 32 maps, 2x2 max pooling, dense 64, 32, 10, input 28 x "
    "28 x 1) has d = 112,394 parameters. Every architecture the text allows (padding same/valid; one pool after each "
    "convolution or one after both; with or without biases; floor or ceil pooling) is counted; the statement holds "
    "if one of them gives 112,394. Measured: the count closest to the printed one.",
    scope="printed",
    expect="holds",
)
def sec_4_2_cnn(ctx: Context) -> Evidence:
    """Instance: the printed architecture under each reading of what the text leaves open (module docstring).
    Reading: "each with 32 feature maps ..., followed by a 2x2 max pooling layer" allows a pool after each
    convolution or one after the pair. Reference: exact integer counts (conv: 9 c_in 32 + 32; dense: in out + out)."""
    counts = [parameter_count(**arch) for arch in ARCHITECTURES]
    best = int(np.argmin([abs(c - PRINTED_D) for c in counts]))
    table = {
        f"padding {a['padding']}, pool after {a['pool_after']}, {'biases' if a['bias'] else 'no biases'}, "
        f"{a['pool_rounding']}": c
        for a, c in zip(ARCHITECTURES, counts)
    }
    matches = [name for name, c in table.items() if c == PRINTED_D]
    ev = Evidence(
        counts[best],
        PRINTED_D,
        "==",
        grid={k: np.array([v]) for k, v in ARCHITECTURES[best].items()},
        witness={"counts": table, "architectures giving 112,394": matches},
    )
    ev.witness["negative control"] = negative_control(
        Evidence(counts[best], PRINTED_D + 1, "=="), "the printed d moved by one"
    )
    return ev
