"""What the Discord layer keeps with a session (:attr:`bot.adapter.session.Session.ui`, issue 17 point 3): the
table's language and the ids of the messages it posted, one typed and frozen record saved with the session snapshot
(session format v6; older free-form dicts are read by the upgrade step ``_v5_to_v6`` of
:mod:`bot.adapter.session`).

The adapter only stores it (and reads :attr:`TableUi.lang` to open a rematch in the same language); the Discord layer
changes it through :meth:`bot.adapter.manager.SessionManager.update_ui` and reads it from the committed
:class:`~bot.adapter.session_view.SessionView`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def _id(value: Any) -> int | None:
    return None if value is None else int(value)


@dataclass(frozen=True, slots=True)
class TableUi:
    """The Discord-layer data of one session, as committed.

    - ``lang``: the language of the table's public messages (lobby, table, summaries, moves log), fixed when the lobby
      opens (DESIGN "Where a text is translated").
    - ``message``: the id of the public message (the lobby, then the table); None until it is posted.
    - ``ping``: the id of the turn ping standing in the channel (None: none).
    - ``summary``: the last summary posted, ``"round:<n>"`` or ``"match:0"``
      (``cogs.uno.output.publisher.summary_key``), so that a restart posts the one it may have missed and no other.
    - ``round_summary``: the id of the round summary standing in the channel (one a match: the newest).
    - ``link_channel``, ``link_message``, ``link_host``: for a game played in a thread of its own, the parent
      channel's line that links it (its channel and message ids) and the host's name it shows.
    """

    lang: str = "en"
    message: int | None = None
    ping: int | None = None
    summary: str | None = None
    round_summary: int | None = None
    link_channel: int | None = None
    link_message: int | None = None
    link_host: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The snapshot form: every field by its name (ids as ints or None)."""
        return {
            "lang": self.lang,
            "message": self.message,
            "ping": self.ping,
            "summary": self.summary,
            "round_summary": self.round_summary,
            "link_channel": self.link_channel,
            "link_message": self.link_message,
            "link_host": self.link_host,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableUi:
        """Read the snapshot form of the current session version. Raises ``KeyError`` for a missing field and
        ``TypeError`` / ``ValueError`` for a malformed one."""
        summary = d["summary"]
        return cls(
            lang=str(d["lang"]),
            message=_id(d["message"]),
            ping=_id(d["ping"]),
            summary=None if summary is None else str(summary),
            round_summary=_id(d["round_summary"]),
            link_channel=_id(d["link_channel"]),
            link_message=_id(d["link_message"]),
            link_host=str(d["link_host"]),
        )


__all__ = ["TableUi"]
