"""Keys of versions: a version ending in .0 is the whole version."""
import pytest

from kg.text.keys import match_key


@pytest.mark.parametrize("written, same_as, same", [
    ("Zorbench 2.0", "Zorbench-2", True),  # a version ending in .0 is the whole version
    ("Zorbench v3.00", "Zorbench v3", True),
    ("Zorbench 2.5", "Zorbench 2", False),
    ("Zorbench 2.05", "Zorbench 2", False),
])
def test_a_version_ending_in_point_zero_is_the_whole_version(written, same_as, same):
    assert (match_key(written) == match_key(same_as)) is same
