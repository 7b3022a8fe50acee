"""Every test here is seeded (:mod:`tests.e2e.seeding`); a failure's report names its seed."""

from tests.e2e.seeding import pytest_runtest_makereport, uno_seed

__all__ = ["pytest_runtest_makereport", "uno_seed"]
