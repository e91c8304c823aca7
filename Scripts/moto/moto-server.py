#!/usr/bin/env python3
"""Start moto's S3-compatible server on 127.0.0.1, on a port the OS picks.

Prints the port on stdout (one line, flushed), then serves until stdin closes, so a test
process that dies never leaves the server behind. Exit status 3 means moto (with its server
extra: Flask and Werkzeug) is not installed: `pip install 'moto[server]'`.

Options:
  --cut-downloads-after BYTES   The first GET without a Range of each object whose key has a
                                `cut-me/` folder sends only BYTES bytes of the body and then
                                drops the connection (to test resumed downloads).

Environment: S3_UPLOAD_PART_MIN_SIZE (bytes) lowers moto's smallest accepted part, which is
5 MiB like S3's by default; it must be set before moto is imported, so pass it to this process.
"""

import argparse
import logging
import sys
import threading

try:
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import make_server
except ImportError as error:  # pragma: no cover - depends on the machine
    print(f"moto is not installed ({error}); run: pip install 'moto[server]'", file=sys.stderr, flush=True)
    sys.exit(3)


class CutFirstDownloads:
    """WSGI middleware: cuts the first whole-object GET of each `cut-me/` key short."""

    def __init__(self, app, after: int) -> None:
        self.app = app
        self.after = after
        self.seen: set[str] = set()
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_RANGE" in environ or "/cut-me/" not in path:
            return self.app(environ, start_response)
        with self.lock:
            first = path not in self.seen
            self.seen.add(path)
        if not first:
            return self.app(environ, start_response)
        captured = {}

        def capture(status, headers, exc_info=None):
            captured["status"], captured["headers"] = status, headers
            return lambda data: None

        body = b"".join(self.app(environ, capture))
        start_response(captured["status"], captured["headers"])

        def cut():
            yield body[: self.after]
            raise ConnectionAbortedError("download cut short on purpose")

        return cut()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cut-downloads-after", type=int, default=None)
    arguments = parser.parse_args()
    # One log line per request would fill a pipe nobody reads and stall the server.
    logging.getLogger("werkzeug").setLevel(logging.CRITICAL)

    app = DomainDispatcherApplication(create_backend_app)
    if arguments.cut_downloads_after is not None:
        app = CutFirstDownloads(app, arguments.cut_downloads_after)
    # Port 0: the OS picks a free port.
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)

    closed = threading.Event()

    def watch_stdin() -> None:
        try:
            while sys.stdin.buffer.read(4096):
                pass
        finally:
            closed.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    closed.wait()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
