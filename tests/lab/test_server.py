"""A reader's route: a Jupyter server started from .venv runs a chapter cell by cell.

The server is the one `make lab` opens (JupyterLab's), started on a free local port with
a random token. The chapter runs in a kernel the server starts, over the server's REST
and WebSocket API, as JupyterLab would run it; its printed outputs must equal the ones
stored in the notebook (the same outputs nbval checks).
"""

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
CHAPTER = "00_first_tokenizer.ipynb"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port, token = free_port(), secrets.token_hex(16)
    jupyter = Path(sys.executable).with_name("jupyter")
    log = tmp_path_factory.mktemp("server") / "server.log"
    root = ["--allow-root"] if os.geteuid() == 0 else []  # CI runs as root
    process = subprocess.Popen(
        [
            str(jupyter),
            "server",
            "--no-browser",
            f"--port={port}",
            "--ip=127.0.0.1",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={NOTEBOOKS}",
            *root,
        ],
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1)
            break
        except OSError:
            if process.poll() is not None:
                pytest.fail(f"jupyter server exited: {log.read_text()[-2000:]}")
            time.sleep(0.5)
    else:
        process.kill()
        pytest.fail("jupyter server did not start within a minute")
    yield base, token
    process.terminate()
    process.wait(timeout=30)


def rest(base, token, method, path, body=None):
    request = urllib.request.Request(
        f"{base}{path}?token={token}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
    return json.loads(text) if text else None


async def run_cells(base, token, kernel_id, sources):
    """Execute sources one by one on the kernel; each cell's stream text and errors."""
    from tornado.websocket import websocket_connect

    url = (
        base.replace("http", "ws") + f"/api/kernels/{kernel_id}/channels?token={token}"
    )
    socket_ = await websocket_connect(url)
    session, results = uuid.uuid4().hex, []
    for source in sources:
        msg_id = uuid.uuid4().hex
        await socket_.write_message(
            json.dumps(
                {
                    "header": {
                        "msg_id": msg_id,
                        "msg_type": "execute_request",
                        "session": session,
                        "username": "test",
                        "version": "5.3",
                    },
                    "parent_header": {},
                    "metadata": {},
                    "channel": "shell",
                    "content": {
                        "code": source,
                        "silent": False,
                        "store_history": True,
                        "user_expressions": {},
                        "allow_stdin": False,
                    },
                }
            )
        )
        text, errors = "", []
        while True:
            message = json.loads(await asyncio.wait_for(socket_.read_message(), 600))
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = message["msg_type"]
            if kind == "stream" and message["content"]["name"] == "stdout":
                text += message["content"]["text"]
            elif kind == "error":
                errors.append(message["content"]["ename"])
            elif kind == "status" and message["content"]["execution_state"] == "idle":
                break
        results.append((text, errors))
    socket_.close()
    return results


def test_a_chapter_runs_through_the_server(server):
    base, token = server
    notebook = json.loads((NOTEBOOKS / CHAPTER).read_text(encoding="utf-8"))
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    session = rest(
        base,
        token,
        "POST",
        "/api/sessions",
        {
            "path": CHAPTER,
            "type": "notebook",
            "name": CHAPTER,
            "kernel": {"name": "python3"},
        },
    )
    try:
        results = asyncio.run(
            run_cells(
                base,
                token,
                session["kernel"]["id"],
                ["".join(c["source"]) for c in cells],
            )
        )
    finally:
        rest(base, token, "DELETE", f"/api/sessions/{session['id']}")
    assert [errors for _, errors in results if errors] == []
    compared = 0
    for cell, (text, _) in zip(cells, results, strict=True):
        stored = "".join(
            "".join(o["text"])
            for o in cell.get("outputs", [])
            if o.get("output_type") == "stream" and o.get("name") == "stdout"
        )
        if stored and "nbval-ignore-output" not in cell.get("metadata", {}).get(
            "tags", []
        ):
            assert text == stored, "".join(cell["source"])[:80]
            compared += 1
    assert compared >= 5
