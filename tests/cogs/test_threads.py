"""The pieces of a thread per game (cogs.uno.output.threads) that need no Discord: the thread's name within Discord's
limit, the permissions the bot checks, and the note that tells a host why their game is played in the channel."""

from __future__ import annotations

import discord

from cogs.uno.output.threads import THREAD_NAME_MAX, fallback_note, missing_permissions, thread_name


def test_the_thread_is_named_after_the_game_and_the_host_within_discords_limit() -> None:
    assert thread_name("UNO FLIP", "Alice", "en") == "UNO FLIP · Alice"
    assert thread_name("UNO classico", "Bea", "it") == "UNO classico · Bea"
    long = thread_name("UNO Flex!", "W" * 200, "en")
    assert len(long) == THREAD_NAME_MAX == 100 and long.startswith("UNO Flex! · WWW")


def test_the_bot_needs_to_create_public_threads_and_to_send_messages_in_them() -> None:
    everything = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
    assert missing_permissions(everything) == []
    assert missing_permissions(discord.Permissions(send_messages=True)) == [
        "create_public_threads",
        "send_messages_in_threads",
    ]
    assert missing_permissions(discord.Permissions(create_public_threads=True)) == ["send_messages_in_threads"]


def test_the_note_names_the_missing_permissions_in_the_hosts_language() -> None:
    assert fallback_note(["create_public_threads"], "en") == (
        "Threads are on, but I can't open a thread for this game here (missing permission: Create Public Threads), "
        "so it is played in this channel."
    )
    both = fallback_note(["create_public_threads", "send_messages_in_threads"], "it")
    assert "mancano i permessi: Crea thread pubblici, Invia messaggi nei thread" in both
    assert "si gioca in questo canale" in both
    assert "(missing permissions: Create Public Threads, Send Messages in Threads)" in fallback_note(
        ["create_public_threads", "send_messages_in_threads"], "en"
    )  # two names, the plural
    assert "faltan los permisos:" in fallback_note(["create_public_threads", "send_messages_in_threads"], "es")
    assert "chýbajú povolenia:" in fallback_note(["create_public_threads", "send_messages_in_threads"], "sk")
    assert "(chýba povolenie: Posielať správy vo vláknach)" in fallback_note(["send_messages_in_threads"], "sk")
    assert "no se ha podido abrir un hilo" in fallback_note([], "es")
    assert "vlákno" in fallback_note([], "sk")
