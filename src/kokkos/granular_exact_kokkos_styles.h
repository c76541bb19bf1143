/* -*- c++ -*- ----------------------------------------------------------
   GRANULAR-EXACT: registration of the Kokkos styles (granular/exact/kk,
   /kk/device, /kk/host) with the plugin's register function
------------------------------------------------------------------------- */

#ifndef GE_GRANULAR_EXACT_KOKKOS_STYLES_H
#define GE_GRANULAR_EXACT_KOKKOS_STYLES_H

void ge_register_kokkos_styles(void *lmp, void *handle, void *regfunc);

#endif
