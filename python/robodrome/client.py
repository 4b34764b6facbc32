"""A Python bot on a Robodrome server (docs/protocol.md, version 1).

A **bot account** (a token ``rdbot_…`` made by its owner, ``POST /api/bots``) plays over the Bot
API, ``/api/bot/v1/``: its event stream (challenges, game starts), accepting or declining
challenges, and one game socket per game (the seat protocol of "Play")::

    bot = BotClient("http://127.0.0.1:8080", token="rdbot_…")
    bot.serve(policy, games={"rps", "autoscooter"}, max_games=10)   # accept, play, repeat

A **guest** (``Client``) signs in with ``POST /api/guest``, creates or joins games over HTTP and
plays its seat on ``/ws/games/{id}``; it can also make bot accounts and challenge players::

    client = Client("http://127.0.0.1:8080", name="PyBot")
    game = client.create("rps", seats=["me", "bot:random"])
    outcome = client.play(game["id"], policy)

``policy(view, static, seat)`` returns the game's own action JSON for the seat (it sees only
what the server sends that seat: its view, never more). Needs the ``websockets`` package.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any, Callable, Iterator, Optional

Policy = Callable[[Any, Any, int], Any]


class ServerError(Exception):
    """The server refused a request: `code` and `message` as it said them."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class Client:
    def __init__(self, base: str, name: str = "PyBot", timeout: float = 30.0):
        self.base = base.rstrip("/")
        self.timeout = timeout
        me = self._req("POST", "/api/guest", {"name": name}, auth=False)
        self.token = me["token"]
        self.id = me["id"]

    def _req(self, method: str, path: str, body: Any = None, auth: bool = True) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if auth:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                err = json.loads(e.read())
            except ValueError:
                err = {}
            raise ServerError(e.code, err.get("code", "http"), err.get("message", str(e))) from None

    def kinds(self) -> list[dict]:
        return self._req("GET", "/api/kinds", auth=False)["kinds"]

    def create(self, game: str, seats: list[str], **kw) -> dict:
        """POST /api/games: seats as the protocol lists them ("me", "open", "bot:heuristic")."""
        return self._req("POST", "/api/games", {"game": game, "seats": seats, **kw})

    def join(self, game_id: str, seat: Optional[int] = None) -> dict:
        return self._req("POST", f"/api/games/{game_id}/join", {} if seat is None else {"seat": seat})

    def game(self, game_id: str) -> dict:
        return self._req("GET", f"/api/games/{game_id}", auth=False)

    def play(self, game_id: str, policy: Policy, max_frames: int = 1_000_000) -> dict:
        """Play the identity's seat(s) of a started game to its end; returns the outcome."""
        ws_base = "ws" + self.base[len("http"):]
        return _play(f"{ws_base}/ws/games/{game_id}?token={self.token}&views=changed", policy,
                     self.timeout, max_frames)

    def sign_up(self, username: str, password: str) -> dict:
        """POST /api/account: this guest claims a username and a password and becomes an account
        (the same id). Challenges, bot accounts and turn-based games need one (docs/platform.md)."""
        return self._req("POST", "/api/account", {"username": username, "password": password})

    def create_bot(self, name: str) -> dict:
        """POST /api/bots: a bot account of this identity's, ``{"id", "name", "token"}`` (the
        token is shown once)."""
        return self._req("POST", "/api/bots", {"name": name})

    def challenge(self, to: str, game: str, seats: Optional[list[str]] = None, **kw) -> dict:
        """POST /api/challenges: challenge a player or a bot account (seats: "me", "you",
        "bot:…"; default ["me", "you"])."""
        body = {"to": to, "game": game, **kw}
        if seats is not None:
            body["seats"] = seats
        return self._req("POST", "/api/challenges", body)


