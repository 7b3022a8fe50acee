"""REST under ``/api/v10``: routing, JSON/multipart bodies, and the handlers that change the emulator's state.

Every JSON answer has ``Content-Type`` exactly ``application/json`` (discord.py reads anything else as text).
Errors use Discord's codes: 10003 Unknown Channel, 10007 Unknown Member, 10008 Unknown Message, 10015 Unknown
Webhook, 10062 Unknown interaction, 40060 already acknowledged, 50013 Missing Permissions, 50024 Cannot execute
action on this channel type, 50027 Invalid Webhook Token, 50035 Invalid Form Body, 50083 Thread is archived.
The bot's permissions are checked where Discord checks them for the routes a UNO bot uses: sending a message
(Send Messages, or Send Messages in Threads in a thread), starting a thread, adding a thread member, deleting.
A path no route matches is answered ``404`` and recorded in ``emu.unknown_routes``.
"""

from __future__ import annotations

import json
import math
import mimetypes
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import model
from .model import (
    EPHEMERAL,
    LOADING,
    Ack,
    Attachment,
    Channel,
    ErrorResponse,
    InteractionRecord,
    Message,
    RateLimited,
    User,
)
from .ratelimits import Verdict as RateLimitVerdict
from .validation import Problems, attachment_refs, check_commands, check_message

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

#: Interaction tokens are valid this long (seconds) for followups and edits.
TOKEN_LIFETIME = 15 * 60
#: Answers Discord counts as invalid requests (10,000 in 10 minutes get an IP banned: ``ratelimits``).
INVALID_STATUSES = frozenset({401, 403, 429})
#: Callback types Discord accepts per interaction type (2 command, 3 component, 4 autocomplete, 5 modal submit).
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, problems: Problems | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.errors = {path: {"_errors": [{"code": "INVALID", "message": text}]} for path, text in problems or []}


def invalid_form(problems: Problems) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", problems)


@dataclass(frozen=True)
class Upload:
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class Request:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any = None
    files: dict[int, Upload] = field(default_factory=dict)


Handler = Callable[[Request], Awaitable[web.Response]]


def json_response(status: int, data: Any = None, headers: dict[str, str] | None = None) -> web.Response:
    if status == 204:
        return web.Response(status=204, headers=headers)
    body = json.dumps(data).encode()
    return web.Response(status=status, body=body, headers={"Content-Type": "application/json", **(headers or {})})


async def read_body(request: web.Request) -> tuple[Any, dict[int, Upload]]:
    """A JSON body, or a multipart one (``payload_json`` + ``files[n]``) as (payload, {n: Upload}).

    Parsed by hand: aiohttp's form parser goes through the ``email`` package for every header and cost the emulator
    half its CPU in the bot benchmark (where it shares two cores with the bot being measured)."""
    if not request.body_exists:
        return None, {}
    content_type = request.headers.get("Content-Type", "")
    body = await request.read()
    if not content_type.startswith("multipart/form-data"):
        return json.loads(body), {}
    match = _BOUNDARY.search(content_type)
    if match is None:
        raise invalid_form([("", "multipart body without a boundary")])
    payload: Any = None
    files: dict[int, Upload] = {}
    for name, filename, part_type, data in multipart_parts(body, match.group(1) or match.group(2)):
        if name == "payload_json":
            payload = json.loads(data)
        elif filename is not None and (m := _FILE_FIELD.fullmatch(name)):
            files[int(m.group(1))] = Upload(filename, data, part_type)
    return payload, files


_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))')
_FILE_FIELD = re.compile(r"files\[(\d+)\]")
_QUOTED_PAIR = re.compile(r"\\(.)")  # aiohttp escapes both " and \ in a quoted filename
_DISPOSITION = re.compile(r'(?:^|;)\s*(name|filename)="((?:[^"\\]|\\.)*)"', re.IGNORECASE)


def multipart_parts(body: bytes, boundary: str) -> list[tuple[str, str | None, str | None, bytes]]:
    """``(name, filename, content type, data)`` of each part of a ``multipart/form-data`` body (RFC 7578).

    Raises :class:`ApiError` (50035) for a part without headers or a name."""
    delimiter = b"--" + boundary.encode()
    parts: list[tuple[str, str | None, str | None, bytes]] = []
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, sep, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not sep:
            raise invalid_form([("", "a multipart part without headers")])
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        disposition = headers.get("content-disposition", "")
        fields = {k.lower(): _QUOTED_PAIR.sub(r"\1", v) for k, v in _DISPOSITION.findall(disposition)}
        if "name" not in fields:
            raise invalid_form([("", "a multipart part without a name")])
        parts.append((fields["name"], fields.get("filename"), headers.get("content-type"), data.removesuffix(b"\r\n")))
    return parts


