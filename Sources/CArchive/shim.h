#ifndef MCPACK_CARCHIVE_SHIM_H
#define MCPACK_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>

/* archive_set_error takes a format and varargs, which Swift cannot call. */
static inline void mcpack_archive_set_error(struct archive *a, int number, const char *message) {
    archive_set_error(a, number, "%s", message);
}
#endif
