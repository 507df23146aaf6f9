#!/usr/bin/env python3
"""Serves a folder on 127.0.0.1 on a port the server itself binds and keeps (port 0: the system
picks a free one), and writes that port to a file once it accepts connections (test.sh waits
for the file). No window between choosing a port and binding it, so no other process can take
it.

Every response carries `Cross-Origin-Opener-Policy: same-origin` and
`Cross-Origin-Embedder-Policy: require-corp`: the page is cross-origin isolated
(`crossOriginIsolated`), so the browser's clock (`performance.now()`, which times vgpu's
`FrameReport::encode` on wasm) is coarsened to 5 µs instead of 100 µs in Chromium. The page
loads nothing from another origin.

Usage: serve.py <folder> <port-file>
"""

import functools
import http.server
import os
import sys


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main() -> int:
    folder, port_file = sys.argv[1], sys.argv[2]
    handler = functools.partial(Quiet, directory=folder)
    # Binds and listens here: connections queue from now on.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # Written whole, then renamed: a reader never sees a partial port.
    with open(port_file + ".tmp", "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
