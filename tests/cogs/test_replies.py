"""How texts name the slash commands (issue 17 point 3: the client owns the mentions its sync learnt, instead of a
module global of the Discord layer that the client wrote into)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from bot.adapter.refusals import NoGame
from bot.client import CommandMentions
from cogs.uno.output.replies import error_text


def synced(**ids: int) -> list[Any]:
    return [cast(Any, SimpleNamespace(name=name, id=command_id)) for name, command_id in ids.items()]


def test_a_command_is_plain_text_before_the_sync_and_a_mention_after() -> None:
    mentions = CommandMentions()
    assert mentions.of("uno new") == "/uno new"
    mentions.learn(synced(uno=1234, other=5))
    assert mentions.of("uno new") == "</uno new:1234>" and mentions.of("uno") == "</uno:1234>"
    assert mentions.of("stats me") == "/stats me"  # never synced: plain text


def test_an_error_that_points_to_uno_new_names_it_as_the_bot_synced_it() -> None:
    mentions = CommandMentions()
    before = error_text(NoGame("no game"), "en", mentions)
    mentions.learn(synced(uno=77))
    after = error_text(NoGame("no game"), "en", mentions)
    assert "/uno new" in before and "</uno new:77>" not in before
    assert "</uno new:77>" in after and after.replace("</uno new:77>", "/uno new") == before
    assert "</uno new:77>" in error_text(NoGame("no game"), "it", mentions)  # the same mention in every language


def test_nothing_in_bot_imports_the_discord_layer_above_it() -> None:
    """DESIGN "Layers": ``bot/client.py`` starts the cog by its name (``load_extension("cogs.uno")``) and imports
    nothing from ``cogs/`` (it imported the command tree and the command mentions from
    ``cogs/uno/output/replies.py``)."""
    from tests import importgraph as ig

    up = [i for i in ig.imports_of("bot") if i.within("cogs")]
    assert not up, ig.show(up)
