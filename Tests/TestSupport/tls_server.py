#!/usr/bin/env python3
"""A loopback HTTPS server for the fetch tests, whose certificate no CA vouches for.

    tls_server.py DIR      makes a self-signed certificate for 127.0.0.1 in DIR (openssl),
                           serves DIR over TLS, and prints "PORT <n>" once listening
"""
import os
import signal
import ssl
import subprocess
import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
cert, key = os.path.join(ROOT, "cert.pem"), os.path.join(ROOT, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
               check=True, capture_output=True)


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=ROOT))
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
