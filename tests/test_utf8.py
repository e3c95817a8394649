from bpe.book.chapters.display import show_tuple
from bpe.book.chapters.utf8 import census, describe


def test_describe_matches_the_article():
    assert describe("é")["byte values"] == [195, 169]
    assert describe("牛")["hex"] == "E7 89 9B"
    assert describe("🙃")["code point"] == "U+1F643"
    assert (describe("Xin chào")["characters"], describe("Xin chào")["bytes"]) == (8, 9)


def test_census_of_every_code_point():
    lengths, ascii_inside = census()
    assert lengths == {1: 128, 2: 1920, 3: 61440, 4: 1048576}
    assert sum(lengths.values()) == 1_112_064
    assert ascii_inside == 0


def test_show_tuple():
    assert show_tuple((b" ", b"n", b"\n")) == "(␣, n, ⏎)"
