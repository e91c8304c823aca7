#!/usr/bin/env python3
"""Start WsgiDAV (PyPI `wsgidav` with the `cheroot` server) on 127.0.0.1, on a port the OS picks.

Usage: wsgidav-server.py ROOT USER PASSWORD

Serves the folder ROOT with HTTP Basic authentication for one user, dead properties kept in
memory and locks in memory. Prints the port on stdout (one line, flushed), then serves until
stdin closes, so a test process that dies never leaves the server behind. Exit status 3 means
WsgiDAV or cheroot is not installed: `pip install wsgidav cheroot`.
"""

import logging
import sys
import threading

try:
    from cheroot import wsgi
    from wsgidav.wsgidav_app import WsgiDAVApp
except ImportError as error:  # pragma: no cover - depends on the machine
    print(f"WsgiDAV is not installed ({error}); run: pip install wsgidav cheroot", file=sys.stderr, flush=True)
    sys.exit(3)


def main() -> None:
    root, user, password = sys.argv[1], sys.argv[2], sys.argv[3]
    config = {
        "host": "127.0.0.1",
        "port": 0,
        "provider_mapping": {"/": root},
        "simple_dc": {"user_mapping": {"*": {user: {"password": password}}}},
        "http_authenticator": {"accept_basic": True, "accept_digest": False, "default_to_digest": False},
        "property_manager": True,
        "lock_storage": True,
        "verbose": 0,
        "logging": {"enable": False},
        "dir_browser": {"enable": False},
    }
    logging.disable(logging.CRITICAL)
    app = WsgiDAVApp(config)
    server = wsgi.Server(("127.0.0.1", 0), app, numthreads=16)
    server.prepare()
    print(server.bind_addr[1], flush=True)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    sys.stdin.read()
    server.stop()


if __name__ == "__main__":
    main()
