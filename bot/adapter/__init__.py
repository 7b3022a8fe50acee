"""The async engine adapter: one session per channel between Discord and the pure rules engine (DESIGN "Adapter").

:class:`~bot.adapter.manager.SessionManager` owns the live sessions, serialises every change under a per-session lock,
commits each change to the store before answering, runs the turn timers and the AI seats, resumes games after a
restart and fans events out to subscribers.
"""

from .clock import Clock, ManualClock, SystemClock
from .fanout import CloseReason, Update, UpdateKind
from .manager import SessionManager
from .refusals import AdapterError
from .session import MatchOutcome, Seat, Session, Status
from .session_view import SeatView, SessionView
from .ui import TableUi

__all__ = [
    "AdapterError",
    "Clock",
    "CloseReason",
    "ManualClock",
    "MatchOutcome",
    "Seat",
    "SeatView",
    "Session",
    "SessionManager",
    "SessionView",
    "Status",
    "SystemClock",
    "TableUi",
    "Update",
    "UpdateKind",
]
