"""Paddle core: matrix multiply on the CPU or GPU through libpaddle."""

from paddle._paddle import (DEVICE_CPU, DEVICE_DEFAULT, DEVICE_GPU,
                            build_info, matmul)

__all__ = ["DEVICE_CPU", "DEVICE_DEFAULT", "DEVICE_GPU", "build_info",
           "matmul", "__version__"]
__version__ = build_info()["version"]
