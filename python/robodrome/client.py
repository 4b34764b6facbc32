"""A Python bot on a Robodrome server, over the seat protocol of docs/protocol.md (v1): a guest
identity, a game created or joined over HTTP, then one WebSocket per seat.

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
from typing import Any, Callable, Optional

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
        from websockets.sync.client import connect

        ws_base = "ws" + self.base[len("http"):]
        url = f"{ws_base}/ws/games/{game_id}?token={self.token}"
        with connect(url, open_timeout=self.timeout, max_size=2**20) as ws:
            static, seats, sent = None, [], None
            next_id, pending, min_seq = 1, False, 0
            for _ in range(max_frames):
                msg = json.loads(ws.recv(timeout=self.timeout))
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
                # one action in flight: frames older than its ack do not show it yet
                if t in ("welcome", "update") and not pending and msg.get("seq", 0) >= min_seq:
                    view = msg.get("view")
                    for seat in seats:
                        if seat in msg.get("waiting", []):
                            sent = policy(view, static, seat)
                            ws.send(json.dumps({"v": 1, "type": "act", "seat": seat,
                                                "action": sent, "id": next_id}))
                            next_id += 1
                            pending = True
                            break
            raise ServerError(0, "too_long", f"no outcome after {max_frames} frames")
