"""Screenshots of the notebook displays (`_repr_html_` of a Function, `to_code`, a profile) in
headless Chromium, as a notebook would show them.

    python tools/display_screenshots.py [OUTDIR]     (default: docs/images)

`screenshot(html, path)` and `read_png(path)` are also used by tests/graph/test_browser.py.
"""

from __future__ import annotations

import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser() -> str | None:
    """The path of a Chromium executable, or None."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def screenshot(html: str, path: pathlib.Path, size=(900, 700)) -> pathlib.Path:
    """Renders `html` (a fragment, as a notebook cell shows it) in headless Chromium and
    writes a PNG of `size` pixels to `path`."""
    exe = browser()
    if exe is None:
        raise RuntimeError("no Chromium found (Debian: apt-get install chromium)")
    page = (
        f'<!doctype html><html><meta charset="utf-8"><body style="margin:12px">{html}</body></html>'
    )
    with tempfile.TemporaryDirectory() as folder:
        source = pathlib.Path(folder) / "page.html"
        source.write_text(page, encoding="utf-8")
        subprocess.run(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={folder}/profile", f"--screenshot={path}",
             f"--window-size={size[0]},{size[1]}", source.as_uri()],
            capture_output=True, timeout=120, check=True,
        )  # fmt: skip
    return path


def read_png(path: pathlib.Path) -> np.ndarray:
    """The pixels of an 8-bit RGB or RGBA, non-interlaced PNG, as a (height, width, channels)
    uint8 array (what Chromium writes)."""
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and not interlace, header
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    out = np.zeros((height, stride), np.int32)
    prior = np.zeros(stride, np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        if kind == 0:
            cur = row
        elif kind == 2:
            cur = (row + prior) & 255
        elif kind == 1:  # Sub: a running sum per channel
            cur = np.cumsum(row.reshape(width, channels), axis=0).reshape(-1) & 255
        else:  # Average, Paeth: each byte depends on the one before it
            cur = row.copy()
            for x in range(stride):
                a = int(cur[x - channels]) if x >= channels else 0
                b = int(prior[x])
                if kind == 3:
                    cur[x] = (cur[x] + (a + b) // 2) & 255
                else:
                    c = int(prior[x - channels]) if x >= channels else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    cur[x] = (cur[x] + pred) & 255
        out[y] = cur
        prior = cur
    return out.astype(np.uint8).reshape(height, width, channels)


def pages() -> dict:
    """name -> HTML of the displays (docs/graph-mode.md keeps display-function.png)."""
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    from graph_pictures import staged_if, while_break

    import autoconv

    staged_if(np.ones(3))
    spec = autoconv.TensorSpec([None], np.float64)
    concrete = while_break.get_concrete_function(spec, autoconv.TensorSpec([], np.int64))
    return {
        "display-function": staged_if._repr_html_(),
        "display-to-code": autoconv.to_code(while_break)._repr_html_(),
        "display-profile": concrete.profile(np.ones(100_000), np.int64(5), runs=20)._repr_html_(),
    }


def main(argv: list[str]) -> int:
    out = pathlib.Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    sizes = {"display-function": (760, 1000), "display-to-code": (900, 560)}
    for name, html in pages().items():
        target = screenshot(html, out / f"{name}.png", sizes.get(name, (900, 420)))
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
