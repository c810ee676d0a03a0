/* Kernels behind paddle_sgemm; not exported (see libpaddle.map). */
#ifndef PADDLE_INTERNAL_H
#define PADDLE_INTERNAL_H

#ifdef __cplusplus
extern "C" {
#endif

void paddle_gemm_portable(int m, int n, int k, const float *a,
			  const float *b, float *c);
#ifdef PADDLE_WITH_AVX
void paddle_gemm_avx2(int m, int n, int k, const float *a, const float *b,
		      float *c);
#endif
#ifdef PADDLE_WITH_AVX512
void paddle_gemm_avx512(int m, int n, int k, const float *a, const float *b,
			float *c);
#endif
#ifdef PADDLE_WITH_GPU
/* Both return a paddle_status. */
int paddle_gemm_cuda(int m, int n, int k, const float *a, const float *b,
		     float *c);
int paddle_cuda_available(void);
#endif

#ifdef __cplusplus
}
#endif

#endif
