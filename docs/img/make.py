"""Draw the README's pictures from the bundled example evenings, so they never go stale.

    python docs/img/make.py            # all of them, into docs/img/

For each language (English: ``examples/sochi-3.json``; Russian: ``examples/rostov-3.json``)
the evening is cut after its first deals (a night still being played), served with
``prefcalc serve`` on 127.0.0.1, and photographed in Debian's chromium through Playwright at
a phone's 390×844 (at twice its pixels): the score page with a deal being chosen, and the watch page. The printed
pool sheet is ``prefcalc export pdf`` of the whole evening, its first page rendered by
poppler's ``pdftoppm``. Every picture is then reduced to a palette PNG (Pillow), a few dozen
KB each.

It needs the development install (``pip install -e ".[dev]"``: Playwright), chromium
(``PREFCALC_CHROMIUM``, else ``chromium`` on the PATH) and ``pdftoppm`` (poppler-utils). It
is not run by the tests (they only check that the pictures it makes are there and linked);
run it again after a change of the pages or of the sheet, and commit the PNGs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TOKEN = "readme-pictures-token"
PHONE = {"width": 390, "height": 844}
KEPT_DEALS = 12  # the served evening is cut here: a night still being played


@dataclass(frozen=True)
class Evening:
    lang: str  # the pages' language, and the pictures' suffix
    example: str  # a ledger of examples/
    declarer: str  # the deal chosen on the score page: who declares,
    contract: str  # the contract (its testid: 7h, 8s...),
    tricks: int  # the declarer's tricks,
    whister: str  # and who whists (the other defender passes)


EVENINGS = (
    Evening("en", "sochi-3.json", "Anna", "7h", 7, "Boris"),
    Evening("ru", "rostov-3.json", "Ирина", "8s", 8, "Глеб"),
)
# what each evening gives: docs/img/<kind>-<lang>.png
KINDS = ("score", "watch", "sheet")


def pictures() -> list[str]:
    """The file names this script writes (the tests check each is there and linked)."""
    return [f"{kind}-{e.lang}.png" for e in EVENINGS for kind in KINDS]


def _chromium() -> str:
    given = os.environ.get("PREFCALC_CHROMIUM")
    if given and Path(given).exists():
        return given
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    sys.exit("make.py: chromium is needed (set PREFCALC_CHROMIUM)")


def _prefcalc(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "prefcalc", *args],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )


def _small(source: Path, target: Path) -> None:
    """``source`` as a palette PNG at ``target``: the pages and the sheet have few colours."""
    from PIL import Image

    with Image.open(source) as image:
        small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        small.save(target, optimize=True)


class Served:
    """``prefcalc serve`` of one ledger on 127.0.0.1, on a port the system picked."""

    def __init__(self, ledger: Path, lang: str, env: dict[str, str]) -> None:
        command = [sys.executable, "-m", "prefcalc", "--lang", lang, "serve", "--file"]
        command += [str(ledger), "--host", "127.0.0.1", "--port", "0", "--token", TOKEN]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:  # the link lines come first; wait for the score one
            if "/score#token=" in line:
                self.score = line[line.index("http") :].strip()
                self.watch = self.score.split("/score#", 1)[0] + "/"
                return
        self.process.wait()
        sys.exit(f"make.py: prefcalc serve stopped (exit {self.process.returncode})")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def _cut(example: Path, target: Path) -> None:
    """The example evening with its first ``KEPT_DEALS`` entries only."""
    ledger = json.loads(example.read_text(encoding="utf-8"))
    ledger["deals"] = ledger["deals"][:KEPT_DEALS]
    target.write_text(json.dumps(ledger, ensure_ascii=False, indent=2), encoding="utf-8")


def _phone_pictures(browser: object, evening: Evening, served: Served, work: Path) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    wait = 30_000
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(served.score)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=wait)
        for testid in (
            f"declarer:{evening.declarer}",
            f"contract:{evening.contract}",
            f"tricks:{evening.tricks}",
            f"role:{evening.whister}:w",
        ):
            page.get_by_test_id(testid).click()
        page.screenshot(path=str(work / "score.png"))
        page.goto(served.watch)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=wait)
        expect(page.locator("body")).to_have_attribute(
            "data-deals", re.compile(r"\d+"), timeout=wait
        )
        expect(page.get_by_test_id("sheet").locator("svg")).to_be_visible(timeout=wait)
        page.screenshot(path=str(work / "watch.png"))
    finally:
        context.close()
    _small(work / "score.png", HERE / f"score-{evening.lang}.png")
    _small(work / "watch.png", HERE / f"watch-{evening.lang}.png")


def _sheet_picture(evening: Evening, env: dict[str, str], work: Path) -> None:
    pdf = work / "sheet.pdf"
    ledger = ROOT / "examples" / evening.example
    _prefcalc(
        "--lang", evening.lang, "export", "pdf", "--file", str(ledger), "-o", str(pdf), env=env
    )
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "100",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(work / "sheet"),
        ],
        check=True,
    )
    _small(work / "sheet.png", HERE / f"sheet-{evening.lang}.png")


def main() -> None:
    from playwright.sync_api import sync_playwright

    if shutil.which("pdftoppm") is None:
        sys.exit("make.py: pdftoppm is needed (poppler-utils)")
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as p:
        # a data folder of its own: no token, cache or current game of yours is touched
        env = dict(os.environ, XDG_DATA_HOME=str(Path(temp) / "data"))
        env.pop("PREFCALC_FILE", None)
        browser = p.chromium.launch(
            executable_path=_chromium(), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            for evening in EVENINGS:
                work = Path(temp) / evening.lang
                work.mkdir()
                ledger = work / evening.example
                _cut(ROOT / "examples" / evening.example, ledger)
                served = Served(ledger, evening.lang, env)
                try:
                    _phone_pictures(browser, evening, served, work)
                finally:
                    served.stop()
                _sheet_picture(evening, env, work)
        finally:
            browser.close()
    for name in pictures():
        print(f"{name}: {(HERE / name).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
