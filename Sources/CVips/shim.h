#ifndef MCPACK_CVIPS_SHIM_H
#define MCPACK_CVIPS_SHIM_H
#include <vips/vips.h>
#endif
