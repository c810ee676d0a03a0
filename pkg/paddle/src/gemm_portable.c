/* The portable kernel: plain C the compiler may vectorise only with the
 * instructions the build allows (SSE2 on x86-64 for no-AVX variants). */
#include "internal.h"

/* i-k-j order walks B and C row by row, which keeps the inner loop on
 * contiguous memory. */
void paddle_gemm_portable(int m, int n, int k, const float *a,
			  const float *b, float *c)
{
	for (int i = 0; i < m; i++) {
		float *crow = c + (long)i * n;

		for (int j = 0; j < n; j++)
			crow[j] = 0.0f;
		for (int p = 0; p < k; p++) {
			const float aip = a[(long)i * k + p];
			const float *brow = b + (long)p * n;

			for (int j = 0; j < n; j++)
				crow[j] += aip * brow[j];
		}
	}
}
