// Separately compiled device code (nvcc -rdc=true): called from
// rdc_main.cu's kernels, never inlined into them.
__device__ float load3(const float *p, int i) {
  return p[3 * i] + p[3 * i + 1] + p[3 * i + 2];
}
__device__ void storeStrided(float *p, int i, float v) { p[i * 2] = v; }
