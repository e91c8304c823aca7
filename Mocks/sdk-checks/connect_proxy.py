"""A CONNECT proxy for clients that reach a provider by its real host name: every tunnel to
HOST:443 goes to 127.0.0.1:PORT (the mock, serving a certificate valid for HOST); any other
target is refused with 403, so nothing leaves the machine.

Usage: connect_proxy.py HOST PORT PORTFILE. The proxy listens on a free loopback port and writes
it to PORTFILE. Used by run-onedrive-rclone-check.sh (rclone's Graph URL is fixed).
"""
import asyncio
import sys

host, port, portfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def handle(reader, writer):
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        writer.close()
        return
    parts = head.split(b" ")
    name = parts[1].decode(errors="replace").rpartition(":")[0] if len(parts) > 1 else ""
    if parts[0] != b"CONNECT" or name != host:
        writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
        writer.close()
        return
    upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    with open(portfile, "w") as file:
        file.write(str(server.sockets[0].getsockname()[1]))
    async with server:
        await server.serve_forever()


asyncio.run(main())
