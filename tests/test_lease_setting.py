"""``UNO_LEASE_SECONDS`` (README "Configuration"): how long a process's lease of each live game lasts (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.limits import LEASE_SECONDS_DEFAULT, LEASE_SECONDS_MAX, LEASE_SECONDS_MIN, PROCESS_SLOT_MAX


def test_the_lease_time_defaults_to_30_s_and_takes_whole_seconds_in_its_bounds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.delenv("UNO_LEASE_SECONDS", raising=False)
    assert Settings.from_env(tmp_path / "missing.env").lease_seconds == LEASE_SECONDS_DEFAULT == 30
    for value in (LEASE_SECONDS_MIN, 12, LEASE_SECONDS_MAX):
        monkeypatch.setenv("UNO_LEASE_SECONDS", f" {value} ")
        assert Settings.from_env(tmp_path / "missing.env").lease_seconds == value


@pytest.mark.parametrize("value", ["1", "0", "-5", "3601", "2.5", "ten", "٣٠"])
def test_a_bad_lease_time_is_refused_with_one_line_naming_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("UNO_LEASE_SECONDS", value)
    with pytest.raises(ConfigError, match="UNO_LEASE_SECONDS") as refused:
        Settings.from_env(tmp_path / "missing.env")
    assert "\n" not in str(refused.value) and f"{LEASE_SECONDS_MIN}-{LEASE_SECONDS_MAX}" in str(refused.value)


def test_point8_the_process_slot_is_optional_and_names_one_place_of_the_deployment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 16 point 8: ``UNO_PROCESS_SLOT`` (default: none, today's behaviour)."""
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.delenv("UNO_PROCESS_SLOT", raising=False)
    assert Settings.from_env(tmp_path / "missing.env").process_slot is None
    monkeypatch.setenv("UNO_PROCESS_SLOT", " shard-0 ")
    assert Settings.from_env(tmp_path / "missing.env").process_slot == "shard-0"
    for bad in ("shard 0", "a:b", "x" * (PROCESS_SLOT_MAX + 1), "é"):
        monkeypatch.setenv("UNO_PROCESS_SLOT", bad)
        with pytest.raises(ConfigError, match="UNO_PROCESS_SLOT") as refused:
            Settings.from_env(tmp_path / "missing.env")
        assert "\n" not in str(refused.value)
