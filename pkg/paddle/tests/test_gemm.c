/* Checks paddle_sgemm on one device against a double-precision reference
 * over shapes that hit every code path: empty, no inner dimension, tiny,
 * not a multiple of the vector width or tile size, and rectangular.
 *   test_gemm cpu|gpu    exit 0 pass, 1 fail, 77 skipped (no such device) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paddle/paddle.h"

static const int shapes[][3] = {
	{ 0, 0, 0 }, { 4, 3, 0 }, { 1, 1, 1 }, { 3, 5, 7 }, { 8, 8, 8 },
	{ 17, 9, 33 }, { 64, 64, 64 }, { 31, 100, 15 }, { 128, 72, 96 },
};

/* A small linear congruential generator: the same numbers everywhere. */
static float next(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (float)((*state >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static int check_shape(enum paddle_device dev, int m, int n, int k)
{
	float *a = calloc((size_t)m * k + 1, sizeof(float));
	float *b = calloc((size_t)k * n + 1, sizeof(float));
	float *c = calloc((size_t)m * n + 1, sizeof(float));
	unsigned seed = 42u + m + n + k;
	int st, bad = 0;

	for (int i = 0; i < m * k; i++)
		a[i] = next(&seed);
	for (int i = 0; i < k * n; i++)
		b[i] = next(&seed);
	for (int i = 0; i < m * n; i++)
		c[i] = 12345.0f; /* every element must be written */
	st = paddle_sgemm(dev, m, n, k, a, b, c);
	if (st != PADDLE_OK) {
		printf("%dx%dx%d: %s\n", m, n, k, paddle_strerror(st));
		bad = 1;
	}
	for (int i = 0; !bad && i < m; i++)
		for (int j = 0; !bad && j < n; j++) {
			double ref = 0.0, mag = 0.0;

			for (int p = 0; p < k; p++) {
				ref += (double)a[i * k + p] * b[p * n + j];
				mag += fabs((double)a[i * k + p] * b[p * n + j]);
			}
			/* single precision: allow a few ulps per term */
			if (fabs(ref - c[i * n + j]) > 1e-6 * (mag + 1.0) * k) {
				printf("%dx%dx%d: C[%d][%d] = %.9g, reference "
				       "%.9g\n", m, n, k, i, j, c[i * n + j], ref);
				bad = 1;
			}
		}
	free(a);
	free(b);
	free(c);
	return bad;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "cpu";
	enum paddle_device dev = strcmp(name, "gpu") ? PADDLE_DEVICE_CPU :
						       PADDLE_DEVICE_GPU;
	int failed = 0;

	if (!paddle_device_available(dev)) {
		printf("skipped: the %s kernel cannot run on this host\n", name);
		return 77;
	}
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		failed |= check_shape(dev, shapes[i][0], shapes[i][1],
				      shapes[i][2]);
	printf("%s: %s (%s)\n", paddle_variant(), failed ? "FAIL" : "ok",
	       dev == PADDLE_DEVICE_GPU ? "cuda" : paddle_isa());
	return failed;
}
