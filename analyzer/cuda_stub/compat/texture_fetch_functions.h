// Intentionally empty. CUDA 13 removed texture_fetch_functions.h, while
// Clang 19's CUDA wrapper still includes it; this stands in for it.