class RestApi:
    """Routes ``/api/v10/...`` requests to handlers; records requests, unknown routes, errors, injected faults."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        app = "applications/{app_id}"
        hook = "webhooks/{app_id}/{token}"
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", "users/@me", self.get_me, True),
            ("GET", "users/{user_id}", self.get_user, True),
            ("GET", "oauth2/applications/@me", self.get_application, True),
            ("GET", "gateway", self.get_gateway, False),
            ("GET", "gateway/bot", self.get_gateway, True),
            ("GET", f"{app}/commands", self.get_commands, True),
            ("PUT", f"{app}/commands", self.put_commands, True),
            ("GET", f"{app}/guilds/{{guild_id}}/commands", self.get_commands, True),
            ("PUT", f"{app}/guilds/{{guild_id}}/commands", self.put_commands, True),
            ("GET", f"{app}/emojis", self.list_app_emojis, True),
            ("POST", f"{app}/emojis", self.create_app_emoji, True),
            ("GET", f"{app}/emojis/{{emoji_id}}", self.get_app_emoji, True),
            ("PATCH", f"{app}/emojis/{{emoji_id}}", self.edit_app_emoji, True),
            ("DELETE", f"{app}/emojis/{{emoji_id}}", self.delete_app_emoji, True),
            ("POST", "interactions/{interaction_id}/{token}/callback", self.callback, False),
            ("POST", hook, self.followup, False),
            ("GET", f"{hook}/messages/{{message_id}}", self.get_webhook_message, False),
            ("PATCH", f"{hook}/messages/{{message_id}}", self.edit_webhook_message, False),
            ("DELETE", f"{hook}/messages/{{message_id}}", self.delete_webhook_message, False),
            ("GET", "channels/{channel_id}", self.get_channel, True),
            ("GET", "channels/{channel_id}/messages", self.list_messages, True),
            ("POST", "channels/{channel_id}/messages", self.post_message, True),
            ("GET", "channels/{channel_id}/messages/{message_id}", self.get_message, True),
            ("PATCH", "channels/{channel_id}/messages/{message_id}", self.edit_message, True),
            ("DELETE", "channels/{channel_id}/messages/{message_id}", self.delete_message, True),
            ("POST", "channels/{channel_id}/typing", self.typing, True),
            ("POST", "channels/{channel_id}/threads", self.start_thread, True),
            ("PUT", "channels/{channel_id}/thread-members/{user_id}", self.add_thread_member, True),
            ("PATCH", "channels/{channel_id}", self.edit_channel, True),
            ("DELETE", "channels/{channel_id}", self.delete_channel, True),
            ("GET", "guilds/{guild_id}", self.get_guild, True),
            ("GET", "guilds/{guild_id}/channels", self.get_guild_channels, True),
            ("GET", "guilds/{guild_id}/members/{user_id}", self.get_member, True),
        ]
        self.routes = [
            (method, re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$"), handler, auth)
            for method, template, handler, auth in table
        ]

    async def handle(self, request: web.Request) -> web.Response:
        emu = self.emu
        method, path = request.method, request.match_info["path"]
        emu._inflight += 1
        emu._touch()
        status = 500
        try:
            response = await self._route(request, method, path)
            status = response.status
            return response
        finally:
            emu._inflight -= 1
            emu._touch()
            emu.requests.append((emu.now(), method, path, status))
            if status in INVALID_STATUSES:
                emu.invalid_requests.append((emu.now(), method, path, status))

    async def _route(self, request: web.Request, method: str, path: str) -> web.Response:
        emu = self.emu
        found = next(((r, m) for r in self.routes if r[0] == method and (m := r[1].match(path))), None)
        if found is None:
            emu.unknown_routes.append((method, path))
            return json_response(404, {"message": "404: Not Found", "code": 0})
        (_, _, handler, auth), match = found
        fault = emu._take_fault(method, path)
        if fault is not None:
            return fault.response(emu.now(), f"{method} /{path}")
        verdict = emu.rate_limits.take(method, path)
        if verdict is not None and not verdict.allowed:
            return rate_limited(emu, method, path, verdict)
        response = await self._answer(request, method, path, match, handler, auth)
        if verdict is not None:
            response.headers.update(verdict.headers)
        return response

    async def _answer(
        self, request: web.Request, method: str, path: str, match: re.Match[str], handler: Handler, auth: bool
    ) -> web.Response:
        emu = self.emu
        if auth and request.headers.get("Authorization") != f"Bot {emu.token}":
            return json_response(401, {"message": "401: Unauthorized", "code": 0})
        body, files = await read_body(request)
        req = Request(method, path, match.groupdict(), dict(request.query), body, files)
        try:
            return await handler(req)
        except ApiError as e:
            error = ErrorResponse(emu.now(), method, path, e.status, e.code, e.message)
            emu.error_responses.append(error)
            if "token" in req.params and (rec := emu._by_token.get(req.params["token"])):
                rec.errors.append(error)
            data: dict[str, Any] = {"message": e.message, "code": e.code}
            if e.errors:
                data["errors"] = e.errors
            return json_response(e.status, data)

    # ------------------------------------------------------------ lookups

    def _channel(self, req: Request) -> Channel:
        channel = self.emu.channels.get(int(req.params["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, req: Request) -> Message:
        channel = self._channel(req)
        msg = self.emu._messages.get(int(req.params["message_id"]))
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _interaction(self, req: Request) -> InteractionRecord:
        emu = self.emu
        if req.params["app_id"] != str(emu.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        rec = emu._by_token.get(req.params["token"])
        if rec is None or emu.now() - rec.dispatched_at > TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return rec

    def _webhook_message(self, req: Request) -> tuple[InteractionRecord, Message]:
        rec = self._interaction(req)
        wanted = req.params["message_id"]
        message_id = rec.original_id if wanted == "@original" else int(wanted)
        if message_id is None or (message_id != rec.original_id and message_id not in rec.followup_ids):
            raise ApiError(404, 10008, "Unknown Message")
        msg = self.emu._messages[message_id]
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return rec, msg

    # ------------------------------------------------------------ messages

    def _attachments(
        self, body: dict[str, Any], files: dict[int, Upload], existing: list[Attachment]
    ) -> list[Attachment]:
        """Discord's rule: attachments listed by id are kept, listed file indexes are added, the rest dropped.

        Without an ``attachments`` list, existing ones are kept and every uploaded file is added.
        """
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": a.id} for a in existing] + [{"id": i} for i in sorted(files)]
        by_id = {a.id: a for a in existing}
        result = []
        for i, item in enumerate(listed):
            ref = int(item["id"])
            if ref in by_id:
                result.append(by_id[ref])
            elif ref in files:
                upload = files[ref]
                filename = item.get("filename") or upload.filename
                guessed = mimetypes.guess_type(filename)[0]
                result.append(self.emu._new_attachment(filename, upload.data, guessed, item.get("description")))
            else:
                raise invalid_form([(f"attachments.{i}.id", f"Unknown attachment or file index {ref}")])
        return result

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        files: dict[int, Upload],
        *,
        visible_to: int | None = None,
        interaction: InteractionRecord | None = None,
        loading: bool = False,
    ) -> Message:
        problems = (
            [] if loading else check_message(body, creating=True, has_files=bool(files), emojis=self.emu.app_emojis)
        )
        if problems:
            raise invalid_form(problems)
        emu = self.emu
        flags = int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING)
        flags |= (EPHEMERAL if visible_to is not None else 0) | (LOADING if loading else 0)
        msg = Message(
            id=emu.ids(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            flags=flags,
            visible_to=visible_to,
            created_at=emu.now(),
            timestamp=emu.iso_now(),
            reference=body.get("message_reference"),
            allowed_mentions=body.get("allowed_mentions"),
        )
        msg.attachments = self._attachments(body, files, [])
        self._check_refs(msg.flags, body, msg.attachments)
        if msg.reference:
            msg.type = 19
        if interaction is not None:
            msg.type = 20 if interaction.type == 2 else 0
            msg.interaction_id = interaction.id
            msg.webhook_id = emu.application_id
            msg.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(interaction.guild_id)},
            }
        msg.snapshot(msg.created_at)
        emu._add_message(msg)
        return msg

    def edit(self, msg: Message, body: dict[str, Any], files: dict[int, Upload]) -> Message:
        """Apply an edit; a deferred (loading) response being filled does not count as edited."""
        was_v2 = bool(msg.flags & model.COMPONENTS_V2)
        problems = check_message(body, creating=False, has_files=bool(files), emojis=self.emu.app_emojis, was_v2=was_v2)
        becomes_v2 = not was_v2 and body.get("flags") is not None and int(body["flags"]) & model.COMPONENTS_V2
        if becomes_v2 and ((msg.content and "content" not in body) or (msg.embeds and "embeds" not in body)):
            problems.append(("flags", "A message becoming Components V2 must drop its content and embeds."))
        if problems:
            raise invalid_form(problems)
        emu = self.emu
        attachments = (
            self._attachments(body, files, msg.attachments) if "attachments" in body or files else msg.attachments
        )
        flags = msg.flags if body.get("flags") is None else int(body["flags"])
        self._check_refs(flags, body if "components" in body else {"components": msg.components}, attachments)
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        if "content" in body:
            msg.content = body["content"] or ""
        for key in ("embeds", "components"):
            if key in body:
                setattr(msg, key, body[key] or [])
        if body.get("flags") is not None:
            msg.flags = (msg.flags & (EPHEMERAL | LOADING)) | (int(body["flags"]) & ~(EPHEMERAL | LOADING))
        msg.attachments = attachments
        if msg.loading:
            msg.flags &= ~LOADING
            if msg.interaction_id is not None:
                emu._deferred.discard(msg.interaction_id)
        else:
            msg.edited_at, msg.edited_timestamp = emu.now(), emu.iso_now()
        msg.snapshot(emu.now())
        return msg

    @staticmethod
    def _check_refs(flags: int, body: dict[str, Any], attachments: list[Attachment]) -> None:
        """A Components V2 message shows a file only where a component names it (``attachment://name``): each name
        must be one of the message's attachments."""
        if not flags & model.COMPONENTS_V2:
            return
        names = {a.filename for a in attachments}
        missing = [r for r in attachment_refs(body.get("components") or []) if r not in names]
        if missing:
            raise invalid_form([("components", f"Unknown attachment {name!r}") for name in missing])

    def delete(self, msg: Message) -> None:
        msg.deleted = True
        msg.deleted_at = self.emu.now()
        if msg.interaction_id is not None:
            self.emu._deferred.discard(msg.interaction_id)

    # ------------------------------------------------------------ handlers: identity, gateway, commands

    async def get_me(self, req: Request) -> web.Response:
        return json_response(200, self.emu.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0})

    async def get_user(self, req: Request) -> web.Response:
        user = self.emu.users.get(int(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(200, user.payload())

    async def get_application(self, req: Request) -> web.Response:
        emu = self.emu
        return json_response(
            200,
            {
                "id": str(emu.application_id),
                "name": emu.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": emu.bot_user.payload(),
                "owner": emu.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(emu.guilds),
                "integration_types_config": {"0": {}},
            },
        )

    async def get_gateway(self, req: Request) -> web.Response:
        data: dict[str, Any] = {"url": self.emu.gateway_url}
        if req.path.endswith("/bot"):
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            data |= {"shards": self.emu.recommended_shards, "session_start_limit": limit}
        return json_response(200, data)

    def _command_scope(self, req: Request) -> int | None:
        if req.params["app_id"] != str(self.emu.application_id):
            raise ApiError(403, 50001, "Missing Access")
        guild_id = req.params.get("guild_id")
        if guild_id is not None and int(guild_id) not in self.emu.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return None if guild_id is None else int(guild_id)

    async def get_commands(self, req: Request) -> web.Response:
        return json_response(200, self.emu.registered_commands.get(self._command_scope(req), []))

    async def put_commands(self, req: Request) -> web.Response:
        """Bulk overwrite: a command keeps its id across overwrites while its name and type stay the same."""
        emu, scope = self.emu, self._command_scope(req)
        problems = check_commands(req.body)
        if problems:
            raise invalid_form(problems)
        old = {(c["name"], c["type"]): c["id"] for c in emu.registered_commands.get(scope, [])}
        stored = []
        for command in req.body:
            kind = command.get("type", 1)
            item = {
                "default_member_permissions": None,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                "description": "",
                "options": [],
            }
            item |= command
            item |= {
                "id": old.get((command["name"], kind)) or str(emu.ids()),
                "application_id": str(emu.application_id),
                "version": str(emu.ids()),
                "type": kind,
            }
            if item["default_member_permissions"] is not None:
                item["default_member_permissions"] = str(item["default_member_permissions"])
            if scope is not None:
                item["guild_id"] = str(scope)
            stored.append(item)
        emu.registered_commands[scope] = stored
        return json_response(200, stored)

    # ------------------------------------------------------------ handlers: application emojis
    # Discord's API reference, "Emoji Resource" (https://discord.com/developers/docs/resources/emoji: List, Get,
    # Create, Modify and Delete Application Emoji; "Emoji Formats"), and shared/docs/discord-emulator.md: an
    # application owns at most APP_EMOJI_LIMIT (2,000) emojis, each named 2-32 characters of [A-Za-z0-9_] (unique
    # within the application), its image a data URI of a PNG, JPEG, GIF, WebP or AVIF of at most 256 KiB; Modify
    # changes the name only (no image field). Errors: 50035 for the form, 30008 at the limit, 10014 Unknown Emoji.

    def _app(self, req: Request) -> None:
        if req.params["app_id"] != str(self.emu.application_id):
            raise ApiError(403, 50001, "Missing Access")

    def _app_emoji(self, req: Request) -> model.AppEmoji:
        self._app(req)
        emoji = self.emu.app_emojis.get(int(req.params["emoji_id"]))
        if emoji is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return emoji

    def _emoji_name(self, name: Any, *, keep: int | None = None) -> list[tuple[str, str]]:
        if not isinstance(name, str) or not model.APP_EMOJI_NAME.fullmatch(name):
            return [("name", "Must be between 2 and 32 in length and contain only letters, digits and _.")]
        if any(e.name == name and e.id != keep for e in self.emu.app_emojis.values()):
            return [("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN: an emoji of this application has that name.")]
        return []

    async def list_app_emojis(self, req: Request) -> web.Response:
        self._app(req)
        return json_response(200, {"items": [e.payload(self.emu.owner) for e in self.emu.app_emojis.values()]})

    async def get_app_emoji(self, req: Request) -> web.Response:
        return json_response(200, self._app_emoji(req).payload(self.emu.owner))

    async def create_app_emoji(self, req: Request) -> web.Response:
        self._app(req)
        emu, body = self.emu, req.body or {}
        problems = self._emoji_name(body.get("name"))
        image = model.decode_image(body.get("image"))
        if image is None:
            problems.append(("image", "Invalid image data: a data URI of a PNG, JPEG, GIF, WebP or AVIF image."))
        elif len(image[1]) > model.APP_EMOJI_MAX_BYTES:
            problems.append(("image", "File cannot be larger than 256.0 kb."))
        if problems:
            raise invalid_form(problems)
        if len(emu.app_emojis) >= model.APP_EMOJI_LIMIT:
            raise ApiError(400, 30008, f"Maximum number of emojis reached ({model.APP_EMOJI_LIMIT})")
        assert image is not None
        emoji = model.AppEmoji(emu.ids(), body["name"], image[0], image[1], animated=image[0] == "image/gif")
        emu.app_emojis[emoji.id] = emoji
        return json_response(201, emoji.payload(emu.owner))

    async def edit_app_emoji(self, req: Request) -> web.Response:
        emoji = self._app_emoji(req)
        body = req.body or {}
        if "name" in body:
            problems = self._emoji_name(body["name"], keep=emoji.id)
            if problems:
                raise invalid_form(problems)
            emoji.name = body["name"]
        return json_response(200, emoji.payload(self.emu.owner))

    async def delete_app_emoji(self, req: Request) -> web.Response:
        emoji = self._app_emoji(req)
        del self.emu.app_emojis[emoji.id]
        self.emu.deleted_app_emojis.append(emoji)
        return json_response(204)

    # ------------------------------------------------------------ handlers: interactions

    async def callback(self, req: Request) -> web.Response:
        emu = self.emu
        rec = emu.interactions.get(int(req.params["interaction_id"]))
        if rec is None or rec.token != req.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        body, now = req.body or {}, emu.now()
        kind, data = body.get("type"), body.get("data") or {}
        try:
            if rec.response_type is not None:
                raise ApiError(400, 40060, "Interaction has already been acknowledged.")
            if emu.ack_deadline is not None and now - rec.dispatched_at > emu.ack_deadline:
                raise ApiError(404, 10062, "Unknown interaction")
            if kind not in ALLOWED_CALLBACKS[rec.type]:
                raise invalid_form([("type", f"Callback type {kind} is not valid for a {rec.kind} interaction")])
            resource = self._respond(rec, kind, data, req.files)
        except ApiError as e:
            rec.attempts.append(Ack(now, int(kind or 0), e.status, e.code))
            rec.answered.set()
            raise
        rec.response_type = kind
        rec.attempts.append(Ack(now, kind, 200))
        rec.answered.set()
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        if "message" in resource:
            msg = emu._messages[int(resource["message"]["id"])]
            info |= {
                "response_message_id": str(msg.id),
                "response_message_loading": msg.loading,
                "response_message_ephemeral": msg.ephemeral,
            }
        return json_response(200, {"interaction": info, "resource": resource})

    def _respond(self, rec: InteractionRecord, kind: int, data: dict[str, Any], files: dict[int, Upload]) -> Any:
        emu = self.emu
        resource: dict[str, Any] = {"type": kind}
        if kind in (4, 5):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            channel = emu.channels[rec.channel_id]
            visible_to = rec.user.id if ephemeral else None
            if kind == 4:
                msg = self.create_message(channel, emu.bot_user, data, files, visible_to=visible_to, interaction=rec)
            else:
                # A DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE ack may carry only the EPHEMERAL flag: IS_COMPONENTS_V2 goes
                # on the edit of @original (or the followup) that fills it (Discord's API reference, "Receiving and
                # Responding", Interaction Callback Data Structure, its footnote, added by discord-api-docs PR #7386
                # and PR #7560 after issues #7515 and #7910: https://github.com/discord/discord-api-docs/pull/7560).
                # Discord drops the flag silently, so the message would not be V2; the emulator refuses it, so that
                # a bot relying on it fails here instead of in production.
                if int(data.get("flags") or 0) & model.COMPONENTS_V2:
                    raise invalid_form(
                        [("data.flags", "A deferred response may set only EPHEMERAL; set IS_COMPONENTS_V2 on the edit")]
                    )
                body = {"flags": data.get("flags")}
                msg = self.create_message(
                    channel, emu.bot_user, body, {}, visible_to=visible_to, interaction=rec, loading=True
                )
                emu._deferred.add(rec.id)
            rec.original_id = msg.id
            resource["message"] = msg.payload()
        elif kind == 7:
            assert rec.message is not None
            rec.original_id = rec.message.id
            resource["message"] = self.edit(rec.message, data, files).payload()
        elif kind == 6:
            rec.original_id = rec.message_id
        elif kind == 8:
            rec.choices = data.get("choices", [])
        elif kind == 9:
            rec.modal = data
        return resource

    async def followup(self, req: Request) -> web.Response:
        """A followup; the first one after a deferred (type 5) response fills it, keeping its visibility (once that
        response was deleted, a followup is a new message of its own visibility)."""
        emu, rec = self.emu, self._interaction(req)
        if not rec.acknowledged:
            raise ApiError(404, 10015, "Unknown Webhook")
        body, original = req.body or {}, rec.original
        if rec.response_type == 5 and original is not None and original.loading and not original.deleted:
            msg = self.edit(original, body, req.files)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            channel = emu.channels[rec.channel_id]
            visible_to = rec.user.id if ephemeral else None
            msg = self.create_message(channel, emu.bot_user, body, req.files, visible_to=visible_to, interaction=rec)
            rec.followup_ids.append(msg.id)
        if req.query.get("wait", "false").lower() in ("1", "true"):
            return json_response(200, msg.payload())
        return json_response(204)

    async def get_webhook_message(self, req: Request) -> web.Response:
        return json_response(200, self._webhook_message(req)[1].payload())

    async def edit_webhook_message(self, req: Request) -> web.Response:
        _, msg = self._webhook_message(req)
        return json_response(200, self.edit(msg, req.body or {}, req.files).payload())

    async def delete_webhook_message(self, req: Request) -> web.Response:
        self.delete(self._webhook_message(req)[1])
        return json_response(204)

    # ------------------------------------------------------------ handlers: channels, guilds

    async def get_channel(self, req: Request) -> web.Response:
        return json_response(200, self._channel(req).payload())

    async def list_messages(self, req: Request) -> web.Response:
        channel, messages = self._channel(req), self.emu._messages
        limit = min(int(req.query.get("limit", 50)), 100)
        before, after = int(req.query.get("before", 1 << 63)), int(req.query.get("after", 0))
        found = []
        for message_id in reversed(channel.message_ids):
            msg = messages[message_id]
            if after < msg.id < before and not msg.deleted and not msg.ephemeral:
                found.append(msg.payload())
                if len(found) == limit:
                    break
        return json_response(200, found)

    async def post_message(self, req: Request) -> web.Response:
        channel = self._channel(req)
        perms = self.emu.bot_permissions(channel)
        if not perms.view_channel or not (perms.send_messages_in_threads if channel.is_thread else perms.send_messages):
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.archived and channel.locked:
            raise ApiError(400, 50083, "Thread is archived")
        if channel.is_thread:
            if channel.archived:  # a message in an archived thread that is not locked unarchives it
                self.emu.unarchive(channel)
            if self.emu.bot_user.id not in channel.member_ids:  # and makes its sender a member of it
                channel.member_ids.append(self.emu.bot_user.id)
        msg = self.create_message(channel, self.emu.bot_user, req.body or {}, req.files)
        return json_response(200, msg.payload())

    async def get_message(self, req: Request) -> web.Response:
        return json_response(200, self._channel_message(req).payload())

    async def edit_message(self, req: Request) -> web.Response:
        msg = self._channel_message(req)
        if msg.author is not self.emu.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if self._channel(req).archived:  # "Users cannot edit messages ... in archived threads" (Discord's threads doc)
            raise ApiError(400, 50083, "Thread is archived")
        return json_response(200, self.edit(msg, req.body or {}, req.files).payload())

    async def delete_message(self, req: Request) -> web.Response:
        self.delete(self._channel_message(req))
        return json_response(204)

    async def start_thread(self, req: Request) -> web.Response:
        """Start a thread without a message (``{name, type, auto_archive_duration, invitable, rate_limit_per_user}``):
        type 11 (public) or 12 (private) of a text channel, 10 of an announcement channel; needs View Channel and
        Create Public (Private) Threads there. Answers the thread channel; THREAD_CREATE (``newly_created``) follows.
        """
        emu, channel, body = self.emu, self._channel(req), req.body or {}
        kind = body.get("type", model.PRIVATE_THREAD)
        allowed = {model.TEXT: (model.PUBLIC_THREAD, model.PRIVATE_THREAD), model.NEWS: (model.NEWS_THREAD,)}
        if kind not in allowed.get(channel.type, ()):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        name = str(body.get("name") or "")
        duration = body.get("auto_archive_duration") or 4320  # Discord's default: the channel's, 3 days
        problems = []
        if not 1 <= len(name) <= 100:
            problems.append(("name", "Must be between 1 and 100 in length."))
        if duration not in model.ARCHIVE_DURATIONS:
            problems.append(("auto_archive_duration", f"Value must be one of {model.ARCHIVE_DURATIONS}."))
        if problems:
            raise invalid_form(problems)
        perms = emu.bot_permissions(channel)
        needed = perms.create_private_threads if kind == model.PRIVATE_THREAD else perms.create_public_threads
        if not perms.view_channel or not needed:
            raise ApiError(403, 50013, "Missing Permissions")
        guild = emu.guilds[channel.guild_id]
        thread = emu._new_channel(guild, name, channel, owner=emu.bot_user, type_=kind, auto_archive_duration=duration)
        emu._dispatch_soon("THREAD_CREATE", guild.id, lambda s: thread.payload() | {"newly_created": True})
        return json_response(201, thread.payload())

    async def add_thread_member(self, req: Request) -> web.Response:
        """Add a member to a thread: needs Send Messages in Threads there, and the thread not archived. Without the
        members intent Discord sends the bot no THREAD_MEMBERS_UPDATE for other users, so none is sent."""
        emu, thread = self.emu, self._channel(req)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        user_id = int(req.params["user_id"])
        if user_id not in emu.guilds[thread.guild_id].members:
            raise ApiError(404, 10007, "Unknown Member")
        perms = emu.bot_permissions(thread)
        if not perms.view_channel or not perms.send_messages_in_threads:
            raise ApiError(403, 50013, "Missing Permissions")
        if thread.archived:
            raise ApiError(400, 50083, "Thread is archived")
        if user_id not in thread.member_ids:
            thread.member_ids.append(user_id)
        return json_response(204)

    async def edit_channel(self, req: Request) -> web.Response:
        """Modify a channel's ``name`` (Manage Channels), or a thread's ``name``, ``archived``,
        ``auto_archive_duration`` (its owner, or Manage Threads) and ``locked`` (Manage Threads); a thread that is
        not locked may be unarchived alone (``{"archived": false}``) by any member of it who may send messages in
        it. Answers the channel and sends CHANNEL_UPDATE or THREAD_UPDATE."""
        emu, channel, body = self.emu, self._channel(req), req.body or {}
        perms = emu.bot_permissions(channel)
        if channel.is_thread:
            owner = channel.owner_id == emu.bot_user.id and not channel.locked
            unarchive = body == {"archived": False} and not channel.locked
            member = emu.bot_user.id in channel.member_ids and perms.send_messages_in_threads
            if not (perms.manage_threads or (owner and "locked" not in body) or (unarchive and member)):
                raise ApiError(403, 50013, "Missing Permissions")
        elif not perms.manage_channels or set(body) - {"name"}:
            raise ApiError(403, 50013, "Missing Permissions")
        if "name" in body and not 1 <= len(str(body["name"] or "")) <= 100:
            raise invalid_form([("name", "Must be between 1 and 100 in length.")])
        if "auto_archive_duration" in body and body["auto_archive_duration"] not in model.ARCHIVE_DURATIONS:
            raise invalid_form([("auto_archive_duration", f"Value must be one of {model.ARCHIVE_DURATIONS}.")])
        channel.name = str(body.get("name") or channel.name)
        channel.archived = bool(body.get("archived", channel.archived))
        channel.locked = bool(body.get("locked", channel.locked))
        channel.auto_archive_duration = int(body.get("auto_archive_duration", channel.auto_archive_duration))
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        emu._dispatch_soon(event, channel.guild_id, constant_payload(channel.payload()))
        return json_response(200, channel.payload())

    async def delete_channel(self, req: Request) -> web.Response:
        """Delete a channel (Manage Channels) or a thread (Manage Threads); answers the deleted channel and sends
        CHANNEL_DELETE or THREAD_DELETE. The threads of a deleted channel go with it."""
        emu, channel = self.emu, self._channel(req)
        perms = emu.bot_permissions(channel)
        if not (perms.manage_threads if channel.is_thread else perms.manage_channels):
            raise ApiError(403, 50013, "Missing Permissions")
        emu.delete_channel(channel)
        return json_response(200, channel.payload())

    async def typing(self, req: Request) -> web.Response:
        self._channel(req)
        return json_response(204)

    def _guild(self, req: Request) -> Any:
        guild = self.emu.guilds.get(int(req.params["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, req: Request) -> web.Response:
        data = self._guild(req).payload(all_members=False, bot_id=self.emu.bot_user.id)
        return json_response(200, {k: v for k, v in data.items() if k not in ("channels", "threads", "members")})

    async def get_guild_channels(self, req: Request) -> web.Response:
        guild = self._guild(req)
        return json_response(200, [c.payload() for c in guild.channels.values() if not c.is_thread])

    async def get_member(self, req: Request) -> web.Response:
        member = self._guild(req).members.get(int(req.params["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(200, member.payload())


def rate_limited(emu: DiscordEmulator, method: str, path: str, verdict: RateLimitVerdict) -> web.Response:
    """Discord's 429 (``ratelimits`` module): ``{"message", "retry_after", "global"}`` with ``Retry-After`` (whole
    seconds, at least 1), ``Via`` (without it discord.py takes the 429 for a Cloudflare ban) and the bucket's
    ``X-RateLimit-*`` headers; recorded in ``emu.rate_limited``."""
    emu.rate_limited.append(RateLimited(emu.now(), method, path, verdict.bucket, verdict.retry_after, verdict.global_))
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(verdict.retry_after, 3),
        "global": verdict.global_,
    }
    headers = {"Via": "1.1 google", "Retry-After": str(max(1, math.ceil(verdict.retry_after))), **verdict.headers}
    return json_response(429, body, headers)


def constant_payload(data: dict[str, Any]) -> Callable[[Any], dict[str, Any]]:
    """A gateway payload builder that gives every session the same ``data``."""
    return lambda session: data
