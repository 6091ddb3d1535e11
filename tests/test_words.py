"""The games' shared English: a point, points."""

from __future__ import annotations

import pytest

from bus_lab.engine.words import points_text


@pytest.mark.parametrize(
    "n,text", [(1, "1 point"), (-1, "-1 point"), (0, "0 points"), (2, "2 points"), (-16, "-16 points")]
)
def test_one_point_is_singular(n, text):
    assert points_text(n) == text
