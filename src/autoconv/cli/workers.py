"""`convert --jobs N`: worker processes that stop when told and die with their parent.

Each worker is a fresh interpreter (`python -c`, never a fork: a fork copies the parent's locks
and threads) connected to the parent by two pipes. The parent sends one `Task` at a time, as a
length-prefixed pickle on the worker's stdin, and reads its `FileResult` back from the worker's
stdout. A worker

- runs in its own session and ignores SIGINT: Ctrl-C reaches the parent, which stops the
  workers;
- turns SIGTERM into a clean exit, which deletes the temporary file it was writing;
- dies with its parent: Linux's `PR_SET_PDEATHSIG` sends it SIGKILL when the parent dies, even
  by `kill -9`; elsewhere a thread polls `os.getppid()`;
- leaves when its stdin closes.

On Ctrl-C (or SIGTERM) the parent sends SIGTERM to every worker, waits at most
`STOP_GRACE_S`, kills the ones left, and raises `KeyboardInterrupt` (for SIGTERM it then dies
by SIGTERM itself, as a process killed by it should).
"""

import collections
import os
import pickle
import selectors
import signal
import struct
import subprocess
import sys
import threading
import time

STOP_GRACE_S = 0.5
"""How long stopped workers get to delete their temporary files before SIGKILL."""

_HEADER = struct.Struct(">Q")
_PR_SET_PDEATHSIG = 1

_BOOT = (
    "import sys; sys.path[:] = sys.argv[2:]; "
    "from autoconv.cli.workers import serve; serve(int(sys.argv[1]))"
)
"""The worker's `-c` program: the parent's `sys.path` replaces the one `-c` starts with, whose
first entry is the current folder (a file there named like a module must not be imported)."""


class _Terminated(BaseException):
    """The parent received SIGTERM."""


def convert_all(tasks: list, order: list, jobs: int, convert_file, on_done) -> list:
    """Results of `tasks` (in their order), converted in `jobs` worker processes in the order
    `order`; calls `on_done(i)` as each task `i` finishes. `convert_file` converts in-process
    a task whose worker died (so that its error is reported, not lost)."""
    results = [None] * len(tasks)
    pending = collections.deque(order)
    previous = _install_sigterm()
    workers = []
    try:
        for _ in range(min(jobs, len(tasks))):
            workers.append(_Worker.start())
        with selectors.DefaultSelector() as selector:
            for worker in workers:
                selector.register(worker.output, selectors.EVENT_READ, worker)
                _give(worker, tasks, pending)
            while any(w.task is not None for w in workers):
                for key, _ in selector.select():
                    worker = key.data
                    i, result = worker.task, worker.receive()
                    if result is None:  # the worker died: convert here, to report why
                        selector.unregister(worker.output)
                        worker.stop()
                        result = convert_file(tasks[i])
                    results[i] = result
                    on_done(i)
                    _give(worker, tasks, pending)
        while pending:  # every worker died
            i = pending.popleft()
            results[i] = convert_file(tasks[i])
            on_done(i)
        for worker in workers:
            worker.finish()
    except _Terminated:
        _stop_all(workers)
        _die_by_sigterm()
    except BaseException:
        _stop_all(workers)
        raise
    finally:
        _restore_sigterm(previous)
    return results


def _give(worker, tasks, pending) -> None:
    if worker.alive and pending:
        i = pending.popleft()
        worker.send(i, tasks[i])
    else:
        worker.task = None


class _Worker:
    """One worker process and its two pipes."""

    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.output = process.stdout
        self.task = None
        self.alive = True

    @classmethod
    def start(cls) -> "_Worker":
        process = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(os.getpid()), *_worker_path()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            # Its own session: Ctrl-C at the terminal reaches the parent only, which stops
            # the workers itself (a worker still starting up would print a traceback).
            start_new_session=True,
        )
        return cls(process)

    def send(self, i: int, task) -> None:
        self.task = i
        data = pickle.dumps(task)
        try:
            self.process.stdin.write(_HEADER.pack(len(data)) + data)
            self.process.stdin.flush()
        except OSError:
            self.alive = False  # it died; `receive` sees the end of its output

    def receive(self):
        """The next result, or None when the worker has gone."""
        header = _read_exactly(self.output, _HEADER.size)
        data = _read_exactly(self.output, _HEADER.unpack(header)[0]) if header else None
        if data is None:
            self.alive = False
            return None
        return pickle.loads(data)

    def finish(self) -> None:
        """Closes its stdin, so it leaves, and waits for it."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.wait()
        self.output.close()

    def stop(self) -> None:
        self.alive = False
        _stop_all([self])


def _read_exactly(stream, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _worker_path() -> list:
    """The parent's `sys.path` without the current folder, and with the folder autoconv is
    imported from."""
    import autoconv

    cwd = os.getcwd()
    path = [p for p in sys.path if p and os.path.abspath(p) != cwd]
    home = os.path.dirname(os.path.dirname(os.path.abspath(autoconv.__file__)))
    return path if home in path else [home, *path]


def _stop_all(workers: list) -> None:
    """SIGTERM to each live worker; SIGKILL to those alive after `STOP_GRACE_S`."""
    live = [w.process for w in workers if w.process.poll() is None]
    for process in live:
        for stop in (process.stdin.close, process.terminate):
            try:
                stop()
            except OSError:
                pass
    deadline = time.monotonic() + STOP_GRACE_S
    for process in live:
        try:
            process.wait(max(deadline - time.monotonic(), 0))
        except subprocess.TimeoutExpired:
            try:
                process.kill()
            except OSError:
                pass
            process.wait()


def _install_sigterm():
    if threading.current_thread() is not threading.main_thread():
        return None

    def terminated(number, frame):
        raise _Terminated()

    return signal.signal(signal.SIGTERM, terminated)


def _restore_sigterm(previous) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def _die_by_sigterm() -> None:
    """Ends this process by SIGTERM, as it was asked to, once the workers are stopped."""
    sys.stdout.flush()
    sys.stderr.flush()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(1)  # the signal arrives before this ends
    raise SystemExit(128 + signal.SIGTERM)


# The worker side.


def serve(parent: int) -> None:
    """A worker's main loop: convert tasks from stdin until it closes."""
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    # The protocol owns the real stdout; anything the converter prints goes to stderr.
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    from autoconv.cli.convert_cmd import convert_file

    try:
        while True:
            header = _read_exactly(requests, _HEADER.size)
            if header is None:
                return
            task = pickle.loads(_read_exactly(requests, _HEADER.unpack(header)[0]))
            data = pickle.dumps(convert_file(task))
            replies.write(_HEADER.pack(len(data)) + data)
            replies.flush()
    except (SystemExit, BrokenPipeError, OSError):
        pass
    finally:
        os._exit(0)


def _exit_on_sigterm(number, frame):
    raise SystemExit(128 + number)  # unwinds through write_atomic, which deletes its temporary


def _die_with_parent(parent: int) -> None:
    """Arranges for this process to end when the process `parent` does."""
    if _set_parent_death_signal() and os.getppid() == parent:
        return
    if os.getppid() != parent:  # the parent died before the arrangement
        os._exit(1)

    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="autoconv-parent-watch", daemon=True).start()


def _set_parent_death_signal() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
