/* Paddle core: the public C API of libpaddle.
 *
 * One compute kernel, a single-precision matrix multiply (C = A x B, all
 * matrices row-major), built for the device and instruction set chosen when
 * the library was compiled (WITH_GPU, WITH_AVX). Every exported symbol
 * starts with "paddle_" and carries the symbol version PADDLE_1.
 */
#ifndef PADDLE_PADDLE_H
#define PADDLE_PADDLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the library exports: it is built with hidden visibility, so only
 * these declarations (and the list in libpaddle.map) make its API. */
#if defined(__GNUC__)
#define PADDLE_API __attribute__((visibility("default")))
#else
#define PADDLE_API
#endif

/* The ABI: the N of libpaddle.so.N. It changes only when a signature does. */
#define PADDLE_ABI_VERSION 1

enum paddle_device {
	PADDLE_DEVICE_DEFAULT = 0, /* the GPU in a GPU build, else the CPU */
	PADDLE_DEVICE_CPU = 1,
	PADDLE_DEVICE_GPU = 2,
};

enum paddle_status {
	PADDLE_OK = 0,
	PADDLE_EINVAL = 1,      /* a size is negative or a pointer is NULL */
	PADDLE_ENOMEM = 2,      /* host or device memory ran out */
	PADDLE_ENODEVICE = 3,   /* the device was not built in, or not found */
	PADDLE_EDEVICE = 4,     /* the device reported an error */
	PADDLE_EISA = 5,        /* this CPU lacks the instructions built for */
};

/* The release, e.g. "0.11.0". */
PADDLE_API const char *paddle_version(void);
/* The variant the library was built as, e.g. "gpu-noavx". */
PADDLE_API const char *paddle_variant(void);
/* "cpu" or "gpu": the devices compiled in ("gpu" builds also have cpu). */
PADDLE_API const char *paddle_device(void);
/* The CPU instruction set of the CPU kernel: "avx512f+fma", "avx2+fma" or
 * "portable". */
PADDLE_API const char *paddle_isa(void);
/* The x86-64 level the library was built for, e.g. "x86-64-v3". */
PADDLE_API const char *paddle_isa_level(void);
/* The file this library was loaded from (which glibc-hwcaps build the
 * loader chose), or "" if unknown. */
PADDLE_API const char *paddle_library_path(void);
/* Whether the device can run here (a GPU build on a host with a GPU,
 * an AVX build on a CPU with AVX2 and FMA). */
PADDLE_API int paddle_device_available(enum paddle_device device);
/* C[m x n] = A[m x k] * B[k x n], row-major, on the given device. */
PADDLE_API int paddle_sgemm(enum paddle_device device, int m, int n, int k,
		 const float *a, const float *b, float *c);
/* A sentence describing a status, for messages. */
PADDLE_API const char *paddle_strerror(int status);

#ifdef __cplusplus
}
#endif

#endif
