"""A blocking wrapper of the asyncio client for synchronous agent loops: the event loop runs in
a background thread; every call blocks until the server has answered (or ``timeout``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import Any, Awaitable, Callable, Dict, List, Optional, TypeVar, Union

from .errors import SteplensError
from .session import Frame, Session
from .stream import Reconnect, StreamClient, connect

T = TypeVar("T")


class SyncClient:
    """A blocking :class:`StreamClient`. Listener callbacks run on the client's own thread."""

    def __init__(self, url: str, *, token: Optional[str] = None, reconnect: Union[bool, Reconnect] = True,
                 timeout: float = 120.0, max_frame_bytes: int = 1024 * 1024) -> None:
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="steplens-client", daemon=True)
        self._thread.start()
        try:
            self.client: StreamClient = self.call(connect(url, token=token, reconnect=reconnect, max_frame_bytes=max_frame_bytes))
        except BaseException:
            self._stop()
            raise

    def call(self, coro: Awaitable[T], timeout: Optional[float] = None) -> T:
        """Runs a coroutine on the client's loop and waits for it."""
        if self._loop.is_closed():
            if asyncio.iscoroutine(coro):
                coro.close()  # never run: no "never awaited" warning
            raise SteplensError("closed", "the client is closed")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)  # type: ignore[arg-type]
        try:
            return future.result(self.timeout if timeout is None else timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise SteplensError("timeout", f"no answer from the server within {self.timeout if timeout is None else timeout} s") from None

    def start(self, task: str, **kwargs: Any) -> "SyncSession":
        """Opens a session (see :meth:`StreamClient.start`)."""
        return SyncSession(self, self.call(self.client.start(task, **kwargs)))

    def resume(self, session_id: str) -> "SyncSession":
        """Attaches a session the server holds (see :meth:`StreamClient.resume`)."""
        return SyncSession(self, self.call(self.client.resume(session_id)))

    def ping(self) -> None:
        self.call(self.client.ping())

    @property
    def reconnects(self) -> int:
        return self.client.reconnects

    def drop_socket(self) -> None:
        """Cuts the TCP connection without a close handshake, as a network failure would (tests, chaos drills)."""
        self._loop.call_soon_threadsafe(lambda: self.client.socket.transport.abort())

    def close(self) -> None:
        """Closes the connection and stops the client's thread."""
        if self._thread.is_alive():
            try:
                self.call(self.client.close(), timeout=10)
            finally:
                self._stop()

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> "SyncClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class SyncSession:
    """A blocking :class:`Session`; ``scores``, ``signals``, ``final``, ``reference``... are the session's."""

    def __init__(self, owner: SyncClient, session: Session) -> None:
        self._owner = owner
        self.session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    def step(self, payload: Any) -> List[Frame]:
        """Sends one step payload; returns its score frames."""
        return self._owner.call(self.session.step(payload))

    def outcome(self, passed: bool) -> None:
        self._owner.call(self.session.outcome(passed))

    def end(self) -> Dict[str, Any]:
        """Ends the session; returns the ``final`` frame."""
        return self._owner.call(self.session.end())

    def on_score(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        return self.session.on_score(callback)

    def on_signal(self, callback: Callable[[Frame], None]) -> Callable[[], None]:
        return self.session.on_signal(callback)
