"""``prefcalc play`` on standard input as a careless script or a busy machine treats it: each
line stands alone (bad bytes, a huge line), the exit code says whether a line was refused,
and a closed input or output is neither a traceback nor a misreported deal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from prefcalc import api, play

DEAL_1 = b"a 7h 7 b:w v:p\n"
DEAL_2 = b"b 6s 6 v:w a:p\n"
HUNG = 120  # seconds: only a hung session ever waits this long


def _new(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    api.save(api.new_game(["Anna", "Boris", "Vera"], "sochi", 20), path)
    return path


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8"}
    env.pop("PREFCALC_FILE", None)
    return env


def _play(
    tmp_path: Path, path: Path, data: bytes, before: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The real ``prefcalc play`` on stdin; ``before`` runs in the child before it starts
    (to close one of its standard streams)."""
    return subprocess.run(
        [sys.executable, "-m", "prefcalc", "play", "--file", str(path)],
        input=data,
        capture_output=True,
        env=_env(tmp_path),
        timeout=HUNG,
        check=False,
        preexec_fn=before,
    )


def test_exit_code_is_0_when_every_line_was_accepted(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = _play(tmp_path, path, DEAL_1 + b"# a comment\n\nshow\n" + DEAL_2)
    assert result.returncode == 0 and result.stderr == b""
    assert len(api.load(path).entries) == 2


def test_a_line_of_invalid_utf8_is_refused_alone(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = _play(tmp_path, path, DEAL_1 + b"v 6s 6 a:w b:p \xff\xfe\n" + DEAL_2)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        "prefcalc: error: line 2: the line is not UTF-8 text (byte 0xff at column 16)"
        " and was not read\n"
    )
    assert [e.dealer for e in api.load(path).entries] == ["Anna", "Boris"]


def test_a_byte_order_mark_on_the_first_line_is_dropped(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = _play(tmp_path, path, b"\xef\xbb\xbf" + DEAL_1 + b"\r\n".join([b"show", b""]))
    assert result.returncode == 0, result.stderr
    assert len(api.load(path).entries) == 1


def test_a_1mb_line_is_refused_before_it_is_split_into_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    split = shlex.split
    seen: list[int] = []

    def counting(text: str) -> list[str]:
        seen.append(len(text))
        return split(text)

    monkeypatch.setattr(shlex, "split", counting)  # as play calls it
    path = _new(tmp_path)
    huge = b"a 7h 7 b:w v:p " + b"x" * (1024 * 1024) + b"\n"
    out, err = io.StringIO(), io.StringIO()
    assert play.run_lines(path, io.BytesIO(huge + DEAL_1), out, err) == 2
    assert err.getvalue() == (
        "prefcalc: error: line 1: the line is too long (1,048,591 bytes; a line is at most "
        "4,096 bytes) and was not read\n"
    )
    assert max(seen) < play.MAX_LINE  # only the deal on line 2 was split into words
    assert len(api.load(path).entries) == 1


def test_the_longest_line_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    path = _new(tmp_path)
    longest = b"#" * play.MAX_LINE + b"\n"  # a comment: read and ignored
    too_long = b"#" * (play.MAX_LINE + 1)  # the last line, without its newline
    out, err = io.StringIO(), io.StringIO()
    assert play.run_lines(path, io.BytesIO(longest + DEAL_1 + too_long), out, err) == 2
    assert err.getvalue().startswith("prefcalc: error: line 3: the line is too long (4,097 bytes")
    assert len(api.load(path).entries) == 1


def test_a_huge_line_through_the_console_script(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = _play(tmp_path, path, b"x" * (1024 * 1024) + b"\n" + DEAL_1)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        "prefcalc: error: line 1: the line is too long (1,048,576 bytes; a line is at most "
        "4,096 bytes) and was not read"
    ]
    assert len(api.load(path).entries) == 1


def test_a_closed_stdin_is_an_empty_session(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = _play(tmp_path, path, b"", before=lambda: os.close(0))
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


def test_a_closed_stdout_still_records_every_deal(tmp_path: Path) -> None:
    """A standard output closed before prefcalc started (``>&-``) is a choice, handled for
    every command alike by the CLI's guard: the results go to the null device, silently, and
    every line is still carried out (a pipe that breaks mid-session is noted, below)."""
    path = _new(tmp_path)
    result = _play(tmp_path, path, DEAL_1 + b"show\n" + DEAL_2, before=lambda: os.close(1))
    assert (result.returncode, result.stderr) == (0, b"")
    assert len(api.load(path).entries) == 2


def test_a_broken_pipe_on_stdout_never_reports_a_recorded_deal_as_failed(tmp_path: Path) -> None:
    path = _new(tmp_path)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first result (`| head -c0`)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "prefcalc", "play", "--file", str(path)],
            input=DEAL_1 + b"show\n" + DEAL_2 + b"zzz\n",
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=_env(tmp_path),
            timeout=HUNG,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == 2  # line 4 only
    assert result.stderr.decode().splitlines() == [
        "prefcalc: the output is closed (Broken pipe); the lines are still carried out and "
        "recorded, without their results",
        "prefcalc: error: line 4: 'zzz' is neither a command nor a player "
        "(type help for the commands)",
    ]
    assert len(api.load(path).entries) == 2


def test_a_reader_that_leaves_after_one_byte(tmp_path: Path) -> None:
    path = _new(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "prefcalc", "play", "--file", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(tmp_path),
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(DEAL_1)
    proc.stdin.flush()
    assert proc.stdout.read(1) == b"r"  # `| head -c1`: the first result has begun
    proc.stdout.close()
    proc.stdin.write(b"show\n" + DEAL_2 + b"show\n")
    proc.stdin.close()
    code = proc.wait(timeout=HUNG)
    errors = proc.stderr.read().decode()
    proc.stderr.close()
    assert code == 0
    assert "error" not in errors and "Traceback" not in errors
    assert len(api.load(path).entries) == 2


def test_an_input_that_fails_is_one_refusal_after_the_lines_read(tmp_path: Path) -> None:
    class Failing(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            line = super().readline(size)
            if not line:
                raise OSError(5, "Input/output error")
            return line

    path = _new(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert play.run_lines(path, Failing(DEAL_1), out, err) == 2
    assert err.getvalue() == (
        "prefcalc: error: line 2: cannot read standard input: Input/output error\n"
    )
    assert len(api.load(path).entries) == 1
