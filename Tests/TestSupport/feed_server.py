#!/usr/bin/env python3
"""A loopback HTTP server for the fetch tests: serves DIR, and misbehaves on request.

    feed_server.py DIR        prints "PORT <n>" once listening on 127.0.0.1

    /ok/FILE               200 with ETag and Last-Modified; 304 when If-None-Match or
                           If-Modified-Since matches
    /flaky/N/FILE          503 for the first N requests to that path, then as /ok/FILE
    /status/CODE           that status, with a short HTML body
    /html/FILE             200 with an HTML page, Content-Type text/html
    /slow/SECONDS/FILE     waits, then as /ok/FILE
    /requests/PATH         how many requests PATH has had (JSON)
    /stall/FILE            200 announcing FILE's length, half of it, then nothing (until killed)
    /trickle/FILE          200, then FILE a byte every 0.2 s
    /redirect-http/FILE    302 to http://(this server)/ok/FILE
    /redirect-loop/N       302 to /redirect-loop/N+1, forever
"""
import hashlib
import json
import os
import signal
import sys
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
COUNTS = {}
LOCK = threading.Lock()
LAST_MODIFIED = formatdate(1_790_000_000, usegmt=True)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/xml", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def serve_file(self, name):
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path):
            return self.send_body(404, b"<html><body>Not Found</body></html>", "text/html")
        with open(path, "rb") as source:
            body = source.read()
        etag = '"' + hashlib.sha1(body).hexdigest() + '"'
        # RFC 9110 13.2.2: If-None-Match, when sent, decides alone (a file that changed within
        # the same Last-Modified second is still new).
        match = self.headers.get("If-None-Match")
        unchanged = match == etag if match is not None else self.headers.get("If-Modified-Since") == LAST_MODIFIED
        if unchanged:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_body(200, body, headers=[("ETag", etag), ("Last-Modified", LAST_MODIFIED)])

    def do_GET(self):
        with LOCK:
            COUNTS[self.path] = COUNTS.get(self.path, 0) + 1
            count = COUNTS[self.path]
        parts = self.path.strip("/").split("/")
        kind = parts[0]
        if kind == "ok":
            self.serve_file(parts[1])
        elif kind == "flaky":
            if count <= int(parts[1]):
                self.send_body(503, b"<html><body>busy</body></html>", "text/html")
            else:
                self.serve_file(parts[2])
        elif kind == "status":
            self.send_body(int(parts[1]), b"<html><body>status</body></html>", "text/html")
        elif kind == "html":
            self.send_body(200, b"<!DOCTYPE html>\n<html><body><h1>Maintenance</h1></body></html>\n", "text/html")
        elif kind == "slow":
            time.sleep(float(parts[1]))
            self.serve_file(parts[2])
        elif kind in ("stall", "trickle"):
            with open(os.path.join(ROOT, parts[1]), "rb") as source:
                body = source.read()
            self.send_response(200)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if kind == "stall":
                self.wfile.write(body[:len(body) // 2])
                self.wfile.flush()
                time.sleep(3600)
            else:
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.2)
        elif kind == "redirect-http":
            self.send_body(302, b"", "text/plain", headers=[("Location", f"http://127.0.0.1:{self.server.server_address[1]}/ok/{parts[1]}")])
        elif kind == "redirect-loop":
            self.send_body(302, b"", "text/plain", headers=[("Location", f"/redirect-loop/{int(parts[1]) + 1}")])
        elif kind == "requests":
            with LOCK:
                body = json.dumps(COUNTS.get("/" + "/".join(parts[1:]), 0)).encode()
            self.send_body(200, body, "application/json")
        else:
            self.send_body(404, b"<html><body>Not Found</body></html>", "text/html")


# A child inherits its parent thread's signal mask, and the test runner's threads block SIGTERM.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
