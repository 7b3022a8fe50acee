"""The click handlers' verb tables match the custom_id formats, and the hand registry forgets expired hands."""

from __future__ import annotations

from typing import Any

from cogs.uno import ids
from cogs.uno.clicks import DECISION_ACTIONS, HAND_ACTIONS, HAND_JUMP, HAND_VIEWS, LOBBY_ACTIONS, Clicks
from cogs.uno.hands import HandRegistry


def test_every_verb_of_every_custom_id_has_one_handler() -> None:
    assert set(LOBBY_ACTIONS) | {"rules"} == set(ids.LOBBY_VERBS)  # rules: the host's panel (cogs.uno.panel)
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
    token: Any = object()
    registry.remember(1, 2, token, "abcd0123", "en")
    hand = registry.get(1, 2)
    assert hand is not None and hand.interaction is token and hand.fingerprint == "abcd0123" and hand.lang == "en"
    now[0] += 60.0
    assert registry.get(1, 2) is not None
    now[0] += 0.5
    assert registry.get(1, 2) is None and len(registry) == 0
