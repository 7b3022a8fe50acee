"""Every test here is seeded (:mod:`tests.e2e.seeding`); a failure's report names its seed. And every test's
``emulator.settle()`` waits for the adapter's tasks too (:func:`tests.e2e.uno_driver.settle_waits_for_the_adapter`).
"""

from __future__ import annotations

import pytest

from tests.e2e.seeding import pytest_runtest_makereport, uno_seed
from tests.e2e.uno_driver import settle_waits_for_the_adapter


@pytest.fixture(autouse=True)
def _settle_waits_for_the_adapter(request: pytest.FixtureRequest) -> None:
    if "emulator" in request.fixturenames:
        settle_waits_for_the_adapter(request.getfixturevalue("emulator"))


__all__ = ["pytest_runtest_makereport", "uno_seed"]