def _play(url: str, policy: Policy, timeout: float, max_frames: int) -> dict:
    """The seat protocol ("Play") on one game socket, to the end; returns the outcome. One
    action is in flight at a time (it waits for the ``ack``). The socket asks for views only
    when they changed (``views=changed``): an ``update`` without ``view`` keeps the last one."""
    from websockets.sync.client import connect

    with connect(url, open_timeout=timeout, max_size=2**20) as ws:
        static, seats, sent, view = None, [], None, None
        next_id, pending, min_seq = 1, False, 0
        for _ in range(max_frames):
            msg = json.loads(ws.recv(timeout=timeout))
            t = msg.get("type")
            if t == "over":
                return msg["outcome"]
            if t == "welcome":
                static = msg.get("static", static)
                seats = msg.get("seats", [])
            if t == "ack":
                pending, min_seq = False, msg.get("seq", min_seq)
                continue
            if t == "error" and msg.get("code") not in ("illegal_action", "bad_action"):
                raise ServerError(0, msg.get("code", "error"), msg.get("message", ""))
            if t == "error":
                raise ServerError(0, msg["code"], f"{msg.get('rule')}: {msg.get('message')} (sent {sent})")
            if t in ("welcome", "update") and "view" in msg:
                view = msg["view"]
            # one action in flight: frames older than its ack do not show it yet
            if t in ("welcome", "update") and not pending and msg.get("seq", 0) >= min_seq:
                for seat in seats:
                    if seat in msg.get("waiting", []):
                        sent = policy(view, static, seat)
                        ws.send(json.dumps({"v": 1, "type": "act", "seat": seat,
                                            "action": sent, "id": next_id}))
                        next_id += 1
                        pending = True
                        break
        raise ServerError(0, "too_long", f"no outcome after {max_frames} frames")


class BotClient:
    """A bot account on the Bot API, version 1 (docs/protocol.md "Bot API"): every request
    carries the bot's token (``Authorization: Bearer``; ``?token=`` on the two WebSocket
    handshakes). A missing, revoked or non-bot token is ``ServerError(401, "bad_token")``."""

    PREFIX = "/api/bot/v1"

    def __init__(self, base: str, token: str, timeout: float = 30.0):
        self.base = base.rstrip("/")
        self.token = token
        self.timeout = timeout
        me = self.account()
        self.id, self.name = me["id"], me["name"]

    def _req(self, method: str, path: str, body: Any = None) -> Any:
        return Client._req(self, method, self.PREFIX + path, body)  # type: ignore[arg-type]

    def _ws(self, path: str) -> str:
        return f"ws{self.base[len('http'):]}{self.PREFIX}{path}?token={self.token}"

    def account(self) -> dict:
        """GET /api/bot/v1/account: ``{"v": 1, "id", "name", "bot": true}``."""
        return self._req("GET", "/account")

    def challenge(self, to: str, game: str, seats: Optional[list[str]] = None, **kw) -> dict:
        """A challenge from the bot (body as ``POST /api/challenges``)."""
        body = {"to": to, "game": game, **kw}
        if seats is not None:
            body["seats"] = seats
        return self._req("POST", "/challenges", body)

    def accept(self, challenge_id: str) -> dict:
        """Accept a challenge: the game made (running)."""
        return self._req("POST", f"/challenges/{challenge_id}/accept", {})

    def decline(self, challenge_id: str) -> dict:
        return self._req("POST", f"/challenges/{challenge_id}/decline", {})

    def events(self, timeout: Optional[float] = None) -> Iterator[dict]:
        """The bot's event stream: the open challenges to it and a ``game_start`` per running
        game at the start, then ``challenge``, ``challenge_closed`` and ``game_start`` as they
        happen. Each frame waits at most ``timeout`` seconds (default: the client's)."""
        from websockets.sync.client import connect

        with connect(self._ws("/events"), open_timeout=self.timeout, max_size=2**20) as ws:
            while True:
                yield json.loads(ws.recv(timeout=timeout or self.timeout))

    def play(self, game_id: str, policy: Policy, max_frames: int = 1_000_000) -> dict:
        """Play the bot's seat of a running game to its end on the game's socket; returns the
        outcome."""
        return _play(self._ws(f"/games/{game_id}") + "&views=changed", policy, self.timeout,
                     max_frames)

    def serve(self, policy: Policy, games: Optional[set[str]] = None,
              max_games: Optional[int] = None,
              on_start: Optional[Callable[[dict], None]] = None) -> list[dict]:
        """What ``robodrome bot`` does, with a Python policy: read the event stream, accept the
        challenges for ``games`` (every game when None), decline the others, and play each game
        the bot is seated in to its end, one at a time; stops after ``max_games`` games.
        ``on_start(event)`` is called with each ``game_start`` before the game is played.
        Returns the outcomes."""
        outcomes: list[dict] = []
        played: set[str] = set()
        for ev in self.events():
            t = ev.get("type")
            if t == "challenge":
                c = ev["challenge"]
                if c.get("status", "open") != "open" or c["recipient"]["id"] != self.id:
                    continue
                if games is None or c["request"]["game"] in games:
                    self.accept(c["id"])
                else:
                    self.decline(c["id"])
            elif t == "game_start" and ev["game_id"] not in played:
                played.add(ev["game_id"])
                if on_start is not None:
                    on_start(ev)
                outcomes.append(self.play(ev["game_id"], policy))
                if max_games is not None and len(outcomes) >= max_games:
                    return outcomes
        return outcomes
