"""The click handlers' verb tables match the custom_id formats, and the hand registry forgets expired hands."""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any, cast

import discord

from cogs.uno.input.clicks import DECISION_ACTIONS, HAND_ACTIONS, HAND_JUMP, HAND_VIEWS, LOBBY_ACTIONS, Clicks
from cogs.uno.output.hands import HandRegistry
from cogs.uno.screens import ids


def test_every_verb_of_every_custom_id_has_one_handler() -> None:
    # rules: the host's panel (cogs.uno.input.panel);
    # partners: Clicks.change_partners, which checks the lobby's fingerprint
    assert set(LOBBY_ACTIONS) | {"rules", "partners"} == set(ids.LOBBY_VERBS)
    assert set(DECISION_ACTIONS) == set(ids.DECISION_VERBS)
    hand_verbs = set(ids.HAND_VERBS) | set(ids.HAND_SELECT_VERBS)
    assert set(HAND_ACTIONS) | set(HAND_VIEWS) | {HAND_JUMP} == hand_verbs
    assert not set(HAND_ACTIONS) & set(HAND_VIEWS) and HAND_JUMP not in set(HAND_ACTIONS) | set(HAND_VIEWS)
    clicks: Any = Clicks.__new__(Clicks)
    Clicks.__init__(clicks, bot=None, images=None, hands=None)  # type: ignore[arg-type]
    assert set(clicks.table_actions) == set(ids.TABLE_VERBS)


def test_the_hand_registry_forgets_a_hand_whose_token_is_too_old() -> None:
    now = [100.0]
    registry = HandRegistry(window=60.0, now=lambda: now[0])
    token: Any = SimpleNamespace(created_at=discord.utils.utcnow())
    registry.remember(1, 2, token, "abcd0123", "en")
    hand = registry.get(1, 2)
    assert hand is not None and hand.interaction is token and hand.fingerprint == "abcd0123" and hand.lang == "en"
    now[0] += 59.5  # the token's age counts from the interaction's creation, a moment before it was remembered
    assert registry.get(1, 2) is not None
    now[0] += 1.0
    assert registry.get(1, 2) is None and len(registry) == 0


def test_issue_20_5_a_hand_too_old_or_refused_is_dropped_and_its_player_must_reopen_it() -> None:
    now = [1000.0]
    registry = HandRegistry(window=840.0, now=lambda: now[0])
    fresh: Any = SimpleNamespace(created_at=discord.utils.utcnow())
    registry.remember(1, 2, fresh, "fp", "en")
    registry.remember(1, 3, fresh, "fp", "en")
    assert not registry.needs_reopen(1, 2) and not registry.needs_reopen(1, 4)  # 4 never opened one
    now[0] += 840.5  # older than the window: dropped before Discord's 15 minutes
    assert registry.needs_reopen(1, 2) and registry.get(1, 2) is None and registry.get(1, 3) is None
    registry.remember(1, 2, fresh, "fp", "en")  # the player opened their hand again
    assert not registry.needs_reopen(1, 2) and registry.get(1, 2) is not None
    registry.drop(1, 2)  # Discord refused an edit through it
    assert registry.needs_reopen(1, 2) and registry.get(1, 2) is None
    registry.forget(1, 2)  # the game is over: nothing to reopen
    registry.forget(1, 3)
    assert not registry.needs_reopen(1, 2) and not registry.needs_reopen(1, 3)


def test_issue_20_5_a_hand_token_ages_from_the_interactions_creation() -> None:
    now = [1000.0]
    registry = HandRegistry(window=840.0, now=lambda: now[0])
    created = discord.utils.utcnow() - datetime.timedelta(seconds=600)  # answered late (e.g. a slow restart)
    registry.remember(1, 2, cast(Any, SimpleNamespace(created_at=created)), "fp", "en")
    now[0] += 241.0  # 841 s after the interaction was created
    assert registry.get(1, 2) is None and registry.needs_reopen(1, 2)
