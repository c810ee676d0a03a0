// The CUDA kernel, compiled by nvcc when WITH_GPU=ON. Each block computes
// a TILE x TILE square of C from tiles of A and B staged in shared memory.
#include <cuda_runtime.h>

#include "internal.h"
#include "paddle/paddle.h"

#define TILE 16

__global__ static void sgemm_tiled(int m, int n, int k, const float *a,
				   const float *b, float *c)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;

	for (int t = 0; t < k; t += TILE) {
		int ak = t + threadIdx.x, bk = t + threadIdx.y;

		as[threadIdx.y][threadIdx.x] =
			row < m && ak < k ? a[(long)row * k + ak] : 0.0f;
		bs[threadIdx.y][threadIdx.x] =
			bk < k && col < n ? b[(long)bk * n + col] : 0.0f;
		__syncthreads();
		for (int p = 0; p < TILE; p++)
			sum += as[threadIdx.y][p] * bs[p][threadIdx.x];
		__syncthreads();
	}
	if (row < m && col < n)
		c[(long)row * n + col] = sum;
}

static int status_of(cudaError_t e)
{
	if (e == cudaSuccess)
		return PADDLE_OK;
	if (e == cudaErrorMemoryAllocation)
		return PADDLE_ENOMEM;
	if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
		return PADDLE_ENODEVICE;
	return PADDLE_EDEVICE;
}

extern "C" int paddle_cuda_available(void)
{
	int count = 0;

	return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// Copies A and B in, runs the kernel, copies C out; frees on every path.
extern "C" int paddle_gemm_cuda(int m, int n, int k, const float *a,
				const float *b, float *c)
{
	size_t sa = sizeof(float) * m * k, sb = sizeof(float) * k * n;
	size_t sc = sizeof(float) * m * n;
	float *da = NULL, *db = NULL, *dc = NULL;
	cudaError_t e;

	if ((e = cudaMalloc(&da, sa)) == cudaSuccess &&
	    (e = cudaMalloc(&db, sb)) == cudaSuccess &&
	    (e = cudaMalloc(&dc, sc)) == cudaSuccess &&
	    (e = cudaMemcpy(da, a, sa, cudaMemcpyHostToDevice)) == cudaSuccess &&
	    (e = cudaMemcpy(db, b, sb, cudaMemcpyHostToDevice)) == cudaSuccess) {
		dim3 block(TILE, TILE);
		dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);

		sgemm_tiled<<<grid, block>>>(m, n, k, da, db, dc);
		if ((e = cudaGetLastError()) == cudaSuccess)
			e = cudaMemcpy(c, dc, sc, cudaMemcpyDeviceToHost);
	}
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	return status_of(e);
}
