/* The AVX-512 kernel, compiled with -mavx512f -mfma only when WITH_AVX512
 * is ON: sixteen columns of C per step, one broadcast element of A times
 * sixteen elements of row p of B, added into C with one fused multiply-add;
 * the columns left over are done by a masked step. */
#include <immintrin.h>

#include "internal.h"

static void row_avx512(int n, int k, const float *arow, const float *b,
		       float *crow)
{
	for (int j = 0; j < n; j += 16) {
		int left = n - j < 16 ? n - j : 16;
		__mmask16 mask = (__mmask16)((1u << left) - 1u);
		__m512 acc = _mm512_setzero_ps();

		for (int p = 0; p < k; p++) {
			__m512 av = _mm512_set1_ps(arow[p]);
			__m512 bv = _mm512_maskz_loadu_ps(mask,
							  b + (long)p * n + j);

			acc = _mm512_fmadd_ps(av, bv, acc);
		}
		_mm512_mask_storeu_ps(crow + j, mask, acc);
	}
}

void paddle_gemm_avx512(int m, int n, int k, const float *a, const float *b,
			float *c)
{
	for (int i = 0; i < m; i++)
		row_avx512(n, k, a + (long)i * k, b, c + (long)i * n);
}
