"""Named tolerances of the claims' floating-point comparisons, each with the error it covers.

A tolerance belongs to the computation, never to the claim: it absorbs the rounding of float64 arithmetic and
nothing else, so a printed bound is never loosened by it. Exact computations (``fractions.Fraction``, sympy) need
none. Every value below is far above the rounding it covers and far below any effect a printed constant has.
"""

#: Relative tolerance of a value computed in float64 by up to millions of operations on well-scaled data (sums,
#: products, small dense solves and eigendecompositions, closed forms against recursions): the accumulated relative
#: rounding is below 1e-12 on the instances of this project; 1e-9 leaves a margin of a thousand.
ROUNDING = 1e-9

#: Absolute tolerance of a quantity already divided by its own scale (a residual over the norm of its terms),
#: computed by a few thousand float64 operations.
SCALED_ROUNDING = 1e-12

#: Relative tolerance of a short float64 computation (a closed form, a recursion of at most a few hundred
#: operations, a printed formula against the same formula rearranged): relative rounding below 1e-14; 1e-12 leaves a
#: margin of a hundred.
SHORT_ROUNDING = 1e-12
