# Round 28 (T113's "Left:"): answers the kernel takes whole, asked with `Connection: close`. K connections one after
# another, each with a 4 KiB receive buffer, sends GET PATH with TOKEN and Connection: close and never reads; after
# H seconds, counts what each connection got (server FIN or RST behind the unread bytes, or nothing yet).
# python3 close-hold.py HOST PORT TOKEN PATH K H; prints {held, refused}.
import json, socket, sys, time
host, port, token, path, k, h = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), float(sys.argv[6])
req = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode()
socks, refused = [], 0
for _ in range(k):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        s.connect((host, port))
        s.sendall(req)
        socks.append(s)
    except OSError:
        refused += 1
        s.close()
    time.sleep(0.02)
time.sleep(h)
print(json.dumps({"held": len(socks), "refused": refused}))
for s in socks:
    s.close()
