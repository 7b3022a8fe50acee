"""Errors the adapter raises for requests that cannot be carried out. Each is a ``ValueError`` with a stable ``code``
(the bot shows ``error.<code>`` from its message catalogue); nothing was changed when one is raised."""

from __future__ import annotations


class AdapterError(ValueError):
    """Base class. ``code`` names the problem for the message catalogue."""

    code = "adapter"

    def __init__(self, message: str = "", **details: object) -> None:
        super().__init__(message or self.code)
        self.details = details


class NoGame(AdapterError):
    """No game in this channel."""

    code = "no_game"


class GameExists(AdapterError):
    """A lobby or game is already running in this channel."""

    code = "game_exists"


class NotHost(AdapterError):
    """Only the host (or a server manager) may do this."""

    code = "not_host"


class NotSeated(AdapterError):
    """The user is not playing in this game."""

    code = "not_in_game"


class AlreadySeated(AdapterError):
    """The user already has a seat."""

    code = "already_joined"


class LobbyFull(AdapterError):
    """Every seat is taken (SPEC G1)."""

    code = "lobby_full"


class NeedPlayers(AdapterError):
    """Not enough players to start (SPEC G1)."""

    code = "need_players"


class TeamPlayers(AdapterError):
    """A partner game needs 4, 6 or 8 players (SPEC T1)."""

    code = "team_players"


class NotStarted(AdapterError):
    """The game has not started yet."""

    code = "not_started"


class AlreadyStarted(AdapterError):
    """The game has already started."""

    code = "already_started"


class GameFinished(AdapterError):
    """The match is over."""

    code = "finished"


class Stale(AdapterError):
    """The request was made on an out-of-date message: the game has moved on since."""

    code = "stale"


class BadRequest(AdapterError):
    """A malformed request (unknown option, out-of-range value)."""

    code = "bad_request"


class TeamsElimination(BadRequest):
    """Partners and house rule elimination together (SPEC T6): refused with its own reason."""

    code = "teams_elimination"


class NoSuchSeat(AdapterError):
    """No player sits in the seat a request names (``seat``: its number as shown, from 1)."""

    code = "no_such_seat"


class NotOwned(AdapterError):
    """Another bot process runs this game right now (issue 11: it holds the game's lease, or this process lost it and
    has not got it back yet); nothing changed."""

    code = "not_owned"


class NotMatchPlayer(AdapterError):
    """**Play again** pressed by someone who did not play the finished match and may not manage the server: a rematch
    seats that match's players again, so nobody else may start one for them (issue 20, point 8)."""

    code = "rematch_not_player"


class MatchForgotten(AdapterError):
    """**Play again** under a match this channel no longer keeps (forgotten a while after its end): a rematch could
    not bring back its game, options and seats, so none is opened (issue 18 point 5)."""

    code = "rematch_forgotten"


class StorageDown(AdapterError):
    """The database could not be reached: the change was not saved, the game is as it was at its last commit."""

    code = "storage_unavailable"
