"""The shared SQL of the store (issue 17 point 5, bot/storage/_dialect.py): written once with PostgreSQL-style
numbered parameters, read by SQLite as its own ``?N``; the few fragments that differ are filled per dialect."""

from __future__ import annotations

import pytest

from bot.storage._dialect import Now, numbered_to_sqlite


def test_numbered_parameters_and_their_casts_become_sqlites_numbered_parameters():
    sql = "SELECT ($2::text IS NULL OR x = $2::text) AND y <> $3::bigint AND z = ANY($12::int[]) AND w = $1"
    assert numbered_to_sqlite(sql) == "SELECT (?2 IS NULL OR x = ?2) AND y <> ?3 AND z = ANY(?12) AND w = ?1"


def test_a_cast_sqlite_cannot_read_is_refused_when_the_statement_is_first_made():
    with pytest.raises(ValueError, match="CAST"):
        numbered_to_sqlite("SELECT count(*)::float8 FROM t")
    assert numbered_to_sqlite("SELECT CAST(count(*) AS DOUBLE PRECISION) FROM t") == (
        "SELECT CAST(count(*) AS DOUBLE PRECISION) FROM t"
    )


def test_the_database_clock_takes_the_parameter_it_is_given():
    assert f"{Now('uno_now()'):4}" == "coalesce($4::float8, uno_now())"
    assert numbered_to_sqlite("expires_at > {now:4}".format_map({"now": Now("uno_now()")})) == (
        "expires_at > coalesce(?4, uno_now())"
    )


@pytest.mark.parametrize("module", ["_sqlite", "_postgres"])
def test_every_shared_statement_of_the_store_reads_in_both_dialects(module: str):
    """Each statement constant of bot/storage/_store.py goes through each dialect's translation (a fragment missing
    from a dialect, or a cast SQLite cannot read, fails here rather than at the first call)."""
    import importlib

    if module == "_postgres":
        pytest.importorskip("asyncpg")
    from bot.storage import _store

    dialect = importlib.import_module(f"bot.storage.{module}")
    statements = [v for k, v in vars(_store).items() if k.startswith("_") and k.isupper() and isinstance(v, str)]
    statements += [_store._save_games(1), _store._save_games(3)]
    assert len(statements) >= 8
    for sql in statements:
        out = dialect._sql(sql)
        assert "{" not in out and "}" not in out
        if module == "_sqlite":
            assert "$" not in out
