"""Claims of the seed papers, one module per paper (or thesis chapter).

Importing this package imports every module in it, which registers their claims; fedtheory finds
the package through the ``fedtheory.claims`` entry point.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
