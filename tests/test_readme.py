"""README.md shows real output: its tour code runs and its `to_code` listing is current."""

import pathlib
import re

import autoconv

README = pathlib.Path(__file__).parents[1] / "README.md"


def _blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_tour_runs_and_its_listing_is_what_to_code_prints(tmp_path):
    tour, listing = _blocks()[:2]
    module_file = tmp_path / "tour.py"
    module_file.write_text(tour.replace("print(autoconv.to_code(g))", ""))
    namespace = {"__name__": "tour"}
    exec(compile(module_file.read_text(), str(module_file), "exec"), namespace)
    assert autoconv.to_code(namespace["g"]) == listing
