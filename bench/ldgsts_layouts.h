//===- ldgsts_layouts.h - The lane layouts of ldgsts_layouts.cu -----------===//
//
// Shared by the measuring programs (ldgsts_layouts.cu, ldgsts_lines.cu)
// and by the test that checks the rule against their measurements
// (tests/simulator/async_copy_units_test.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_BENCH_LDGSTS_LAYOUTS_H
#define GMEM_BENCH_LDGSTS_LAYOUTS_H

constexpr int Layouts = 23;

// The layouts: byte offsets of lane L for Size-byte copies; false where a
// layout is not defined for that size.
inline bool layoutOf(int P, unsigned Size, unsigned L, unsigned &G,
                     unsigned &S) {
  const unsigned Row = L / 4, Col = L % 4;
  switch (P) {
  case 0:
    G = L * Size;
    S = L * Size;
    return true; // in order
  case 1:
    G = L * Size;
    S = (L ^ 1) * Size;
    return true; // neighbours swapped
  case 2:
    G = L * Size;
    S = (L ^ 8) * Size;
    return true;
  case 3:
    G = L * Size;
    S = (31 - L) * Size;
    return true; // reversed
  case 4:        // rows of 64 bytes 512 apart, chunks rotated per row pair
    G = Row * 512 + Col * 16;
    S = Row * 64 + ((Col + (Row % 8) / 2) % 4) * 16;
    return Size == 16;
  case 5:
    G = Row * 512 + Col * 16;
    S = Row * 64 + Col * 16;
    return Size == 16;
  case 6:
    G = 16 + L * Size;
    S = L * Size;
    return true; // global misaligned
  case 7:
    G = L * 2 * Size;
    S = ((L / 2) + (L % 2) * 32) * Size;
    return true;
  case 8:
    G = L * Size;
    S = (L / 2) * 4 * Size + (L % 2) * Size;
    return true;
  case 9:
    G = L * Size;
    S = L * Size + (L * Size / 128) * 16;
    return true;
  case 10:
    G = (31 - L) * Size;
    S = L * Size;
    return true;
  case 11:
    G = L * Size;
    S = (L ^ 4) * Size;
    return true;
  case 12:
    G = L * Size;
    S = (L ^ 2) * Size;
    return true;
  case 13:
    G = L * Size;
    S = L * Size + 2048 * (L % 2);
    return true;
  case 14:
    G = L * 2 * Size;
    S = L * 2 * Size;
    return true;
  case 15:
    G = L * Size;
    S = L * 128;
    return true; // one bank
  case 16:
    G = L * 128;
    S = L * Size;
    return true; // one line each
  case 17:
    G = (L % 16) * Size;
    S = L * Size;
    return true; // read twice
  case 18:
    G = L * Size;
    S = (L * Size) ^ 64;
    return true;
  case 19:
    G = L * Size;
    S = L * Size + (Size == 16 ? 16 : 0);
    return true;
  case 20:
    G = L * 2 * Size;
    S = L * Size;
    return true;
  case 21:
    G = L * 4 * Size;
    S = L * Size;
    return true;
  case 22:
    G = L * Size;
    S = L * 2 * Size;
    return true;
  }
  return false;
}

// Every lane's offsets, as layoutOf gives them; false where the layout is
// not defined for that size.
inline bool layoutLanes(int P, unsigned Size, unsigned G[32], unsigned S[32]) {
  bool Defined = true;
  for (unsigned L = 0; L < 32; ++L)
    Defined = layoutOf(P, Size, L, G[L], S[L]) && Defined;
  return Defined;
}

#endif // GMEM_BENCH_LDGSTS_LAYOUTS_H
