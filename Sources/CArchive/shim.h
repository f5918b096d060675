#ifndef MCPACK_CARCHIVE_SHIM_H
#define MCPACK_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
