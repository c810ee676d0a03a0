/* The AVX2+FMA kernel, compiled with -mavx2 -mfma only when WITH_AVX=ON.
 * Eight columns of C per step: broadcast A[i][p], multiply by eight
 * elements of row p of B and add into C with one fused multiply-add. */
#include <immintrin.h>

#include "internal.h"

static void row_avx2(int n, int k, const float *arow, const float *b,
		     float *crow)
{
	int j = 0;

	for (; j + 8 <= n; j += 8) {
		__m256 acc = _mm256_setzero_ps();

		for (int p = 0; p < k; p++) {
			__m256 av = _mm256_broadcast_ss(arow + p);
			__m256 bv = _mm256_loadu_ps(b + (long)p * n + j);

			acc = _mm256_fmadd_ps(av, bv, acc);
		}
		_mm256_storeu_ps(crow + j, acc);
	}
	for (; j < n; j++) { /* the columns left over after groups of 8 */
		float sum = 0.0f;

		for (int p = 0; p < k; p++)
			sum += arow[p] * b[(long)p * n + j];
		crow[j] = sum;
	}
}

void paddle_gemm_avx2(int m, int n, int k, const float *a, const float *b,
		      float *c)
{
	for (int i = 0; i < m; i++)
		row_avx2(n, k, a + (long)i * k, b, c + (long)i * n);
}
