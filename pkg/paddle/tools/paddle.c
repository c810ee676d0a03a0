/* paddle: runs the kernel of libpaddle on a known problem and checks the
 * result against a double-precision reference computed here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paddle/paddle.h"

enum { EXIT_MISMATCH = 1, EXIT_USAGE = 2, EXIT_RUN = 3 };

static const char usage[] =
	"usage: paddle [--device cpu|gpu] [--size N]\n"
	"       paddle --version | --help\n\n"
	"Multiplies two N x N matrices (default 96) with libpaddle on the\n"
	"device (default: the GPU in a GPU build, else the CPU) and checks the\n"
	"product against a reference. Exit status: 0 right, 1 wrong,\n"
	"2 usage, 3 the device cannot run here.\n";

/* Small integers keep every partial sum exact in single precision, so
 * any difference from the reference is a real error, not rounding. */
static void fill(float *m, int rows, int cols, int seed)
{
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++)
			m[i * cols + j] = (float)((i * 7 + j * 3 + seed) % 11 - 5);
}

static double max_error(int n, const float *a, const float *b,
			const float *c)
{
	double worst = 0.0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double ref = 0.0;

			for (int p = 0; p < n; p++)
				ref += (double)a[i * n + p] * b[p * n + j];
			worst = fmax(worst, fabs(ref - c[i * n + j]));
		}
	return worst;
}

static int run(enum paddle_device dev, int n)
{
	float *a = malloc(sizeof(float) * n * n);
	float *b = malloc(sizeof(float) * n * n);
	float *c = malloc(sizeof(float) * n * n);
	int st, rc = EXIT_RUN;
	double err;

	if (!a || !b || !c) {
		fprintf(stderr, "paddle: out of memory\n");
		goto out;
	}
	fill(a, n, n, 1);
	fill(b, n, n, 2);
	st = paddle_sgemm(dev, n, n, n, a, b, c);
	if (st != PADDLE_OK) {
		fprintf(stderr, "paddle: sgemm failed: %s\n",
			paddle_strerror(st));
		goto out;
	}
	err = max_error(n, a, b, c);
	rc = err == 0.0 ? 0 : EXIT_MISMATCH;
	printf("paddle: sgemm %dx%dx%d on %s (%s): max error %g: %s\n", n, n,
	       n, dev == PADDLE_DEVICE_GPU ? "gpu" : "cpu",
	       dev == PADDLE_DEVICE_GPU ? "cuda" : paddle_isa(), err,
	       rc ? "WRONG" : "ok");
out:
	free(a);
	free(b);
	free(c);
	return rc;
}

/* What this machine can run: a GPU build also needs a CUDA driver and
 * device, an AVX build a CPU with AVX2 and FMA. */
static void print_found(void)
{
	int cpu = paddle_device_available(PADDLE_DEVICE_CPU);

	printf("found: cpu %s", cpu ? "yes" :
	       "no (this CPU lacks AVX2/FMA; use a -noavx variant)");
	if (!strcmp(paddle_device(), "gpu"))
		printf(", gpu %s", paddle_device_available(PADDLE_DEVICE_GPU) ?
		       "yes" : "no (no CUDA driver or device found)");
	putchar('\n');
}

static void print_version(void)
{
	printf("paddle %s\nvariant: %s (device: %s, isa: %s)\n",
	       paddle_version(), paddle_variant(), paddle_device(),
	       paddle_isa());
	printf("library: %s (built for %s)\n", paddle_library_path(),
	       paddle_isa_level());
	print_found();
}

int main(int argc, char **argv)
{
	int dev = PADDLE_DEVICE_DEFAULT, n = 96;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version")) {
			print_version();
			return 0;
		} else if (!strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
			i++;
			dev = !strcmp(argv[i], "cpu") ? PADDLE_DEVICE_CPU :
			      !strcmp(argv[i], "gpu") ? PADDLE_DEVICE_GPU :
							-1;
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			n = atoi(argv[++i]);
		} else {
			n = -1;
		}
		if (dev < 0 || n < 1 || n > 4096) {
			fputs(usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (dev == PADDLE_DEVICE_DEFAULT)
		dev = strcmp(paddle_device(), "gpu") ? PADDLE_DEVICE_CPU :
						      PADDLE_DEVICE_GPU;
	return run((enum paddle_device)dev, n);
}
