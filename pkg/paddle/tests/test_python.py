"""Checks the Python binding: build_info names the variant built, and
matmul agrees with a product computed here."""
import sys

import paddle

want_variant = sys.argv[1]
info = paddle.build_info()
assert info["variant"] == want_variant, info
assert paddle.__version__ == info["version"]

a = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
b = [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]
want = [[58.0, 64.0], [139.0, 154.0]]
got = paddle.matmul(a, b, paddle.DEVICE_CPU)
assert got == want, got

try:
    paddle.matmul(a, a)
except ValueError as e:
    assert "do not multiply" in str(e), e
else:
    raise AssertionError("2x3 times 2x3 was accepted")
print("python binding ok:", info)
