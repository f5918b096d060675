#ifndef MCPACK_CZLIB_SHIM_H
#define MCPACK_CZLIB_SHIM_H
#include <zlib.h>
#endif
