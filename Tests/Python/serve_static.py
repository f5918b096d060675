"""A static file server for the IIIF tests: serves a folder over loopback
HTTP as any web server would serve a bundle's document/ folder, with the
CORS header viewers (and the IIIF validator) ask for. Prints the port it
listens on, then serves until its standard input closes (the test is done
with it, or has died) or it is sent SIGTERM.

    python serve_static.py FOLDER
"""
import functools
import http.server
import signal
import sys
import threading


class Handler(http.server.SimpleHTTPRequestHandler):
    # info.json is JSON-LD; level 0 allows either type, and viewers read both.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".json": "application/json"}

    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format, *args):
        pass


def main():
    # A process started from a thread of the test runner inherits its
    # blocked signals; without this, SIGTERM would never reach the server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    folder = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))

    def stop_when_stdin_closes():
        sys.stdin.buffer.read()
        server.shutdown()

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
