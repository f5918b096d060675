// Fixed-argument wrappers for what Swift cannot call in libvips: a few of
// its functions take NULL-terminated variadic option lists and parse file
// names and option strings themselves, and a few things (VIPS_INIT,
// g_signal_connect) are macros. Each wrapper is one call, supplying the
// options it is given and the terminator; what to ask for is decided in
// Imaging, which calls every libvips operation else through libvips's
// generic operation interface (VipsCall).
// Prefix: mcvips_.
#ifndef MCPACK_MCVIPS_H
#define MCPACK_MCVIPS_H

#include <vips/vips.h>

/// Starts libvips (VIPS_INIT, which checks the library's ABI first), with
/// or without its optional modules (see mcvips.c). Returns 0 on success.
int mcvips_init(const char *argv0, int with_modules);

/// The VIPSHOME mcvips_init gives libvips without modules, when the user
/// set none.
extern const char *const mcvips_home_without_modules;

/// Caps glibc's malloc arenas (a no-op elsewhere). Call before threads start.
void mcvips_bound_malloc_arenas(int arenas);

/// In a process that capped its arenas, fixes the size from which glibc
/// gives a block a mapping of its own at `block` (a tile's largest), or
/// 256 KiB if more; raised only. Called as a tiling starts; a no-op off
/// glibc.
void mcvips_fix_mmap_threshold(size_t block);

/// Unmaps the program's own code pages (Linux; a no-op elsewhere): those a
/// tiling runs fault back in from the page cache.
void mcvips_unmap_program_code(void);

/// Opens an image file lazily (header only until pixels are needed), with
/// `access` (a VipsAccess) and `fail_on` (a VipsFailOn).
VipsImage *mcvips_image_new_from_file(const char *path, int access, int fail_on);

/// Opens an image held in memory; the buffer must outlive the image.
VipsImage *mcvips_image_new_from_buffer(const void *buf, size_t len, int fail_on);

/// Encodes as PNG; the caller frees *buf with g_free.
int mcvips_pngsave_buffer(VipsImage *image, void **buf, size_t *len, int compression, int strip);

/// Encodes as baseline JPEG; *buf freed with g_free.
int mcvips_jpegsave_buffer(VipsImage *image, void **buf, size_t *len, int quality, int strip);

/// Writes a file in the format its suffix names.
int mcvips_write_file(VipsImage *image, const char *path, int strip);

/// Encodes in the format `suffix` names, with the options it carries
/// (".jpg[Q=85,strip]"); *buf freed with g_free.
int mcvips_save_buffer(VipsImage *image, const char *suffix, void **buf, size_t *len);

/// Called as libvips computes an image whose progress is asked for.
typedef void (*mcvips_eval_fn)(VipsImage *image, VipsProgress *progress, void *context);

/// Connects `fn` to the image's "eval" signal; returns the handler's id,
/// for g_signal_handler_disconnect.
gulong mcvips_connect_eval(VipsImage *image, mcvips_eval_fn fn, void *context);

#endif
