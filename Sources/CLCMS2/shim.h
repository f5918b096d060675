#ifndef MCPACK_CLCMS2_SHIM_H
#define MCPACK_CLCMS2_SHIM_H
#include <lcms2.h>
#endif
