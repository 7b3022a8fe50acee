"""Numbered schema migrations, ``NNNN_name.sql``, applied in order by :mod:`bot.storage._migrations`.

Never edit a released file: add the next number. Each file runs in one transaction together with its record in
``schema_migrations``. This is a package so that the ``.sql`` files ship as package data.
"""
