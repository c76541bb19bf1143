// Stop a device program with the CUDA error's text where a runtime call fails (the device check
// and the kernel benchmark).
#pragma once

#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                                     \
  do {                                                                                       \
    const cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                       \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)
