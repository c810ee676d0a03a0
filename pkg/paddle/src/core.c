/* libpaddle: what the library was built as, and the dispatch of the one
 * kernel to the device and instruction set compiled in. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <string.h>

#include "paddle/paddle.h"
#include "internal.h"

#ifndef PADDLE_VERSION_STRING
#error "PADDLE_VERSION_STRING must be defined by the build"
#endif
#ifndef PADDLE_VARIANT_STRING
#error "PADDLE_VARIANT_STRING must be defined by the build"
#endif

const char *paddle_version(void)
{
	return PADDLE_VERSION_STRING;
}

const char *paddle_variant(void)
{
	return PADDLE_VARIANT_STRING;
}

const char *paddle_isa_level(void)
{
	return PADDLE_ISA_LEVEL_STRING;
}

/* The loader knows which file holds this function: with glibc-hwcaps
 * builds, the one it chose for this CPU. */
const char *paddle_library_path(void)
{
	Dl_info info;

	if (!dladdr((void *)paddle_library_path, &info) || !info.dli_fname)
		return "";
	return info.dli_fname;
}

const char *paddle_device(void)
{
#ifdef PADDLE_WITH_GPU
	return "gpu";
#else
	return "cpu";
#endif
}

const char *paddle_isa(void)
{
#if defined(PADDLE_WITH_AVX512)
	return "avx512f+fma";
#elif defined(PADDLE_WITH_AVX)
	return "avx2+fma";
#else
	return "portable";
#endif
}

static int cpu_available(void)
{
#if defined(PADDLE_WITH_AVX512)
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
#elif defined(PADDLE_WITH_AVX)
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
	return 1;
#endif
}

int paddle_device_available(enum paddle_device device)
{
	switch (device) {
	case PADDLE_DEVICE_CPU:
		return cpu_available();
	case PADDLE_DEVICE_GPU:
#ifdef PADDLE_WITH_GPU
		return paddle_cuda_available();
#else
		return 0;
#endif
	case PADDLE_DEVICE_DEFAULT:
		return paddle_device_available(*paddle_device() == 'g' ?
					       PADDLE_DEVICE_GPU :
					       PADDLE_DEVICE_CPU);
	}
	return 0;
}

static int sgemm_cpu(int m, int n, int k, const float *a, const float *b,
		     float *c)
{
	if (!cpu_available())
		return PADDLE_EISA; /* rather than dying of SIGILL */
#if defined(PADDLE_WITH_AVX512)
	paddle_gemm_avx512(m, n, k, a, b, c);
#elif defined(PADDLE_WITH_AVX)
	paddle_gemm_avx2(m, n, k, a, b, c);
#else
	paddle_gemm_portable(m, n, k, a, b, c);
#endif
	return PADDLE_OK;
}

int paddle_sgemm(enum paddle_device device, int m, int n, int k,
		 const float *a, const float *b, float *c)
{
	if (m < 0 || n < 0 || k < 0 || ((!a || !b || !c) && m && n && k))
		return PADDLE_EINVAL;
	if (device == PADDLE_DEVICE_DEFAULT)
		device = *paddle_device() == 'g' ? PADDLE_DEVICE_GPU :
						   PADDLE_DEVICE_CPU;
	if (device != PADDLE_DEVICE_CPU && device != PADDLE_DEVICE_GPU)
		return PADDLE_EINVAL;
	if (!m || !n)
		return PADDLE_OK;
	if (!k) { /* a sum of no products: no kernel needed, on any device */
		memset(c, 0, sizeof(float) * (size_t)m * (size_t)n);
		return PADDLE_OK;
	}
	if (device == PADDLE_DEVICE_CPU)
		return sgemm_cpu(m, n, k, a, b, c);
#ifdef PADDLE_WITH_GPU
	return paddle_gemm_cuda(m, n, k, a, b, c);
#else
	return PADDLE_ENODEVICE;
#endif
}

const char *paddle_strerror(int status)
{
	switch (status) {
	case PADDLE_OK:
		return "success";
	case PADDLE_EINVAL:
		return "invalid argument (negative size or missing matrix)";
	case PADDLE_ENOMEM:
		return "out of memory";
	case PADDLE_ENODEVICE:
		return "no such device: not built in, or none found on this host";
	case PADDLE_EDEVICE:
		return "the device reported an error";
	case PADDLE_EISA:
		return "this CPU lacks AVX2/FMA, which this build of Paddle "
		       "needs; use a -noavx variant";
	}
	return "unknown status";
}
