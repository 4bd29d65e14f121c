# Answers nobody reads (T113): K connections, each with a 4 KiB receive buffer, send P pipelined
# GET PATH with TOKEN and never read; after H seconds, counts the connections the server reset or closed.
# Requests go round the connections one at a time, G ms apart (the server builds a tenant's step views 16 at a time).
# python3 hold.py HOST PORT TOKEN PATH K P G H; prints {held, reset, closed, open}.
import json, socket, sys, time
host, port, token, path, k, p, g, h = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8])
req = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
socks = []
for _ in range(k):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        s.connect((host, port))
        socks.append(s)
    except OSError:
        s.close()
start = time.time()
for _ in range(p):
    for s in socks:
        try:
            s.sendall(req)
        except OSError:
            pass
        time.sleep(g / 1000)
time.sleep(max(0, h - (time.time() - start)))
reset = closed = still = 0
for s in socks:
    # What the client's buffer holds comes first, then the server's RST or FIN, else nothing more (EAGAIN): still open.
    try:
        while True:
            if s.recv(65536, socket.MSG_DONTWAIT) == b"":
                closed += 1
                break
    except BlockingIOError:
        still += 1
    except (ConnectionResetError, BrokenPipeError):
        reset += 1
    except OSError:
        closed += 1
    s.close()
print(json.dumps({"held": len(socks), "reset": reset, "closed": closed, "open": still}))
