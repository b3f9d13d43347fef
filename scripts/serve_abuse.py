#!/usr/bin/env python3
"""Figures for aguify serve under abusive clients (issue 26 items 12 and 13).

  scripts/serve_abuse.py BIN slow [N]     N clients trickling a request head one byte a second:
                                          connections the server holds at 2 s and 15 s
  scripts/serve_abuse.py BIN threads      RSS after 200 requests with 500 KB thread ids, and
                                          after 20,000 threads with 400-byte ids

BIN is an aguify binary; the server listens on a free loopback port. Not run by CI.
"""
import json, os, re, socket, subprocess, sys, threading, time

PLAIN = "testdata/serve/plain/plain.ndjson"

def start(bin_, extra=()):
    p = subprocess.Popen([bin_, "serve", PLAIN, "--listen", "127.0.0.1:0", "--speed", "1000", "-q", *extra],
                         stderr=subprocess.PIPE, text=True)
    for line in p.stderr:
        m = re.search(r"listening on http://([\d.]+):(\d+)/", line)
        if m:
            threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
            return p, (m.group(1), int(m.group(2)))
    raise SystemExit("server did not start")

def sockets_of(pid):
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                n += 1
        except OSError:
            pass
    return n

def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

def slow(bin_, n):
    p, addr = start(bin_)
    time.sleep(0.3)
    idle = sockets_of(p.pid)
    conns, head = [], b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Pad: " + b"a" * 100
    for _ in range(n):
        s = socket.create_connection(addr)
        s.setblocking(False)
        conns.append(s)
    t0 = time.time()
    marks = {2: None, 15: None}
    i = 0
    while time.time() - t0 < 16.5:
        for s in conns:
            try:
                s.send(head[i:i + 1] or b"a")
            except OSError:
                pass
        i += 1
        el = time.time() - t0
        for m in marks:
            if marks[m] is None and el >= m:
                marks[m] = sockets_of(p.pid) - idle
        time.sleep(1)
    p.terminate()
    try:
        p.wait(10)
        stopped = "exits on SIGTERM"
    except subprocess.TimeoutExpired:
        p.kill()
        stopped = "still running 10 s after SIGTERM (killed)"
    print(f"{bin_}: {n} slow clients: server holds {marks[2]} connections at 2 s, {marks[15]} at 15 s; {stopped}")

def post(addr, thread):
    body = json.dumps({"threadId": thread, "runId": "r", "messages": []}).encode()
    s = socket.create_connection(addr)
    s.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
              + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    out = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        out += d
    s.close()
    return out.split(b" ", 2)[1].decode()

def threads(bin_):
    p, addr = start(bin_)
    time.sleep(0.3)
    r0 = rss_mb(p.pid)
    statuses = {}
    for i in range(200):
        st = post(addr, f"{i:06d}" + "x" * 500_000)
        statuses[st] = statuses.get(st, 0) + 1
    r1 = rss_mb(p.pid)
    print(f"{bin_}: RSS {r0:.1f} MB at start, {r1:.1f} MB after 200 requests with 500 KB thread ids (statuses {statuses})")
    for i in range(20_000):
        post(addr, f"{i:06d}" + "y" * 394)
    r2 = rss_mb(p.pid)
    print(f"{bin_}: RSS {r2:.1f} MB after 20,000 more threads with 400-byte ids")
    p.terminate()
    p.wait(10)

if __name__ == "__main__":
    bin_, what = sys.argv[1], sys.argv[2]
    if what == "slow":
        slow(bin_, int(sys.argv[3]) if len(sys.argv) > 3 else 1000)
    else:
        threads(bin_)
