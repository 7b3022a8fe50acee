"""Numbered PostgreSQL schema migrations, ``NNNN_name.sql``, applied in order by :mod:`bot.storage._postgres`.

Version N here means the same schema as ``bot/storage/migrations/NNNN`` for SQLite (same tables, columns and rules,
in PostgreSQL's types). Never edit a released file: add the next number, to both folders. Each file runs in one
transaction together with its record in ``schema_migrations``. A package so that the ``.sql`` files ship as data.
"""
