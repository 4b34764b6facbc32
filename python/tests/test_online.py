"""A Python bot plays on a real `robodrome serve` (127.0.0.1, a free port): a bot account over the
Bot API (v1), a guest over the seat protocol."""
import json
import os
import pathlib
import socket
import subprocess
import threading
import time
import urllib.request
import uuid

import pytest

pytest.importorskip("websockets")

from robodrome.client import BotClient, Client, ServerError  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _binary():
    b = os.environ.get("ROBODROME_BIN") or str(ROOT / "target" / "debug" / "robodrome")
    if not os.path.exists(b):
        pytest.skip(f"no robodrome binary at {b} (cargo build -p robodrome, or set ROBODROME_BIN)")
    return b


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path_factory.mktemp("serve") / "py.db"
    proc = subprocess.Popen([_binary(), "serve", "--all-games", "--addr", f"127.0.0.1:{port}",
                             "--db", str(db)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:  # readiness: poll /healthz until it answers (bounded)
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                if json.loads(r.read())["status"] == "ok":
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"robodrome serve did not start: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.05)
    yield base
    proc.terminate()
    proc.wait(timeout=20)


def test_python_bot_plays_rps_against_a_server_bot(server):
    c = Client(server, name="PyBot")
    assert any(k["name"] == "rps" for k in c.kinds())
    g = c.create("rps", seats=["me", "bot:random"])
    seen = []

    def rock(view, static, seat):
        seen.append(view)
        return {"type": "throw", "throw": "rock"}

    outcome = c.play(g["id"], rock)
    assert outcome["ranking"] and seen
    # the client asks for views only when they changed: it always hands the policy a view
    assert all(isinstance(v, dict) and "throws" in v for v in seen), seen
    assert c.game(g["id"])["status"] == "finished"


def test_a_refused_action_is_a_typed_error(server):
    """An action for a car that is not the seat's (AS-4.1): the server's illegal_action."""
    c = Client(server, name="PyScooter")
    g = c.create("autoscooter", seats=["me", "bot:heuristic"])
    with pytest.raises(ServerError) as e:
        c.play(g["id"], lambda v, s, seat: {"type": "plot", "car": 99, "number": 1, "letter": "H"})
    assert e.value.code == "illegal_action"


def test_errors_are_typed(server):
    c = Client(server, name="PyBad")
    with pytest.raises(ServerError) as e:
        c.create("chess", seats=["me"])
    assert e.value.status == 400 and e.value.code


def test_a_bot_account_plays_over_the_bot_api(server):
    """A player makes a bot account; the Python bot, with its token, reads its event stream,
    accepts the player's challenge and plays its seat on /api/bot/v1/games/{id} while the player
    plays theirs (docs/protocol.md "Bot API")."""
    ann = Client(server, name="Ann")
    # Bot accounts and challenges are an account's (a guest gets 403 account_required).
    with pytest.raises(ServerError) as e:
        ann.create_bot("PyRandy")
    assert (e.value.status, e.value.code) == (403, "account_required")
    ann.sign_up(f"ann_{uuid.uuid4().hex[:8]}", "correct horse battery")
    made = ann.create_bot("PyRandy")
    assert made["token"].startswith("rdbot_")
    bot = BotClient(server, made["token"])
    assert (bot.id, bot.name) == (made["id"], "PyRandy")
    challenge = ann.challenge(bot.id, "rps", seats=["me", "you"])
    ann_result: dict = {}

    def ann_plays(event):  # the game started: the player plays her seat beside the bot
        def run():
            ann_result["outcome"] = ann.play(event["game_id"],
                                             lambda v, s, seat: {"type": "throw", "throw": "rock"})
        t = threading.Thread(target=run, daemon=True)
        t.start()
        ann_result["thread"] = t
        ann_result["event"] = event

    seen = []

    def paper(view, static, seat):
        seen.append((view, seat))
        return {"type": "throw", "throw": "paper"}

    outcomes = bot.serve(paper, games={"rps"}, max_games=1, on_start=ann_plays)
    ann_result["thread"].join(timeout=30)
    ev = ann_result["event"]
    assert ev["challenge"] == challenge["id"] and ev["game"] == "rps" and ev["seat"] == 1
    assert seen and all(seat == 1 for _, seat in seen)
    # TOY-2, TOY-3: paper beats rock every round: the bot (seat 1) wins 3-0, alone first
    assert outcomes == [ann_result["outcome"]] and outcomes[0]["ranking"][0] == [1]
    assert ann.game(ev["game_id"])["status"] == "finished"


def test_the_bot_api_refuses_a_players_token(server):
    ann = Client(server, name="NotABot")
    with pytest.raises(ServerError) as e:
        BotClient(server, ann.token)
    assert (e.value.status, e.value.code) == (401, "bad_token")
