"""A claim plugin that fails to import (for the plugin-isolation test)."""

import a_module_that_does_not_exist  # noqa: F401
