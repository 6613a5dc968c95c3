"""The notebook displays rendered by a real browser (headless Chromium): screenshots of a
Function, `to_code` and a profile have the page's size, are not blank, and show the colours
the HTML asks for (the highlighter's keyword purple, the picture's green inputs, the profile's
blue share bars)."""

import importlib.util
import pathlib

import numpy as np
import pytest

import autoconv
from tests.system_tools import require

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "display_screenshots.py"
_spec = importlib.util.spec_from_file_location("display_screenshots", TOOL)
shots = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shots)


@autoconv.function
def clipped(x, limit):
    if np.sum(x) > limit:
        x = x / np.sum(x)
    return x


def has_colour(pixels: np.ndarray, hex_colour: str, tolerance: int = 12) -> bool:
    rgb = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])
    return bool((np.abs(pixels[..., :3].astype(int) - rgb).max(axis=-1) <= tolerance).any())


def check_not_blank(pixels: np.ndarray, size) -> None:
    assert pixels.shape[:2] == (size[1], size[0])
    colours = np.unique(pixels.reshape(-1, pixels.shape[2]), axis=0)
    assert len(colours) > 30, len(colours)
    ink = (pixels[..., :3].min(axis=-1) < 160).mean()  # text and lines
    assert 0.003 < ink < 0.5, ink


@pytest.mark.parametrize(
    "name, colour",
    [("function", "#d9f2d9" if shots.shutil.which("dot") else "#f7f7f7"),
     ("to_code", "#7928a1"),
     ("profile", "#cfe2ff")],
)  # fmt: skip
def test_displays_render_in_a_browser(tmp_path, name, colour):
    require("Chromium", shots.browser(), "Debian: apt-get install chromium")
    clipped(np.ones(4), 2.0)
    concrete = clipped.get_concrete_function(np.ones(4), 2.0)
    html = {
        "function": lambda: clipped._repr_html_(),
        "to_code": lambda: autoconv.to_code(clipped)._repr_html_(),
        "profile": lambda: concrete.profile(np.ones(4), 2.0, runs=3)._repr_html_(),
    }[name]()
    size = (800, 600)
    pixels = shots.read_png(shots.screenshot(html, tmp_path / f"{name}.png", size))
    check_not_blank(pixels, size)
    assert has_colour(pixels, colour), colour
