"""Claims of the seed papers, one module per paper (or thesis chapter).

Importing this package imports every module in it, which registers their claims; fedtheory finds
the package through the ``fedtheory.claims`` entry point. A paper package that fails to import is skipped
with one line (``fedtheory.harness.claims.LOAD_ERRORS``) and the other papers still load.
"""

from fedtheory.harness.claims import load_claim_modules

load_claim_modules(__name__, __path__)
