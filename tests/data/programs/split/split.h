// A program split as the SDK samples split theirs (written for the tests):
// main() in split_main.cpp, kernels and launch wrappers in split_kernels.cu.
#pragma once

// Instantiated for float in split_kernels.cu only.
template <class T> void scaleAll(T *a, int n, int threads);
void shiftAll(float *a, int n);
// Defined in no file of the program.
void notGiven(float *a);
